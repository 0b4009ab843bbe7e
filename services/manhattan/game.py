"""Manhattan as the kit's other processes find it (the ``boardgames.games`` entry point,
shared/registry.py): its engine and Redis key prefix, without the HTTP app."""

from __future__ import annotations

from services.manhattan.rules import ENGINE
from shared.registry import Game

GAME = Game(ENGINE, key_prefix="mh")
