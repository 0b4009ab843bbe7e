"""Marks on request hooks whose work :mod:`shared.http.fastpath` does itself.

The hot path answers a game's read and its moves without Flask's request machinery, so
it runs none of the app's ``before_request``/``after_request`` hooks. It does so only
while every hook of the app is marked here: a hook it does not know (one added later,
by another module or a test) turns it off and every request takes Flask's path again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])
_MARK = "_boardgames_hot_path"


def covered(hook: F) -> F:
    """Mark ``hook``: the hot path does its work for the requests it answers (or the
    hook has nothing to do for them)."""
    setattr(hook, _MARK, True)
    return hook


def is_covered(hook: Callable[..., Any]) -> bool:
    """Whether ``hook`` was marked with :func:`covered`."""
    return bool(getattr(hook, _MARK, False))
