"""What the round's ``skip_steps`` found answers the "which step is active?" asked right after
it (``Round.KEEP_SKIP_ANSWER``): every log replays to the same trace lines, result and whole
state with it and without it, and live random games list the same actions and reach the same
state at every position."""

from __future__ import annotations

import contextlib
import io
import json
import random
from collections.abc import Iterator

import pytest
from conftest import require_fixtures

from trackage.core.log import load_log
from trackage.core.round import Round, StockRound
from trackage.core.state import full_state
from trackage.playout import COMBOS, choose
from trackage.replay import replay_data
from trackage.titles import TITLES, new_game

LOGS = [f for title in sorted(TITLES) for f in require_fixtures(title)]


@contextlib.contextmanager
def keeping(keep: bool) -> Iterator[None]:
    was = Round.KEEP_SKIP_ANSWER
    Round.KEEP_SKIP_ANSWER = keep
    try:
        yield
    finally:
        Round.KEEP_SKIP_ANSWER = was


def watch_kept(monkeypatch, seen) -> None:
    """Call ``seen(round, settled, found)`` after every :meth:`Round.active_step` asked with a
    kept answer (a skip's, or one :meth:`Round.answered` kept): ``found`` is what it answered,
    from the kept answer or, where that could not stand, asked afresh."""
    active_step = Round.active_step

    def watched(self, entity=None):
        settled = self.settled if entity is None else None
        found = active_step(self, entity)
        if settled is not None:
            seen(self, settled, found)
        return found

    monkeypatch.setattr(Round, "active_step", watched)


def _replay(path, keep: bool) -> tuple[str, object, str]:
    buf = io.StringIO()
    with keeping(keep):
        out = replay_data(load_log(path), trace=buf)
    assert out.error is None, out.error
    return buf.getvalue(), out.result, json.dumps(full_state(out.game), sort_keys=True, default=str)


def test_the_flag_is_on_and_read_by_every_round():
    assert Round.KEEP_SKIP_ANSWER is True
    with keeping(False):
        assert StockRound.KEEP_SKIP_ANSWER is False
    assert StockRound.KEEP_SKIP_ANSWER is True


@pytest.mark.parametrize("path", LOGS, ids=lambda p: f"{p.parent.name}/{p.name}" if p else "none")
def test_a_log_replays_alike_with_and_without_the_kept_answer(path):
    kept, fresh = _replay(path, True), _replay(path, False)
    assert kept[0] and kept[0].count("\n") > 10
    assert kept[0] == fresh[0]
    assert kept[1] == fresh[1]
    assert kept[2] == fresh[2]


@pytest.mark.parametrize("title,seed", [("1825", 1), ("1861", 2), ("1867", 3), ("1893", 4), ("1858", 5),
                                        ("1822", 6)])
def test_live_games_list_alike_with_and_without_the_kept_answer(title, seed, monkeypatch):
    used = []
    watch_kept(monkeypatch, lambda rnd, settled, found: used.append(Round.KEEP_SKIP_ANSWER))
    n, options = COMBOS[title][seed % len(COMBOS[title])]
    players = [{"id": i + 1, "name": f"Player {i + 1}"} for i in range(n)]
    kept_game, fresh_game = new_game(title, players, options, seed), new_game(title, players, options, seed)
    rng = random.Random(seed)
    rounds = set()
    for _ in range(160):
        if kept_game.finished:
            break
        with keeping(True):
            listed = kept_game.legal_actions(routes=False)
        with keeping(False):
            assert fresh_game.legal_actions(routes=False) == listed
        action = kept_game.playout_choose(rng, listed) or choose(rng, listed, kept_game.PLAYOUT_WEIGHTS)
        if action["type"] == "run_routes":  # (listed without its routes: the router's run)
            with keeping(True):
                action = next(a for a in kept_game.legal_actions() if a["type"] == "run_routes")
        with keeping(True):
            kept_game.process(dict(action))
        with keeping(False):
            fresh_game.process(dict(action))
        rounds.add(type(kept_game.round).__name__)
    assert len(rounds) >= 2  # (the games got past their first round)
    assert used and all(used)  # (the kept answers were used, and only with the flag on)
    assert full_state(kept_game) == full_state(fresh_game)



