"""The PettingZoo AEC environment over any game's :class:`~shared.rl.codec.Codec`.

Agents ``player_0..player_{n-1}`` are seats ``0..n-1``. ``agent_selection`` is the
lowest seat in ``engine.to_act``: one seat at a time in Manhattan; when several seats
answer at once (Wind City's insurance market), they act one after the other in seat
order. That order leaks nothing: each answer is made from the seat's own view, which
never shows another seat's pending answer (the engine reveals them together).

Observations are ``{"observation": float32 vector, "action_mask": int8 vector}``: the
vector is the codec's encoding of ``engine.view(state, seat)``, the mask marks the action
kinds that are listed moves of the selected agent now (all zeros for the others).
Rewards come only at the end, from the final ranking: (seats ranked below - seats ranked
above) / (n - 1), so +1 for a sole winner, -1 for a sole last, 0 for a two-way tie, and
they sum to 0. Every agent terminates at the game's end; nothing truncates (Wind City
has its own ``max_turns`` safety stop, Manhattan a fixed number of rounds).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import AECEnv

from shared.engine import Move, State
from shared.rl.codec import Codec

Observation = dict[str, NDArray[Any]]


class GameEnv(AECEnv):
    """One game of ``codec``'s engine for ``players`` seats (engine ``options``).

    ``reset(seed=s)`` starts ``engine.setup(players, options, s)``: the same seed, the
    same game (the engine's own RNG lives in its state). Without a seed, the next game's
    seed is drawn from the generator the last seed started (or from fresh entropy).

    ``state`` is the engine's whole state, hidden parts included: for bots (which decide
    from a seat's view, e.g. ``shared.bots.decide``) and tests, never for an agent.
    """

    metadata = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        codec: Codec,
        players: int = 2,
        options: dict[str, Any] | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        engine = codec.engine
        if not engine.MIN_PLAYERS <= players <= engine.MAX_PLAYERS:
            raise ValueError(
                f"{engine.NAME} needs {engine.MIN_PLAYERS}-{engine.MAX_PLAYERS} players"
            )
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.codec = codec
        self.engine = engine
        self.players = players
        self.options = dict(options or {})
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"{engine.NAME}_v0"}
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        size = codec.size
        n = len(codec.actions)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (n,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(n) for agent in self.possible_agents}
        self.state: State = {}
        self._seeds = np.random.default_rng()
        self._legal: dict[int, Move] = {}  # the selected agent's moves by action
        self._legal_of: tuple[State, int] | None = None  # the state and seat they are of

    def __str__(self) -> str:
        return str(self.metadata["name"])

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game (``options`` is accepted for the API and not used: the game's
        options are the constructor's)."""
        if seed is None:
            seed = int(self._seeds.integers(1 << 63))
        else:
            self._seeds = np.random.default_rng(seed)
        self.state = self.engine.setup(self.players, self.options, seed)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self._selected()

    def _selected(self) -> str:
        to_act = self.engine.to_act(self.state)
        return self.possible_agents[min(to_act)] if to_act else self.agent_selection

    def legal(self, seat: int) -> dict[int, Move]:
        """``seat``'s listed moves by action (``{}`` unless it is the selected agent)."""
        if seat != self.seat.get(self.agent_selection, -1) or self.engine.is_over(self.state):
            return {}
        of = self._legal_of
        if of is None or of[0] is not self.state or of[1] != seat:
            index, key = self.codec.index, self.codec.key
            legal: dict[int, Move] = {}
            for move in self.engine.legal_moves(self.state, seat):
                action = index[key(move)]
                assert action not in legal, f"two listed moves share an action: {move}"
                legal[action] = move
            self._legal, self._legal_of = legal, (self.state, seat)
        return self._legal

    def action_of(self, move: Move) -> int:
        """The action of a listed move (e.g. a bot's: ``shared.bots.decide``)."""
        return self.codec.index[self.codec.key(move)]

    def observe(self, agent: str) -> Observation:
        seat = self.seat[agent]
        vector = self.codec.encode(self.engine.view(self.state, seat), seat, self.players)
        mask = np.zeros(len(self.codec.actions), dtype=np.int8)
        mask[list(self.legal(seat))] = 1
        return {"observation": vector, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.seat[agent]
        move = self.legal(seat).get(-1 if action is None else int(action))
        if move is None:
            raise ValueError(f"action {action} is not a legal move of {agent} (see its mask)")
        self._clear_rewards()
        self._cumulative_rewards[agent] = 0.0
        self.state, _ = self.engine.apply_move(self.state, seat, move)
        if self.engine.is_over(self.state):
            self.rewards.update(self.final_rewards())
            self.terminations = {a: True for a in self.agents}
        else:
            self.agent_selection = self._selected()
        self._accumulate_rewards()

    def final_rewards(self) -> dict[str, float]:
        """Each agent's reward from the final ranking (see the module docstring)."""
        result = self.engine.result(self.state)
        assert result is not None
        rank = {s["seat"]: s["rank"] for s in result["standings"]}
        n = self.players
        return {
            agent: sum((rank[o] > rank[seat]) - (rank[o] < rank[seat]) for o in range(n)) / (n - 1)
            for agent, seat in self.seat.items()
        }

    def render(self) -> str | None:
        """``ansi``: one line (game, phase, who acts; the final ranking once over)."""
        if self.render_mode is None:
            return None
        view = self.engine.view(self.state, None)
        line = f"{self.engine.NAME}: {view['phase']}, to act {self.engine.to_act(self.state)}"
        result = self.engine.result(self.state)
        if result is not None:
            line += f", standings {[s['seat'] for s in result['standings']]}"
        return line

    def close(self) -> None:
        """Nothing to release: the game is plain data."""
