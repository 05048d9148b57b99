"""The live-play gate (only listed actions are accepted) belongs to one process() call, not to
the process: while one game is in the middle of an action in one thread, an unlisted action on
another game in another thread is still refused (the web app runs games in a thread pool)."""

from __future__ import annotations

import threading

import pytest
from helpers import fingerprint, players

from trackage.core.errors import GameError
from trackage.core.pipeline import _GATING, Pipeline
from trackage.core.rewind import state_class
from trackage.titles import new_game


def test_an_unlisted_action_is_refused_while_another_game_is_mid_process(monkeypatch):
    slow = new_game("1867", players(3, "Player "), [], 1)
    other = new_game("1861", players(3, "Player "), [], 1)
    slow_action = dict(slow.legal_actions()[0], id=1)
    # an action the rules accept (it is listed now), made unlisted for ``other`` alone: the
    # listing ``other``'s gate reads says it has nothing to do
    # (read from a twin: an exact copy of an entry of ``other``'s own handed-out listing is
    # accepted without asking the gate, tests/test_schema_listed.py)
    unlisted = dict(new_game("1861", players(3, "Player "), [], 1).legal_actions()[0], id=1)
    for k in ("price_range", "price_step", "canonical_prices"):
        unlisted.pop(k, None)
    real_listed_like = Pipeline.listed_like

    def listed_like(self, action, entity):
        return [] if self.game is other else real_listed_like(self, action, entity)

    monkeypatch.setattr(Pipeline, "listed_like", listed_like)

    # ``slow`` stops inside its action (after the rules ran, before process() returns) until
    # ``other``'s action has been tried
    inside, release = threading.Event(), threading.Event()
    real_processed = state_class(slow).action_processed

    def action_processed(self, action):
        real_processed(self, action)
        if self is slow:
            inside.set()
            assert release.wait(30), "the other thread never finished"

    monkeypatch.setattr(state_class(slow), "action_processed", action_processed)

    errors: dict[str, BaseException] = {}

    def run_slow():
        try:
            slow.process(slow_action)
        except BaseException as e:  # noqa: BLE001 - reported by the main thread
            errors["slow"] = e
            inside.set()

    outcome: dict[str, object] = {}

    def run_other():
        assert inside.wait(30), "the slow game never started its action"
        before = fingerprint(other)
        try:
            other.process(unlisted)
            outcome["result"] = "accepted"
        except GameError as e:
            outcome["result"] = e.rule
        outcome["unchanged"] = fingerprint(other) == before
        release.set()

    a, b = threading.Thread(target=run_slow), threading.Thread(target=run_other)
    a.start()
    b.start()
    b.join(60)
    release.set()
    a.join(60)
    assert not a.is_alive() and not b.is_alive()
    assert "slow" not in errors, errors.get("slow")
    assert outcome == {"result": "not-a-legal-action", "unchanged": True}
    # the slow game's own (listed) action went through, gated as usual
    assert len(slow.actions) == 1


def test_the_gate_is_reset_after_a_refused_call(monkeypatch):
    # a call that ends in a refusal leaves the gate as it found it: the next call is gated again
    g = new_game("1867", players(3, "Player "), [], 1)
    # (from a twin: ``g``'s own listing handed out would let its exact copies past the gate)
    action = dict(new_game("1867", players(3, "Player "), [], 1).legal_actions()[0], id=1)
    seen = []
    real_listed_like = Pipeline.listed_like

    def listed_like(self, action, entity):
        seen.append(_GATING.get())
        return []

    monkeypatch.setattr(Pipeline, "listed_like", listed_like)
    for _ in range(2):
        with pytest.raises(GameError) as err:
            g.process(action)
        assert err.value.rule == "not-a-legal-action"
        assert _GATING.get() is False
    assert seen == [True, True] and g.actions == []
    monkeypatch.setattr(Pipeline, "listed_like", real_listed_like)
    g.process(action)
    assert len(g.actions) == 1