@pytest.mark.parametrize("path", LOGS, ids=lambda p: f"{p.parent.name}/{p.name}" if p else "none")
def test_every_kept_answer_is_a_fresh_active_step(path, monkeypatch):
    """Every answer :meth:`Round.active_step` gives from a kept answer (the skip's, including a
    round that looks its operator up before each skipped step when the operator stayed the same
    and open through the whole skip; and the one :meth:`Round.answered` kept, taken as it
    stands) is the step a fresh "which step is active?" finds there."""
    checked = []

    def checking(rnd, settled, found):
        fresh = next((s for s in rnd.steps if s.active() and s.blocking()), None)
        assert fresh is found
        # (a skip's answer names its inactive steps; one kept by ``answered`` has None there)
        checked.append((rnd.OPERATOR_PER_STEP, len(settled) > 1 and settled[1] is not None))

    watch_kept(monkeypatch, checking)
    out = replay_data(load_log(path), trace=io.StringIO())
    assert out.error is None, out.error
    assert checked
    if path.parent.name in ("1825", "1861", "1867"):  # (operating rounds that look up per step)
        assert sum(not skip for _, skip in checked) > 20  # (answers kept by ``answered``)
        assert sum(per_step and skip for per_step, skip in checked) > 20


def _marked_classes() -> set[str]:
    from trackage.core.round import Step

    def walk(c):
        for k in c.__subclasses__():
            yield k
            yield from walk(k)

    for title in TITLES:  # (every title's steps defined)
        new_game(title, [{"id": i + 1, "name": f"P{i + 1}"} for i in range(COMBOS[title][0][0])],
                 COMBOS[title][0][1], 1)
    return {k.__name__ for k in walk(Step) if k.SKIP_WRITES_UNREAD}


def test_the_skip_mark_is_only_on_the_audited_stock_steps():
    """A class that defines its own ``skip`` or ``pass_`` loses the mark unless it sets it again:
    only the stock steps whose pass was read for it carry it."""
    marked = _marked_classes()
    assert "BuySellParShares" in marked and "BuySellParShares1822" in marked
    assert all("BuySellParShares" in n or n == "StockRound1858Step" for n in marked), marked
    assert not {"BuyTrain1858", "LoanOperations", "MajorTrainless", "Dividend"} & marked


@pytest.mark.parametrize("title,seed", [("1825", 1), ("1861", 2), ("1867", 3), ("1893", 4), ("1858", 5),
                                        ("1822", 6), ("1858India", 7)])
def test_a_marked_skip_leaves_every_kept_answer_fresh_in_live_games(title, seed, monkeypatch):
    """In seeded random games, every answer :meth:`Round.active_step` gives from a kept answer is
    the step a fresh walk finds, and every step the skip found inactive is inactive still; some
    of them come from a skip whose stock step's own pass ran (the mark) and stand."""
    checked = []

    def checking(rnd, settled, found):
        fresh = next((s for s in rnd.steps if s.active() and s.blocking()), None)
        assert fresh is found
        idle = settled[1] if len(settled) > 1 else None
        assert not any(s.active() for s in (idle or ()))
        checked.append(rnd.is_stock() and idle is not None and len(settled) > 3 and settled[3])

    watch_kept(monkeypatch, checking)
    n, options = COMBOS[title][seed % len(COMBOS[title])]
    game = new_game(title, [{"id": i + 1, "name": f"Player {i + 1}"} for i in range(n)], options, seed)
    rng = random.Random(seed)
    for _ in range(250):
        if game.finished:
            break
        listed = game.legal_actions(routes=False)
        action = game.playout_choose(rng, listed) or choose(rng, listed, game.PLAYOUT_WEIGHTS)
        if action["type"] == "run_routes":
            action = next(a for a in game.legal_actions() if a["type"] == "run_routes")
        game.process(dict(action))
    assert checked and any(checked)  # (stock-round skips' answers stood and were checked)
