"""Action labels in words, for the game page's buttons and the CLI: who does what with what,
for how much. One function per action type (``LABELS``); a step may word the actions it
lists itself (``Step.action_label``: choices with their question, 1825's lease, ...)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.entities import certificate_price
from ..core.errors import GameError
from ..story import money

Label = Callable[[Any, Any, dict[str, Any]], str]

# fields of an action that say nothing to a player
_QUIET = frozenset(("type", "entity", "entity_type", "id", "price_range", "price_step", "canonical_prices",
                    "created_at", "user", "auto_actions", "original_id", "original_type"))


# ----------------------------------------------------------------------------- names
def titled(e: Any) -> str:
    """An entity by name, with its id where the two differ: "Northern Railway (N)"."""
    eid = getattr(e, "id", None)
    name = str(getattr(e, "name", None) or eid)
    return name if eid is None or str(eid) == name else f"{name} ({eid})"


def corporation(game: Any, cid: Any) -> str:
    c = game.corporation_by_id(cid)
    return titled(c) if c is not None else str(cid)


def company(game: Any, cid: Any) -> str:
    c = game.index.company(cid) or game.index.minor(cid) or game.corporation_by_id(cid)
    return titled(c) if c is not None else str(cid)


def where(game: Any, hex_id: Any) -> str:
    """A hex by its place name, with its coordinate: "Valladolid (G8)"."""
    h = game.board.hex_by_id(hex_id) if game.board is not None else None
    name = getattr(h, "location_name", None) if h is not None else None
    return f"{name} ({hex_id})" if name else str(hex_id)


def city_place(game: Any, city_id: Any) -> str:
    c = game.board.city_by_id(city_id) if game.board is not None else None
    return where(game, c.hex.id) if c is not None and c.hex is not None else str(city_id)


def price(game: Any, a: dict[str, Any]) -> str:
    """The action's price, or the range a player may name."""
    rng = a.get("price_range")
    if isinstance(rng, (list, tuple)) and len(rng) == 2 and rng[0] != rng[1]:
        return f"{money(game, rng[0])}–{money(game, rng[1])}"
    return money(game, a.get("price", 0))


def actor(game: Any, a: dict[str, Any]) -> Any:
    try:
        return game.index.resolve(a)
    except GameError:
        return None


def train_name(game: Any, tid: Any) -> str:
    t = game.depot.train_by_id(tid)
    return str(t.name) if t is not None else str(tid).rsplit("-", 1)[0]


def words(v: Any) -> str:
    """Any field's value as plain words (no brackets, no braces)."""
    if isinstance(v, dict):
        return " ".join(words(x) for x in v.values())
    if isinstance(v, (list, tuple)):
        return ", ".join(words(x) for x in v)
    return str(v).replace("_", " ")


def step_for(game: Any, entity: Any, atype: str) -> Any:
    """The step that lists (or would process) ``atype`` for ``entity`` now, if any."""
    if entity is None or game.round is None:
        return None
    for s in game.round.steps:
        if s.active() and atype in s.actions(entity):
            return s
    return None


# ----------------------------------------------------------------------------- shares
def _shares(game: Any, a: dict[str, Any]) -> list[Any]:
    return [s for s in (game.index.share(x) for x in a.get("shares") or []) if s is not None]


def buy_shares(game: Any, who: Any, a: dict[str, Any]) -> str:
    shares = _shares(game, a)
    if not shares:
        return "Buy shares"
    owning = game.share_corp(shares[0])
    corp = titled(owning)
    pct = a.get("percent") or sum(s.percent for s in shares)
    if who is not None and (who.is_company or who.is_minor):  # 1858: a private railway exchanged
        president = " president's" if any(getattr(s, "president", False) for s in shares) else ""
        return f"Exchange {titled(who)} for the{president} {pct}% of {corp}"
    o = owning.holder_of(shares[0])
    src = "IPO" if o is owning or (o is not None and o.is_corporation) else (
        "market" if o is not None and o.is_pool else getattr(o, "name", "?"))
    return f"Buy {pct}% of {corp} from {src} for {money(game, sum(certificate_price(owning, s) for s in shares))}"


