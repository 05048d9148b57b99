"""The stock step's availability questions (must a player sell, may it start a corporation,
may it buy any certificate, which minors may it put up for auction) answered as slow
reference versions kept here answer them: the plain walks over every corporation, building
a bundle per certificate asked about, asked at every stock-round position of seeded random
games of 1825, 1861, 1867 and 1858, for every player."""

from __future__ import annotations

from typing import Any

import pytest

from trackage.core.entities import ShareBundle
from trackage.core.steps.stock import BuySellParShares
from trackage.playout import COMBOS, random_playout


def ref_must_sell(step: Any, entity: Any) -> bool:
    game = step.game
    if game.num_certs(entity) > game.cert_limit(entity):
        return bool(step.can_sell_any(entity))
    if not step.HOLDING_LIMIT_FORCES_SALE:
        return False
    return any(not c.holding_ok(entity) and step.can_sell_any_of(entity, c)
               for c in game.corporations if entity.shares_of(c))


def ref_can_sell_any_of(step: Any, entity: Any, corp: Any) -> bool:
    return any(step.can_sell(entity, b) for b in step.game.share_market.bundles_for(entity, corp))


def ref_can_sell_any(step: Any, entity: Any) -> bool:
    return any(ref_can_sell_any_of(step, entity, c) for c in step.game.corporations if entity.shares_of(c))


def ref_can_buy_any_companies_1825(step: Any, entity: Any) -> bool:
    game = step.game
    if step.bought() or entity.cash <= 0 or game.num_certs(entity) >= game.cert_limit(entity):
        return False
    return any((c.owner is None or c.owner is game.bank) and not step.sold_now(entity, c)
               for c in game.companies if not c.closed)


def ref_may_start(step: Any, entity: Any, corp: Any) -> bool:
    if not step.game.can_par(corp, entity):
        return False
    own = corp.shares_of(corp)
    return bool(own) and bool(step.can_buy(entity, ShareBundle([own[0]], corporation=corp),
                                           cash=step.par_cash(entity, corp)))


def ref_can_ipo_any(step: Any, entity: Any, title: str) -> bool:
    game = step.game
    corps = list(game.corporations)
    if title in ("1867", "1861"):
        if int(game.phase.name) < step.MAJOR_PHASE:
            return False
        corps = [c for c in corps if c.type == "major"]
    if title == "1858" and "public_companies" not in game.phase.status:
        return False
    return not step.bought() and any(ref_may_start(step, entity, c) for c in corps)


def ref_can_buy_any(step: Any, entity: Any) -> bool:
    """The smallest buyable certificate of each IPO and of the market, asked of the step's
    ``may_buy_some`` (1825's own rule, else ``can_buy``) as a bundle."""
    game = step.game
    for corp in game.corporations:
        if not corp.ipoed or corp.closed:
            continue
        for holder in (corp, game.pool):
            shares = [s for s in holder.shares_of(corp) if s.buyable]
            if not shares:
                continue
            smallest = min(shares, key=lambda s: s.percent)
            if step.may_buy_some(entity, ShareBundle([smallest], corporation=corp)):
                return True
    return False


def ref_startable_minors(step: Any, entity: Any) -> list[Any]:
    return [c for c in step.game.corporations if c.type == "minor" and step.minor_startable(c)
            and ref_may_start(step, entity, c)]


def stock_step(game: Any) -> Any:
    rnd = game.round
    if rnd is None or not rnd.is_stock():
        return None
    for step in rnd.steps:
        if isinstance(step, BuySellParShares):
            return step
    return None


