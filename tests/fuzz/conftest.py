"""Print how many requests the Schemathesis run sent (see test_openapi.py)."""

from __future__ import annotations

import sys
from typing import Any


def pytest_terminal_summary(terminalreporter: Any) -> None:
    module = sys.modules.get("tests.fuzz.test_openapi")
    if module is None or not module.REQUESTS:
        return
    terminalreporter.section("schemathesis")
    for line in module.summary_lines():
        terminalreporter.write_line(line)