def sell_shares(game: Any, who: Any, a: dict[str, Any]) -> str:
    shares = _shares(game, a)
    if not shares:
        return "Sell shares"
    corp = game.share_corp(shares[0])
    pct = a.get("percent") or sum(s.percent for s in shares)
    verb = "Issue" if who is corp else "Sell"
    return f"{verb} {pct}% of {titled(corp)} for {money(game, sum(certificate_price(corp, s) for s in shares))}"


def par(game: Any, who: Any, a: dict[str, Any]) -> str:
    sp = str(a.get("share_price", "")).split(",")[0]
    return f"Par {corporation(game, a.get('corporation'))} at {money(game, int(sp))}"


def bid(game: Any, who: Any, a: dict[str, Any]) -> str:
    target = a.get("company") or a.get("minor")
    name = company(game, target) if target is not None else corporation(game, a.get("corporation"))
    return f"Bid {price(game, a)} on {name}"


# ----------------------------------------------------------------------------- companies
def buy_company(game: Any, who: Any, a: dict[str, Any]) -> str:
    c = game.index.company(a.get("company"))
    seller = getattr(c, "owner", None) if c is not None else None
    src = f" from {seller.name}" if seller is not None and seller is not who and (
        seller.is_player or seller.is_corporation) else ""
    return f"Buy {company(game, a.get('company'))}{src} for {price(game, a)}"


def sell_company(game: Any, who: Any, a: dict[str, Any]) -> str:
    return f"Sell {company(game, a.get('company'))} for {price(game, a)}"


def acquire_company(game: Any, who: Any, a: dict[str, Any]) -> str:
    return f"Acquire {company(game, a.get('company'))}"


def assign(game: Any, who: Any, a: dict[str, Any]) -> str:
    target = a.get("target")
    name = company(game, target) if a.get("target_type") == "company" else (
        corporation(game, target) if a.get("target_type") == "corporation" else where(game, target))
    return f"Assign to {name}"


def merge(game: Any, who: Any, a: dict[str, Any]) -> str:
    return f"Merge with {corporation(game, a.get('corporation'))}"


def convert(game: Any, who: Any, a: dict[str, Any]) -> str:
    return f"Convert {titled(who)}" if who is not None else "Convert"


# ----------------------------------------------------------------------------- track and tokens
def lay_tile(game: Any, who: Any, a: dict[str, Any]) -> str:
    tile = str(a.get("tile", "")).rsplit("-", 1)[0]
    return f"Lay tile {tile} on {where(game, a.get('hex'))}, rotation {a.get('rotation')}"


def place_token(game: Any, who: Any, a: dict[str, Any]) -> str:
    cost = f" for {money(game, a['cost'])}" if a.get("cost") else ""
    return f"Token in {city_place(game, a.get('city'))}{cost}"


def remove_token(game: Any, who: Any, a: dict[str, Any]) -> str:
    return f"Remove token from {city_place(game, a.get('city'))}"


def hex_token(game: Any, who: Any, a: dict[str, Any]) -> str:
    kind = str(a.get("token_type") or "").replace("_", " ")
    return f"Place {kind + ' ' if kind else ''}token in {where(game, a.get('hex'))}"


def remove_hex_token(game: Any, who: Any, a: dict[str, Any]) -> str:
    return f"Remove token from {where(game, a.get('hex'))}"


# ----------------------------------------------------------------------------- trains and runs
def buy_train(game: Any, who: Any, a: dict[str, Any]) -> str:
    tid = a.get("train")
    t = game.depot.train_by_id(tid)
    name = a.get("variant") or train_name(game, tid)
    seller = ""
    if t is not None and t in game.depot.discarded:
        seller = " from the open market"
    elif t is not None and t.owner is not None and not t.owner.is_depot and t.owner is not who:
        seller = f" from {titled(t.owner)}"
    trade = f", trading in a {train_name(game, a['exchange'])}" if a.get("exchange") else ""
    return f"Buy {name} train{seller} for {price(game, a)}{trade}"


def discard_train(game: Any, who: Any, a: dict[str, Any]) -> str:
    return f"Discard {train_name(game, a.get('train'))} train"


def scrap_train(game: Any, who: Any, a: dict[str, Any]) -> str:
    return f"Scrap {train_name(game, a.get('train'))} train"


