"""Level 3: the search bot, the rule bot with a short look-ahead on the decisions that matter.

A stock decision (buys, sells, pars, privates, draft picks at a set price; no operator's kind
listed) has one candidate per kind and target of the listed actions (the rule bot's best of
each, the rule bot's scored ones first, then passing), each judged one step ahead: applied on
a copy, no rollout, since the evaluation counts the income still to come. An operator's
decision (train purchases, dividends) has the rule bot's best scored actions, a few prices
where a price is free, and passing as candidates; each is applied on a copy that is then played
forward with the rule bot for every seat for the node budget left, or up to the next step that
needs the track graph (the end of an operator's turn). The candidate after which the seat
stands best against the best other seat (``search_eval.standing``) is played, the rule bot's
own pick unless another does better by a margin. Steps that list a tile or a token and
decisions with one candidate are the rule bot's; so are auctions (a bid with a price range)
outside the opening.

In the opening (before the second stock round), where the title has learned opening values
(``opening_values``: a model of the final score share fitted on rule bot games), a stock
decision's candidates are judged one step ahead by those values instead, and an auction's
(the rule bot's bid, passing, the lowest bid on each listed item) by what holding the item at
that price adds to the seat's learned value. An item a title caps (``auction_caps``, found by
experiment: 1867's C&SL and QB, 1861's BSS, MYR and WVR) is bid for at the least price
allowed up to its cap, before all else; an item capped at 0 (1861's TSR and MRR) is passed on;
in 1861 and 1858 India the rest of the auction is the rule bot's (``auction_left_to_rule``), in
1858 India never above 1.1 times an item's face value (``under_ceiling``).

The search is bounded by a node budget (simulated actions per decision, a copy counting as
two, from the time budget at a fixed cost per node measured per title: ``search_cost``), never
by the clock: the same seed plays the same game on any machine. (Tried and dropped, see
docs/bots.md: judging an operator's pass on the position as it stands, and rollouts of the
opening's decisions to the second stock round.)"""

from __future__ import annotations

from typing import Any

from ..core.errors import GameError
from .auction_caps import auction_cap, auction_left_to_rule, bid_ceiling
from .base import BotBase, acting_seat, seat_actions
from .opening_values import OpeningModel, features, in_opening, load_model, opening_standing
from .play import derive_seed
from .rule_bot import RuleBot
from .rules.common import finalize, par_price
from .rules.stock import company_value
from .search_cost import COPY_NODES, DEFAULT_BUDGET, node_budget
from .search_eval import standing

# the kinds of decisions searched: a bid only at a set price, one that buys at once (a draft);
# an auction (a bid with a price range) ends beyond the look-ahead and is left to the rule bot
SEARCHED = frozenset({"par", "buy_shares", "sell_shares", "buy_company", "sell_company", "bid", "buy_train",
                      "dividend"})
# a stock decision (none of the operators' kinds listed): every kind of listed action is a
# candidate, one per kind and target (the rule bot's best of them, else the middle par price)
STOCK_KINDS = frozenset({"par", "buy_shares", "sell_shares", "buy_company", "sell_company", "bid"})
OPERATOR_KINDS = frozenset({"buy_train", "dividend"})
MAX_CANDIDATES = 6
# what another candidate must gain over the rule bot's own pick to be played instead (money)
MARGIN = 10.0
# skip the search when one of these is listed: it is forced, or the rules already know best
FORCED = frozenset({"run_routes", "bankrupt", "lay_tile", "place_token"})
# a look-ahead stops before a step that asks the track graph (on a copy it is worked out
# afresh, up to a quarter of a second): the end of the operator's turn
GRAPH_STEPS = frozenset({"lay_tile", "place_token", "run_routes"})
TOP_K = 4
MIN_HORIZON = 0
# what another candidate must gain over the rule bot's own pick in the opening, judged by the
# learned opening values (percent of the final scores)
OPENING_MARGIN = 0.5


def _key(action: dict[str, Any]) -> str:
    return repr(sorted((k, repr(v)) for k, v in action.items() if k != "id"))


