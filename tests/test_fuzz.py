"""Property-based (hypothesis, stateful): random games of every title in live play, with
mutated actions interleaved. Every refusal leaves the state equal, every acceptance is a
listed action, no listed action is refused, nothing crashes, and the money over every cash
holder (closed ones included) stays what it was. ``scripts/fuzz TITLE --seconds N`` runs the
same for longer. Derandomized: the suite sees the same games every time."""

from __future__ import annotations

import pytest

hypothesis = pytest.importorskip("hypothesis")

from hypothesis import HealthCheck, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule  # noqa: E402

from trackage.fuzz import COUNTS, Fuzzer  # noqa: E402

TITLES = ["1825", "1867", "1861", "1822", "1893", "1858", "1858India"]


class UntrustedGame(RuleBasedStateMachine):
    fuzzer = None

    @initialize(title=st.sampled_from(TITLES), seed=st.integers(0, 10**6), warmup=st.sampled_from([0, 40, 120, 250]))
    def start(self, title, seed, warmup):
        self.fuzzer = Fuzzer(title, seed, warmup=warmup)

    def alive(self):
        return self.fuzzer is not None and not self.fuzzer.game.finished

    @precondition(alive)
    @rule(pick=st.integers(0, 10**6))
    def legal_move(self, pick):
        self.fuzzer.move(pick)

    @precondition(alive)
    @rule(seed=st.integers(0, 10**6))
    def mutated_action(self, seed):
        import random

        from trackage.fuzz import mutate

        game = self.fuzzer.game
        legal = game.legal_actions()
        if legal:
            rng = random.Random(seed)
            self.fuzzer.mutant(mutate(game, rng.choice(legal), rng))

    @invariant()
    def nothing_bad(self):
        if self.fuzzer is None:
            return
        c = self.fuzzer.counts
        assert c.bad() == 0, (c.line(), c.examples)
        assert all(getattr(c, k) == 0 for k in COUNTS)


UntrustedGame.TestCase.settings = settings(
    max_examples=12, stateful_step_count=25, derandomize=True, deadline=None, database=None,
    suppress_health_check=list(HealthCheck))
TestUntrustedGame = UntrustedGame.TestCase


def test_a_forged_run_refused_is_not_a_listed_action_refused():
    """The gate lets every run through to the rules, which refuse forged figures; the fuzzer
    counts such a refusal as a refused mutant, not as a listed action refused (1858 India,
    a run with an extra revenue of 1,000,000,000, in a 10-minute fuzz run)."""
    f = Fuzzer("1893", 3, warmup=0)
    while not any(a["type"] == "run_routes" for a in f._legal()):
        assert f.move()
    run = next(a for a in f._legal() if a["type"] == "run_routes")
    forged = {**run, "extra_revenue": 10**9}
    refused = f.counts.refused
    assert f.mutant(forged)
    assert f.counts.refused == refused + 1
    assert f.counts.listed_refused == 0 and f.counts.bad() == 0


def test_the_listed_run_without_its_entity_type_is_a_listed_action():
    """A run is judged by its routes and figures: the listed run with a field the rules do
    not need left out is still the listed move (1867 fuzz: four such runs were counted as
    unlisted actions accepted)."""
    f = Fuzzer("1867", 3, warmup=0)
    while not any(a["type"] == "run_routes" for a in f._legal()):
        assert f.move()
    run = next(a for a in f._legal() if a["type"] == "run_routes")
    bare = {k: v for k, v in run.items() if k != "entity_type"}
    assert f.mutant(bare)
    assert f.counts.accepted_mutants == 1 and f.counts.bad() == 0