def run_routes(game: Any, who: Any, a: dict[str, Any]) -> str:
    routes = [r for r in a.get("routes") or [] if isinstance(r, dict)]
    if not routes:
        return "Run no trains"
    if any(r.get("revenue") is None for r in routes):  # (a logged run names only its connections)
        return "Run " + ", ".join(f"{train_name(game, r.get('train'))} train" for r in routes)
    total = sum(int(r.get("revenue") or 0) for r in routes)
    parts = ", ".join(f"{train_name(game, r.get('train'))}: {r.get('revenue_str') or ''} ({r.get('revenue')})"
                      for r in routes)
    return f"Run for {money(game, total)}: {parts}"


def dividend(game: Any, who: Any, a: dict[str, Any]) -> str:
    """Each option with what it pays (the dividend step's own split of the revenue)."""
    kind = str(a.get("kind"))
    step = step_for(game, who, "dividend")
    if step is None or who is None:
        return {"payout": "Pay dividends", "withhold": "Withhold", "half": "Pay half"}.get(kind, f"Pay {kind}")
    kept, paid = step.payout_amounts(who, kind, step.total_revenue())
    if kind == "withhold":
        return f"Withhold {money(game, kept)}"
    head = "Pay half" if kind == "half" else "Pay"
    if step.pays_half_to_owner(who) or not getattr(who, "total_shares", 0):
        to = f"{head}: {money(game, paid)} to the owner"
    else:
        each = step.per_share(who, paid)
        to = f"{head}: {money(game, paid)} ({money(game, int(each) if each == int(each) else round(each, 2))} a share)"
    return to + (f", {money(game, kept)} kept" if kept else "")


# ----------------------------------------------------------------------------- the rest
def choose(game: Any, who: Any, a: dict[str, Any]) -> str:
    return f"Choose {words(a.get('choice'))}"


def special_buy(game: Any, who: Any, a: dict[str, Any]) -> str:
    return f"Buy {words(a.get('description'))} for {money(game, a.get('cost') or 0)}"


def program_buy_shares(game: Any, who: Any, a: dict[str, Any]) -> str:
    return f"Auto-buy shares of {corporation(game, a.get('corporation'))}"


def message(game: Any, who: Any, a: dict[str, Any]) -> str:
    return f"Message: {a.get('message', '')}"


def fixed(text: str) -> Label:
    def label(game: Any, who: Any, a: dict[str, Any]) -> str:
        return text
    return label


LABELS: dict[str, Label] = {
    "pass": fixed("Pass"), "undo": fixed("Undo"), "redo": fixed("Redo"),
    "buy_shares": buy_shares, "sell_shares": sell_shares, "par": par, "bid": bid,
    "buy_company": buy_company, "sell_company": sell_company, "acquire_company": acquire_company,
    "assign": assign, "merge": merge, "convert": convert,
    "lay_tile": lay_tile, "place_token": place_token, "remove_token": remove_token, "hex_token": hex_token,
    "remove_hex_token": remove_hex_token,
    "buy_train": buy_train, "discard_train": discard_train, "scrap_train": scrap_train,
    "run_routes": run_routes, "dividend": dividend,
    "choose": choose, "choose_ability": choose, "special_buy": special_buy,
    "bankrupt": fixed("Declare bankruptcy"), "end_game": fixed("End the game"),
    "payoff_player_debt": fixed("Pay off the loan"),
    "program_buy_shares": program_buy_shares, "program_share_pass": fixed("Auto-pass in stock rounds"),
    "program_disable": fixed("Stop auto actions"), "program_merger_pass": fixed("Auto-pass in merger rounds"),
    "message": message,
}


def generic(game: Any, who: Any, a: dict[str, Any]) -> str:
    """An action type without its own label: its name and its fields' values in words."""
    t = str(a.get("type", "?")).replace("_", " ").capitalize()
    extra = ", ".join(words(v) for k, v in a.items() if k not in _QUIET)
    return f"{t}: {extra}" if extra else t


def describe(game: Any, a: dict[str, Any]) -> str:
    """A short label in words of a legal (or logged) action at the game's position."""
    t = str(a.get("type"))
    who = actor(game, a) if "entity" in a else None
    try:
        step = step_for(game, who, t)
        own = step.action_label(who, a) if step is not None else None
        if own:
            return own
        return LABELS.get(t, generic)(game, who, a)
    except (GameError, AttributeError, TypeError, ValueError, KeyError, IndexError, StopIteration):
        return generic(game, who, a)