class SearchBot(BotBase):
    name = "search"

    def __init__(self, seed: int, budget: float | None = DEFAULT_BUDGET) -> None:
        super().__init__(seed, DEFAULT_BUDGET if budget is None else budget)
        self.rule = RuleBot(seed, budget)
        self.nodes = node_budget(self.budget)
        self.models: dict[str, OpeningModel | None] = {}

    def opening_model(self, game: Any) -> OpeningModel | None:
        """The title's learned opening values while the game is in its opening, else None."""
        if not in_opening(game):
            return None
        title = str(getattr(game, "TITLE", ""))
        if title not in self.models:
            self.models[title] = load_model(title)
        return self.models[title]

    def choose(self, game: Any, seat: int) -> dict[str, Any]:
        actions = seat_actions(game, seat)
        if not actions:
            raise GameError(f"search bot: seat {seat} has no legal action in {game.round.name}",
                            rule="not-your-turn")
        action = self.decide(game, seat, actions)
        action = dict(action)
        action["id"] = len(game.actions) + 1
        return action

    def decide(self, game: Any, seat: int, actions: list[dict[str, Any]]) -> dict[str, Any]:
        """The seat's pick among its listed actions: in the opening (with a learned model for
        the title) auctions and stock decisions are judged by the opening values; otherwise a
        searched decision is judged by ``search``, any other is the rule bot's."""
        auction = is_auction(actions) and not {a["type"] for a in actions} & FORCED
        if auction and in_opening(game):
            capped = capped_bid(game, seat, actions)
            if capped is not None:
                return capped
        if auction and auction_left_to_rule(str(getattr(game, "TITLE", ""))):
            return under_ceiling(game, actions, self.rule.decide(game, seat, actions))
        model = self.opening_model(game)
        if model is not None and auction:
            return self.auction_pick(game, seat, actions, model)
        candidates = self.candidates(game, seat, actions)
        if len(candidates) < 2:
            return candidates[0] if candidates else self.rule.decide(game, seat, actions)
        if model is not None and is_stock(actions):
            return self.opening_search(game, seat, candidates, model)
        return self.search(game, seat, candidates, rollout=not is_stock(actions))

    def searched(self, actions: list[dict[str, Any]]) -> bool:
        kinds = {a["type"] for a in actions}
        auction = any(a["type"] == "bid" and "price_range" in a for a in actions)
        return len(actions) >= 2 and not auction and not kinds & FORCED and bool(kinds & SEARCHED)

    def candidates(self, game: Any, seat: int, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The actions worth a look-ahead, the rule bot's best first; none when the decision is
        not searched (the rule bot then decides)."""
        if not self.searched(actions):
            return []
        if is_stock(actions):
            return self.stock_candidates(game, seat, actions)
        scored = [s for s in self.rule.scored(game, seat, actions) if s is not None and s[0] > 0]
        scored.sort(key=lambda s: -s[0])  # stable: the rules' order among equal scores
        out: dict[str, dict[str, Any]] = {}
        for _, action in scored[:TOP_K]:
            out.setdefault(_key(action), action)
        for listed in actions:
            if "price_range" in listed and listed["type"] in ("buy_train", "buy_company"):
                if any(_same_listed(listed, a) for a in out.values()):
                    lo, hi = listed["price_range"]
                    for price in (lo, (lo + hi) // 2, hi):
                        variant = finalize(listed, int(price))
                        out.setdefault(_key(variant), variant)
        for listed in actions:
            if listed["type"] == "pass":
                passing = finalize(listed)
                out.setdefault(_key(passing), passing)
        return list(out.values())

    def stock_candidates(self, game: Any, seat: int, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """One candidate per kind and target of the listed actions: the rule bot's scored ones
        first (best first), then passing, then the kinds it does not score."""
        scores: dict[str, float] = {}
        ready: dict[str, dict[str, Any]] = {}
        for s in self.rule.scored(game, seat, actions):
            if s is not None:
                k = _key(s[1])
                scores[k] = max(scores.get(k, s[0]), s[0])
                ready.setdefault(k, s[1])
        groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for listed in actions:
            groups.setdefault((listed["type"], _target(listed)), []).append(listed)
        picks: list[tuple[float, int, dict[str, Any]]] = []
        for (kind, _), members in groups.items():
            finals = [ready.get(_key(finalize(m)), finalize(m)) for m in members]
            rated = [(scores[_key(f)], f) for f in finals if _key(f) in scores]
            if rated and max(r[0] for r in rated) > 0:
                score, pick = max(rated, key=lambda r: r[0])
                picks.append((score, 0, pick))
            elif kind == "pass":
                picks.append((0.0, 1, finals[0]))
            else:
                pick = sorted(finals, key=_par_of)[len(finals) // 2] if kind == "par" else finals[0]
                picks.append((-1.0, 2, pick))
        picks.sort(key=lambda p: (p[1], -p[0]))  # stable: the listed order among equals
        return [p[2] for p in picks[:MAX_CANDIDATES]]

    def search(self, game: Any, seat: int, candidates: list[dict[str, Any]], rollout: bool = True) -> dict[str, Any]:
        """The candidate after which the seat stands best (the first of equals); the rule bot's
        own pick, first, unless another does better by ``MARGIN``."""
        nodes = node_budget(self.budget, str(getattr(game, "TITLE", "")))
        candidates = candidates[:max(1, nodes // (COPY_NODES + 1))]
        horizon = max(MIN_HORIZON, nodes // len(candidates) - COPY_NODES - 1) if rollout else 0
        turn = len(game.actions)
        best: tuple[float, dict[str, Any]] | None = None
        for i, action in enumerate(candidates):
            value = self.look_ahead(game, seat, action, horizon, derive_seed("search", self.seed, turn, i))
            if value is not None and i > 0:
                value -= MARGIN
            if value is not None and (best is None or value > best[0]):
                best = (value, action)
        return candidates[0] if best is None else best[1]

    def opening_search(self, game: Any, seat: int, candidates: list[dict[str, Any]],
                       model: OpeningModel) -> dict[str, Any]:
        """An opening stock decision (a draft pick, a par, a buy): each candidate applied on a copy
        and judged by the learned opening values; the rule bot's pick unless another does better
        by ``OPENING_MARGIN``."""
        best: tuple[float, dict[str, Any]] | None = None
        for i, action in enumerate(candidates[:max(1, self.nodes // (COPY_NODES + 1))]):
            sim = game.copy()
            try:
                sim.process({**action, "id": len(sim.actions) + 1})
            except GameError:
                continue
            value = opening_standing(sim, seat, model) - (OPENING_MARGIN if i > 0 else 0.0)
            if best is None or value > best[0]:
                best = (value, action)
        return candidates[0] if best is None else best[1]

    def auction_pick(self, game: Any, seat: int, actions: list[dict[str, Any]],
                     model: OpeningModel) -> dict[str, Any]:
        """An opening auction decision: the rule bot's pick, the lowest bid on each listed target
        (or passing, when the rule bot passes), each judged by what holding the target at that price adds to the seat's
        learned value (passing adds nothing); the rule bot's pick unless another does better by
        ``OPENING_MARGIN``."""
        rule_pick = self.rule.decide(game, seat, actions)
        # passing where the rule bot bids lost every game (see docs/bots.md): the values choose
        # which item to bid for, or to bid where the rule bot passes
        kinds = ("bid",) if rule_pick["type"] == "bid" else ("pass", "bid")
        # an item the model has no weight for (1822's minors: at the second stock round they are
        # minors, no longer the companies bid for) cannot be judged: such candidates are left
        # out, and the rule bot's pick stands when it is one
        if not judged(model, rule_pick):
            return rule_pick
        candidates = [rule_pick] + [finalize(a) for a in actions if a["type"] in kinds]
        candidates = [c for c in candidates if judged(model, c)]
        player = game.seats[seat]
        before = features(game, player, seat)
        best: tuple[float, dict[str, Any]] | None = None
        for i, action in enumerate(candidates):
            value = bid_gain(model, before, action) - (OPENING_MARGIN if i > 0 else 0.0)
            if best is None or value > best[0]:
                best = (value, action)
        return rule_pick if best is None else best[1]

    def look_ahead(self, game: Any, seat: int, action: dict[str, Any], horizon: int, seed: int) -> float | None:
        """The seat's standing after ``action`` and ``horizon`` rule bot actions (None when the
        action is refused). An operator's pass is judged on the position as it stands when the
        operator has a train (see the module's account)."""
        sim = game.copy()
        try:
            sim.process({**action, "id": len(sim.actions) + 1})
        except GameError:
            return None
        policy = RuleBot(seed, None)
        for _ in range(horizon):
            if sim.finished or asks_graph(sim):
                break
            listed = sim.legal_actions()
            if not listed:
                break
            mover = acting_seat(sim, listed)
            chosen = policy.choose(sim, mover)
            try:
                sim.process(chosen)
            except GameError:
                break
        return standing(sim, seat)


def is_stock(actions: list[dict[str, Any]]) -> bool:
    """Whether a decision is a player's in the stock market (judged one step ahead, without a
    rollout: the evaluation counts the income to come)."""
    kinds = {a["type"] for a in actions}
    return bool(kinds & STOCK_KINDS) and not kinds & OPERATOR_KINDS


def is_auction(actions: list[dict[str, Any]]) -> bool:
    """Whether a decision is a bid in an auction (a bid with a price range)."""
    return any(a["type"] == "bid" and "price_range" in a for a in actions)


def capped_bid(game: Any, seat: int, actions: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The least bid allowed on a listed item the title caps (``auction_caps``) while that
    price is within the cap and the seat's cash; passing when every item listed is capped at 0
    (left to the others) and passing is listed; None when neither applies."""
    title = str(getattr(game, "TITLE", ""))
    cash = int(game.seats[seat].cash)
    bids = [a for a in actions if a["type"] == "bid" and "price_range" in a]
    caps = [auction_cap(title, str(a.get("company") or a.get("corporation") or "")) for a in bids]
    for listed, cap in zip(bids, caps):
        low = int(listed["price_range"][0])
        if cap is not None and low <= min(cap, cash):
            return finalize(listed, low)
    passes = [a for a in actions if a["type"] == "pass"]
    if bids and passes and all(cap == 0 for cap in caps):
        return finalize(passes[0])
    return None


def under_ceiling(game: Any, actions: list[dict[str, Any]], pick: dict[str, Any]) -> dict[str, Any]:
    """``pick`` (the rule bot's), or passing in its place when it is an opening bid above the
    title's ceiling for the item (``auction_caps.bid_ceiling``: 1.1 times face value in 1858 India)."""
    if pick["type"] != "bid" or not in_opening(game):
        return pick
    ceiling = bid_ceiling(str(getattr(game, "TITLE", "")), company_value(game, pick))
    if ceiling is None or int(pick.get("price", 0)) <= ceiling:
        return pick
    passing = next((a for a in actions if a["type"] == "pass"), None)
    return pick if passing is None else finalize(passing)


def judged(model: OpeningModel, action: dict[str, Any]) -> bool:
    """Whether the learned values know what ``action`` gains: anything but a bid, or a bid on a
    private company or a corporation (or minor) the model has a weight for."""
    if action["type"] != "bid":
        return True
    if action.get("company"):
        return f"company:{action['company']}" in model.weights
    if action.get("corporation"):
        return f"pres:{action['corporation']}" in model.weights
    return False


def bid_gain(model: OpeningModel, before: dict[str, float], action: dict[str, Any]) -> float:
    """What winning ``action``'s target at its price adds to a player's learned value: a
    private company held, or a minor (all its shares and its presidency, its certificate counted
    at the price paid), less the cash paid; nothing for any other action."""
    if action["type"] != "bid":
        return 0.0
    after = dict(before)
    after["cash"] = before.get("cash", 0.0) - float(action.get("price", 0) or 0) / 100.0
    if action.get("company"):
        after[f"company:{action['company']}"] = 1.0
        if f"minor:{action['company']}" in model.weights:  # 1858's private railways are minors too
            after[f"minor:{action['company']}"] = 1.0
    elif action.get("corporation"):
        corp = str(action["corporation"])
        after[f"stake:{corp}"] = 1.0
        after[f"pres:{corp}"] = 1.0
        after["stock"] = before.get("stock", 0.0) + float(action.get("price", 0) or 0) / 100.0
    else:
        return 0.0
    return model.value(after) - model.value(before)


def asks_graph(game: Any) -> bool:
    """Whether the step in charge lists actions that need the track graph."""
    step = game.round.active_step()
    return step is not None and bool(GRAPH_STEPS.intersection(step.current_actions()))


def _target(action: dict[str, Any]) -> str:
    """What an action is about: the corporation, the company (numbered ones alike), the first
    share's corporation."""
    if action.get("corporation"):
        return str(action["corporation"])
    if action.get("company"):
        return str(action["company"]).rstrip("0123456789").rstrip("-")
    shares = action.get("shares") or []
    return str(shares[0]).rpartition("_")[0] if shares else ""


def _par_of(action: dict[str, Any]) -> int:
    return par_price(action)


def _same_listed(listed: dict[str, Any], action: dict[str, Any]) -> bool:
    """Whether ``action`` is ``listed`` with a price chosen."""
    ignore = ("id", "price", "price_range", "price_step", "canonical_prices")
    return all(listed.get(k) == action.get(k) for k in set(listed) | set(action) if k not in ignore)
