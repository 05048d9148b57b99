"""The OpenSpiel-shaped view: integer actions that round-trip, clones, returns."""

from __future__ import annotations

import random

import pytest
from conftest import FIXTURES

from trackage.core.state import full_state
from trackage.replay import replay_file
from trackage.spiel import TERMINAL, EncodingError, SpielGame, SpielState


@pytest.mark.parametrize("title,n", [("1825", 3), ("1867", 4), ("1861", 3), ("1893", 3), ("1822", 3),
                                     ("1858", 4), ("1858India", 4)])
def test_random_steps_round_trip(title, n):
    sg = SpielGame(title, n, seed=2)
    st = sg.new_initial_state()
    rng = random.Random(2)
    for _ in range(60):
        if st.is_terminal():
            break
        legal = st.legal_actions()
        assert legal == sorted(set(legal)) and all(0 <= i < sg.num_distinct_actions() for i in legal)
        assert 0 <= st.current_player() < n
        for i in rng.sample(legal, min(5, len(legal))):
            assert st.encode(st.decode(i)) == i
            assert isinstance(st.action_to_string(i), str)
        before = full_state(st.game)
        c = st.clone()
        c.apply_action(rng.choice(c.legal_actions()))
        assert full_state(st.game) == before  # a clone goes its own way
        st.apply_action(rng.choice(legal))
    with pytest.raises(EncodingError):
        st.decode(-1)
    assert st.returns() == [0.0] * n
    assert st.observation()["round"]


@pytest.mark.skipif(not (FIXTURES / "1893").is_dir(), reason=f"no shared fixtures in {FIXTURES}")
def test_returns_of_a_finished_game():
    out = replay_file(FIXTURES / "1893" / "1893_game_end_bank.json")
    n = len(out.game.players)
    st = SpielState(SpielGame("1893", n), out.game)
    assert st.is_terminal() and st.current_player() == TERMINAL and st.legal_actions() == []
    assert sorted(st.returns(), reverse=True) == [float(v) for v in out.result.values()]