def compare(game: Any, title: str, counts: dict[str, int]) -> None:
    step = stock_step(game)
    if step is None:
        return
    counts["positions"] += 1
    ask(game, step, title, counts, "")
    if counts["positions"] % 4:
        return
    # the limits and the money at the edges: on copies, the certificate limit at the fewest,
    # the most and one over the most certificates held, and the players' cash cut down
    held = [game.num_certs(p) for p in game.players]
    for n, limit in enumerate((min(held), max(held), max(held) + 1, max(min(held) - 1, 0))):
        copy = game.copy()
        copy.cert_limit_value = limit
        for k, p in enumerate(copy.players):
            p.cash = (0, 40, 90, 150, 300, p.cash // 2)[(k + n + counts["positions"]) % 6]
        ask(copy, stock_step(copy), title, counts, f" (limit {limit}, cash cut)")


def ask(game: Any, step: Any, title: str, counts: dict[str, int], note: str) -> None:
    for p in game.players:
        where = f"{title} action {len(game.actions)} {p.name}{note}"
        assert step.must_sell(p) == ref_must_sell(step, p), where
        assert step.can_ipo_any(p) == ref_can_ipo_any(step, p, title), where
        assert step.can_buy_any(p) == ref_can_buy_any(step, p), where
        for c in game.corporations:
            assert step.may_start(p, c) == ref_may_start(step, p, c), f"{where} {c.name}"
        assert step.can_sell_any(p) == ref_can_sell_any(step, p), where
        if title == "1825":
            assert step.can_buy_any_companies(p) == ref_can_buy_any_companies_1825(step, p), where
        for c in game.corporations:
            assert step.can_sell_any_of(p, c) == ref_can_sell_any_of(step, p, c), f"{where} {c.name}"
        # the round's questions against the list they stand for
        listed = step.actions(p)
        assert step.has_actions(p) == bool(listed), where
        for atype in (*step.KINDS, "pass"):
            assert step.answers(p, atype) == (atype in listed, bool(listed)), f"{where} {atype}"
        if hasattr(step, "startable_minors"):
            assert step.startable_minors(p) == ref_startable_minors(step, p), where
        counts["yes"] += step.can_ipo_any(p) + step.can_buy_any(p) + step.must_sell(p)
        counts["asked"] += 1


CASES = [("1825", s) for s in (0, 1, 2, 5)] + [("1861", s) for s in (0, 1, 3)] \
    + [("1867", s) for s in (0, 1, 2)] + [("1858", s) for s in (0, 2, 3)]


@pytest.mark.parametrize(("title", "seed"), CASES)
def test_stock_questions_match_the_reference_walks(title: str, seed: int) -> None:
    players, options = COMBOS[title][seed % len(COMBOS[title])]
    counts = {"positions": 0, "asked": 0, "yes": 0}
    random_playout(title, players, options, seed, max_actions=700,
                   on_action=lambda game, action: compare(game, title, counts))
    assert counts["positions"] > 20
    # some answers are yes and some no (the questions were not all trivially refused)
    assert 0 < counts["yes"] < 3 * counts["asked"]


def force_including_has(step: Any, entity: Any) -> bool:
    """The stock step's "anything?" asked with "forced to sell?" worked out (the question as
    the list stands for it), whatever the class's ``FORCE_FREE_KINDS`` says."""
    if entity is not step.current_entity():
        return False
    if getattr(step, "auction", None):  # (an auction under way: its bidder bids or passes)
        return True
    forced = step.must_sell(entity)
    kinds = getattr(step, "KINDS_CHEAP_FIRST", None) or step.ASK_ORDER or step.KINDS
    return any(step.allows(k, entity, forced) for k in kinds) or step.may_pass([], forced)


FORCE_CASES = [("1822", 0), ("1822", 1), ("1893", 0), ("1893", 2), ("1861", 0), ("1867", 2), ("1825", 3)]


@pytest.mark.parametrize(("title", "seed"), FORCE_CASES)
def test_anything_asked_as_if_not_forced_is_the_forced_answer(title: str, seed: int) -> None:
    """``FORCE_FREE_KINDS``: a stock step's "anything?" (``has_actions``), asked without "forced
    to sell?", is the answer with it and the list's truth, at every stock-round position and on
    copies where the certificate limit forces the player in turn to sell."""
    players, options = COMBOS[title][seed % len(COMBOS[title])]
    counts = {"positions": 0, "forced": 0, "yes": 0}

    def check(game: Any, step: Any, where: str) -> None:
        p = step.current_entity()
        if p is None or not p.is_player:
            return
        fast = step.has_actions(p)
        listed = step.actions(p)
        assert fast == force_including_has(step, p) == bool(listed), where
        # a kind's answer (a sale's asked without "forced to sell?") and the kept answer's check
        for atype in (*step.KINDS, "pass"):
            assert step.answers(p, atype) == (atype in listed, bool(listed)), f"{where} {atype}"
            if listed:
                assert step.accepts(p, atype) == (atype in listed), f"{where} {atype}"
        counts["forced"] += step.must_sell(p)
        counts["yes"] += fast

    def on_action(game: Any, action: Any) -> None:
        step = stock_step(game)
        if step is None:
            return
        assert step.FORCE_FREE_KINDS, type(step).__name__
        counts["positions"] += 1
        check(game, step, f"{title} action {len(game.actions)}")
        if counts["positions"] % 3:
            return
        for limit in range(0, max(game.num_certs(p) for p in game.players) + 1, 2):
            copy = game.copy()
            copy.cert_limit_value = limit
            check(copy, stock_step(copy), f"{title} action {len(game.actions)} (limit {limit})")

    random_playout(title, players, options, seed, max_actions=900 if title == "1861" else 500, on_action=on_action)
    assert counts["positions"] > 10 and counts["forced"] > 0 and counts["yes"] > 0


@pytest.mark.parametrize("seed", [0, 2, 3])
def test_1858_anything_after_and_before_a_purchase(seed: int) -> None:
    """1858's stock step answers "anything?" without "forced to sell?" before the turn's
    purchase and as "forced to sell?" after it: the answer with it worked out and the list's
    truth, at every stock-round position and on copies whose certificate limit forces sales."""
    players, options = COMBOS["1858"][seed % len(COMBOS["1858"])]
    counts = {"positions": 0, "forced": 0, "yes": 0, "bought": 0}

    def check(step: Any, where: str) -> None:
        p = step.current_entity()
        if p is None or not p.is_player:
            return
        fast = step.has_actions(p)
        assert fast == force_including_has(step, p) == bool(step.actions(p)), where
        counts["forced"] += step.must_sell(p)
        counts["yes"] += fast
        counts["bought"] += step.bought()

    def on_action(game: Any, action: Any) -> None:
        step = stock_step(game)
        if step is None:
            return
        counts["positions"] += 1
        check(step, f"1858 action {len(game.actions)}")
        if counts["positions"] % 2:
            return
        for limit in range(0, max(game.num_certs(p) for p in game.players) + 1, 2):
            copy = game.copy()
            copy.cert_limit_value = limit
            check(stock_step(copy), f"1858 action {len(game.actions)} (limit {limit})")

    random_playout("1858", players, options, seed, max_actions=500, on_action=on_action)
    assert counts["positions"] > 10 and counts["forced"] > 0 and counts["yes"] > 0 and counts["bought"] > 0


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_1893_sales_asked_without_bundles(seed: int) -> None:
    """1893's sale timing reads only the corporation (the class names it
    ``SALE_TIMING_BY_CORPORATION``), so its "may it sell any of them?" takes the base's
    smallest-certificate shortcut: the answer equals the walk over every bundle with
    ``can_sell``, for every player and corporation at every stock-round position."""
    players, options = COMBOS["1893"][seed % len(COMBOS["1893"])]
    counts = {"positions": 0, "yes": 0, "no": 0}

    def check(game: Any, action: Any) -> None:
        step = stock_step(game)
        if step is None:
            return
        counts["positions"] += 1
        ask_sales(game, step)
        if counts["positions"] % 3 == 0:
            # on a copy, every other corporation as if it had not operated (the timing refuses it)
            copy = game.copy()
            for c in copy.corporations[::2]:
                c.operating_history = {}
            ask_sales(copy, stock_step(copy))

    def ask_sales(game: Any, step: Any) -> None:
        assert step._plain_sale_checks(game, game.share_market)
        for p in game.players:
            for c in game.corporations:
                got = step.can_sell_any_of(p, c)
                assert got == ref_can_sell_any_of(step, p, c), f"1893 action {len(game.actions)} {p.name} {c.name}"
                counts["yes" if got else "no"] += 1
            assert step.can_sell_any(p) == ref_can_sell_any(step, p)

    random_playout("1893", players, options, seed, max_actions=700, on_action=check)
    assert counts["positions"] > 10
    assert counts["yes"] > 0 and counts["no"] > 0
