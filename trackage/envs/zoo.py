"""A PettingZoo AEC environment over :mod:`trackage.spiel`: one agent per seat.

    from trackage.envs import make

    env = make("1893", num_players=2, seed=1)
    env.reset()
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        mask = obs["action_mask"]
        action = None if terminated or truncated else int(mask.nonzero()[0][0])
        env.step(action)

Agents are ``player_1`` .. ``player_N`` (seat order); the agent to act is the seat of whoever
acts now (a company's president for a company).

**Observations**: a dict per agent with ``observation``, the float32 vector of
:mod:`.observe` (public state, the observer and the acting seat marked), and ``action_mask``.

**Actions** are a bounded index space: spiel's encoding (:class:`trackage.spiel.ActionEncoding`)
is fixed-size but has millions of ids per title, too many for a mask, so action ``i`` is the
``i``-th of the state's legal spiel actions in increasing id order (``legal_action_ids``),
and the space is ``Discrete(max_actions)`` (``MAX_ACTIONS`` by default). The mask marks the
first ``min(len(legal), max_actions)`` indices for the agent to act and none for the others;
legal actions past the cap cannot be chosen (random games of 1822 and 1858 list a few hundred
at most). ``spiel_action(i)`` and ``action_to_string(i)`` say what an index does.

**Rewards** are zero until the game ends by its rules; then each agent's win share (1 for the
top score, 1/k for k seats sharing it, else 0), and ``infos[agent]["score"]`` its final score.
A game reaching ``max_game_length`` actions is truncated, with no rewards."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from types import MappingProxyType
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..spiel import SpielGame, SpielState
from ..titles import TITLES, game_class
from .observe import Layout

MAX_ACTIONS = 1024


class TrackageEnv(AECEnv):  # type: ignore[misc]  # pettingzoo has no type information
    """The AEC environment of one title, player count and options (see the module)."""

    def __init__(self, title: str, num_players: int | None = None, options: list[str] | tuple[str, ...] = (),
                 seed: int = 0, max_actions: int = MAX_ACTIONS, max_game_length: int = 20_000,
                 render_mode: str | None = None):
        super().__init__()
        if num_players is None:
            num_players = max(2, int(game_class(title).PLAYER_RANGE[0]))
        if max_actions < 1:
            raise ValueError(f"trackage env: max_actions must be at least 1, not {max_actions}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"trackage env: render_mode {render_mode!r} is not offered (None or 'ansi')")
        self.title = title
        self.num_players = num_players
        self.options = list(options)
        self.seed = seed
        self.max_actions = max_actions
        self.max_game_length = max_game_length
        self.render_mode = render_mode
        self.metadata = {"name": f"trackage_{title}_v0", "render_modes": ["ansi"], "is_parallelizable": False}
        self._spiel = SpielGame(title, num_players, self.options, seed, max_game_length)
        self._layout = Layout.of(self._spiel.new_initial_state().game)
        self.possible_agents = [f"player_{i + 1}" for i in range(num_players)]
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, shape=(self._layout.size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(max_actions,), dtype=np.int8),
        }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(max_actions) for a in self.possible_agents}
        self._state: SpielState = self._spiel.new_initial_state()
        self._legal: list[int] = []
        self._begin()

    # -- spaces ---------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the game -------------------------------------------------------------------------------
    @property
    def spiel_state(self) -> SpielState:
        """The spiel state behind the environment (its ``game`` is the trackage game)."""
        return self._state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: seeded ``seed`` (the environment's own seed when ``None``)."""
        if seed is not None and seed != self._spiel.seed:
            self._spiel = SpielGame(self.title, self.num_players, self.options, seed, self.max_game_length)
        self._state = self._spiel.new_initial_state()
        self._begin()

    def _begin(self) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._after_move()

    def _acting(self) -> int | None:
        seat = self._state.current_player()
        return None if seat < 0 or self._state.is_terminal() else seat

    def _after_move(self) -> None:
        seat = self._acting()
        self._legal = self._state.legal_actions() if seat is not None else []
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
            self.infos[self.agent_selection]["legal_actions"] = min(len(self._legal), self.max_actions)

    def legal_action_ids(self) -> list[int]:
        """The legal spiel action ids now, in increasing order (action ``i`` is the ``i``-th)."""
        return list(self._legal)

    def spiel_action(self, index: int) -> int:
        """The spiel action id of action ``index`` now."""
        if not 0 <= index < min(len(self._legal), self.max_actions):
            raise ValueError(f"trackage env: action {index} is not legal now "
                             f"({min(len(self._legal), self.max_actions)} legal actions: 0..)")
        return self._legal[index]

    def action_to_string(self, index: int) -> str:
        return self._state.action_to_string(self.spiel_action(index))

    # -- the AEC protocol -----------------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        seat = self.possible_agents.index(agent)
        acting = self._acting()
        mask = np.zeros(self.max_actions, dtype=np.int8)
        if acting == seat:
            mask[:min(len(self._legal), self.max_actions)] = 1
        return {"observation": self._layout.vector(self._state.game, seat, acting), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"trackage env: {agent} is to act and gave no action")
        self._cumulative_rewards[agent] = 0.0
        self.infos[agent].pop("legal_actions", None)
        self._state.apply_action(self.spiel_action(int(action)))
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self._state.game.finished:
            self._finish()
        elif self._state.is_terminal():
            self.truncations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[0]
        else:
            self._after_move()
        self._accumulate_rewards()

    def _finish(self) -> None:
        from ..bots.play import outcome

        out = outcome(self._state.game)
        for seat, agent in enumerate(self.possible_agents):
            self.rewards[agent] = float(out.wins[seat])
            self.infos[agent]["score"] = out.scores[seat]
        self.terminations = dict.fromkeys(self.agents, True)
        self._legal = []
        self.agent_selection = self.agents[0]

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        g = self._state.game
        cash = ", ".join(f"{p.name} {p.cash}" for p in g.seats)
        return f"{self.title} {g.round.name} {g.turn}.{g.round.round_num} phase {g.phase.name}: {cash}"

    def close(self) -> None:
        pass


def raw_env(title: str, num_players: int | None = None, options: list[str] | tuple[str, ...] = (),
            seed: int = 0, **kwargs: Any) -> TrackageEnv:
    """The environment without PettingZoo's wrappers."""
    return TrackageEnv(title, num_players, options, seed, **kwargs)


def env(title: str, num_players: int | None = None, options: list[str] | tuple[str, ...] = (),
        seed: int = 0, **kwargs: Any) -> AECEnv:
    """The environment of ``title`` (``num_players``: the title's fewest, at least 2, when not
    given), wrapped as PettingZoo's own environments are (calls in the AEC order enforced)."""
    return wrappers.OrderEnforcingWrapper(raw_env(title, num_players, options, seed, **kwargs))


# one constructor per title: ENVS["1893"](num_players=2, seed=1)
ENVS: Mapping[str, Callable[..., AECEnv]] = MappingProxyType({t: partial(env, t) for t in TITLES})


def make(title: str, **kwargs: Any) -> AECEnv:
    """The wrapped environment of ``title`` (keywords as :func:`env`)."""
    if title not in ENVS:
        raise ValueError(f"trackage env: unknown title {title!r} (known: {', '.join(ENVS)})")
    return ENVS[title](**kwargs)
