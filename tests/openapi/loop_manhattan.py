"""A game loop an integrator would write against the client generated from
docs/openapi/manhattan.json (package ``manhattan_client``); mypy --strict must pass."""

from __future__ import annotations

import random

from manhattan_client import AuthenticatedClient
from manhattan_client.api.games import (
    create_game,
    join_game,
    list_legal_moves,
    make_move,
    start_game,
)
from manhattan_client.models import (
    Created,
    JoinAsPlayer,
    Joined,
    LegalMoves,
    ManhattanOptions,
    ManhattanResult,
    MoveResult,
    View,
)


def play(base_url: str, seed: int, api_key: str = "keys-are-off") -> ManhattanResult:
    """A complete two-player game with random legal moves; the final result."""
    creator = AuthenticatedClient(base_url=base_url, token=api_key)  # ignored with keys off
    created = create_game.sync(client=creator, body=ManhattanOptions(players=2, seed=seed))
    assert isinstance(created, Created)
    seats: list[AuthenticatedClient] = []
    for name in ("Ada", "Grace"):
        joined = join_game.sync(created.id, client=creator, body=JoinAsPlayer(name=name))
        assert isinstance(joined, Joined) and joined.token is not None
        seats.append(AuthenticatedClient(base_url=base_url, token=joined.token))
    host = AuthenticatedClient(base_url=base_url, token=created.host_token)
    game = start_game.sync(created.id, client=host)
    assert isinstance(game, View)
    rng = random.Random(seed)
    while game.status == "running":
        seat = seats[rng.choice(game.to_act)]
        legal = list_legal_moves.sync(created.id, client=seat)
        assert isinstance(legal, LegalMoves) and legal.moves
        answer = make_move.sync(created.id, client=seat, body=rng.choice(legal.moves))
        assert isinstance(answer, MoveResult)
        game = answer.game
    assert game.result is not None
    return game.result
