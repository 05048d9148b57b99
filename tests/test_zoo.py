"""The PettingZoo environment (trackage.envs): PettingZoo's own API test for two titles, one
random game to the end through the environment, and its errors."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test

from trackage.envs import ENVS, MAX_ACTIONS, make, raw_env
from trackage.titles import TITLES

# api_test's advice for plain observations; ours are a dict (observation, action_mask), as PettingZoo's board games'
pytestmark = pytest.mark.filterwarnings("ignore:Observation:UserWarning")


@pytest.mark.parametrize(("title", "players"), [("1893", 2), ("1867", 3)])
def test_pettingzoo_api(title, players):
    api_test(make(title, num_players=players, seed=1), num_cycles=60)


def test_random_game_to_the_end():
    env = make("1893", num_players=2, seed=1)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    space = env.observation_space("player_1")
    total = dict.fromkeys(env.possible_agents, 0.0)
    infos = {}
    moves = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        total[agent] += reward
        if terminated or truncated:
            assert not truncated
            infos[agent] = info
            env.step(None)
            continue
        assert space.contains(obs)
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) == len(env.unwrapped.legal_action_ids()) > 0
        env.step(int(rng.choice(legal)))
        moves += 1
    game = env.unwrapped.spiel_state.game
    assert game.finished and moves == len(game.actions) and not env.agents
    result = game.result()
    scores = [result[str(p.id)] for p in game.seats]
    assert [infos[a]["score"] for a in env.possible_agents] == scores
    top = max(scores)
    assert total == {a: (1.0 / scores.count(top) if s == top else 0.0) for a, s in zip(env.possible_agents, scores)}


def test_masks_and_errors():
    env = raw_env("1893", 2, seed=3)
    acting = env.agent_selection
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.shape == (MAX_ACTIONS,)
        assert mask.sum() == (len(env.legal_action_ids()) if agent == acting else 0)
    obs = [env.observe(a)["observation"] for a in env.possible_agents]
    assert obs[0].shape == obs[1].shape and not np.array_equal(obs[0], obs[1])  # the observer is marked
    assert env.action_to_string(0)
    with pytest.raises(ValueError, match="not legal now"):
        env.step(MAX_ACTIONS - 1)
    assert set(ENVS) == set(TITLES)
    with pytest.raises(ValueError, match="unknown title"):
        make("1830")
