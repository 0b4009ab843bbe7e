"""A WSGI app answering which gunicorn worker served it and how many objects that worker
keeps out of the collector's sight (``gc.get_freeze_count()``), for
tests/ops/test_gunicorn_conf.py."""

from __future__ import annotations

import gc
import json
import os
from collections.abc import Callable, Iterable
from typing import Any


def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    body = json.dumps({"pid": os.getpid(), "frozen": gc.get_freeze_count()}).encode()
    start_response("200 OK", [("Content-Type", "application/json")])
    return [body]
