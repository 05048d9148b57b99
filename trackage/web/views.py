"""What the pages show, as plain data: action labels (``describe``, from :mod:`.labels`),
the spreadsheet, the market grid, the history (a game at any action, with checkpoints) and the charts' series."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from .. import story
from ..core.errors import GameError
from ..core.journal import round_label
from ..core.log import filter_actions
from ..titles import new_game
from ..turns import META_TYPES, Mark, Seen, action_kind, mark_after, seen, sender_of
from .labels import describe as describe  # (the pages and the CLI label actions through views)
from .mapsvg import entity_colors

if TYPE_CHECKING:
    from ..core.game import Game


# ---------------------------------------------------------------------------- labels
def entity_label(game, e) -> str:
    if e is None:
        return "-"
    if e.is_player:
        return e.name
    return str(getattr(e, "id", None) or getattr(e, "name", e))


def clean_for_json(a: dict) -> dict:
    return dict(a)


_SHORT_KEYS = ("company", "corporation", "shares", "share_price", "hex", "tile", "rotation", "city", "train",
               "price", "kind", "choice", "minor", "percent")


def short_label(a: dict) -> str:
    """A log line without the game at hand: type, entity and the main fields."""
    t = str(a.get("type", "?"))
    parts = []
    for k in _SHORT_KEYS:
        if k in a:
            v = a[k]
            if isinstance(v, list):
                v = ",".join(map(str, v))
            parts.append(f"{k} {v}")
    if t == "run_routes":
        routes = a.get("routes") or []
        parts.append(f"revenue {sum(int(r.get('revenue') or 0) for r in routes if isinstance(r, dict))}")
    if t == "message":
        parts.append(str(a.get("message", ""))[:80])
    return f"{t.replace('_', ' ')}" + (": " + "; ".join(parts) if parts else "")


def logged_label(game, a: dict) -> str:
    """A logged action in words (the buttons' labels), worded on ``game`` just before it was
    applied; the short form when the labels cannot word it."""
    try:
        return describe(game, a)
    except Exception:  # noqa: BLE001 - a label never stops a replay or an action
        return short_label(a)


def history_rows(rows: list[dict], labels: dict[int, str] | None = None) -> list[dict]:
    """The history card's lines for stored ``rows`` (``{"id", "data"}``): each action's label
    (from ``labels``, by row id, else its short form), an undo naming the action(s) it took
    back and a redo the ones it put back (undo and redo as the log filter reads them: an undo
    takes back the last live action, or every one after its ``action_id``; a redo puts back
    what the latest undo took; any other action clears what can be redone)."""
    live: list[tuple[int, str]] = []  # (id, label) of the actions in effect
    undone: list[list[tuple[int, str]]] = []
    out = []
    for r in rows:
        a = r["data"]
        t = a.get("type")
        label = (labels or {}).get(r["id"]) or short_label(a)
        if t == "undo":
            if isinstance(a.get("action_id"), int):
                group = [x for x in live if x[0] > a["action_id"]]
                live = [x for x in live if x[0] <= a["action_id"]]
            else:
                group = live[-1:]
                live = live[:-1]
            undone.append(group)
            label = "undo: " + "; ".join(lb for _, lb in group) if group else "undo (nothing to take back)"
        elif t == "redo":
            group = undone.pop() if undone else []
            live.extend(group)
            label = "redo: " + "; ".join(lb for _, lb in group) if group else "redo (nothing to put back)"
        elif t != "message":
            live.append((r["id"], label))
            undone.clear()
        out.append({"id": r["id"], "type": t, "entity": a.get("entity"), "label": label})
    return out


def acting_label(game, a: dict) -> str:
    try:
        return entity_label(game, game.index.resolve(a))
    except GameError:
        return str(a.get("entity"))


# ---------------------------------------------------------------------------- tables
def spreadsheet(game) -> dict:
    """Players (cash, certificates, value, shares per corporation, privates) and companies
    (president, prices, treasury, trains, tokens, IPO, pool); amounts in the title's money,
    the bank "broken" once it has. (The private companies and the trains: :mod:`.cards`,
    :mod:`.roster`.)"""
    corps = [c for c in game.corporations if getattr(c, "ipoed", False) or c.floated()]
    players = []
    for p in game.seats:
        players.append({
            "name": p.name, "id": p.id, "cash": story.money(game, p.cash),
            "certs": f"{game.num_certs(p)}/{game.cert_limit(p)}",
            "value": story.money(game, game.player_value(p)),
            "shares": {c.id: p.percent_of(c) for c in corps},
            "companies": [c.sym for c in p.companies],
            "priority": bool(game.players) and p is game.players[0],
            "bankrupt": p.bankrupt,
        })
    crows = []
    for c in corps:
        fc, tc = entity_colors(c)
        crows.append({
            "id": c.id, "name": c.name, "color": fc, "text_color": tc,
            "president": entity_label(game, c.owner) if c.owner is not None else "-",
            "price": story.money(game, c.share_price.price) if c.share_price is not None else None,
            "par": story.money(game, c.par_price.price) if getattr(c, "par_price", None) is not None else None,
            "cash": story.money(game, c.cash), "trains": [t.name for t in c.trains],
            "tokens": f"{sum(1 for t in c.tokens if t.used)}/{len(c.tokens)}",
            "ipo": c.percent_of(c), "pool": game.pool.percent_of(c),
            "companies": [x.sym for x in getattr(c, "companies", [])],
            "operated": c.operated() if hasattr(c, "operated") else None,
        })
    minors = []
    for m in game.minors:
        if getattr(m, "closed", False):
            continue
        fc, tc = entity_colors(m)
        minors.append({"id": m.id, "name": m.name, "color": fc, "text_color": tc,
                       "owner": entity_label(game, m.owner) if m.owner is not None else "-",
                       "cash": story.money(game, m.cash), "trains": [t.name for t in m.trains],
                       "tokens": f"{sum(1 for t in m.tokens if t.used)}/{len(m.tokens)}"})
    return {"players": players, "corps": crows, "minors": minors,
            "bank": "broken" if game.bank.broken else story.money(game, game.bank_display()),
            "phase": game.phase.name}


MARKET_CELL = {"par": "#a8e6a1", "par_overlap": "#a8e6a1", "par_1": "#a8e6a1", "par_2": "#c2f0c2",
               "par_3": "#d8f5d8", "endgame": "#f28c8c", "close": "#555555", "no_cert_limit": "#fde900",
               "unlimited": "#ffb347", "multiple_buy": "#ffb347", "liquidation": "#888888",
               "acquisition": "#b0c4de", "repar": "#dda0dd", "safe_par": "#c2f0c2"}


def market_grid(game) -> list[list[dict | None]]:
    sm = game.stock_market
    rows: list[list[dict | None]] = []
    for row in sm.market:
        out: list[dict | None] = []
        for sp in row:
            if sp is None:
                out.append(None)
                continue
            corps = []
            for c in sm.corporations_at(sp):
                fc, tc = entity_colors(c)
                corps.append({"id": c.id, "color": fc, "text_color": tc})
            out.append({"price": sp.price, "types": list(sp.types),
                        "bg": next((MARKET_CELL[t] for t in sp.types if t in MARKET_CELL), "#ffffff"),
                        "corps": corps})
        rows.append(out)
    return rows


# ---------------------------------------------------------------------------- history
class Charts:
    """Series sampled while a game is replayed: each player's value and each company's
    share price at the end of every round, and each operator's revenue per OR."""

    def __init__(self):
        self.labels: list[str] = []
        self.values: dict[str, list] = {}
        self.prices: dict[str, list] = {}
        self.action_of_label: list[int] = []
        self._last_label = None
        self._operators: dict = {}

    def observe(self, game, n_action: int) -> None:
        label = round_label(game)
        for o in list(game.corporations) + list(game.minors):
            self._operators.setdefault(o.id, o)
        if label != self._last_label:
            self._sample(game, label, n_action)
            self._last_label = label

    def _sample(self, game, label, n_action) -> None:
        i = len(self.labels)
        self.labels.append(label)
        self.action_of_label.append(n_action)
        for p in game.seats:
            self.values.setdefault(p.name, [None] * i).append(game.player_value(p))
        for c in game.corporations:
            sp = getattr(c, "share_price", None)
            if sp is None:
                continue
            self.prices.setdefault(c.id, [None] * i).append(sp.price)
        for series in (self.values, self.prices):
            for v in series.values():
                while len(v) < i + 1:
                    v.append(None)

    def finish(self, game, n_action: int) -> Charts:
        """The state now as the last point (a copy: ``self`` keeps observing)."""
        out = Charts()
        out.labels = self.labels + ["now"]
        out.action_of_label = self.action_of_label + [n_action]
        i = len(self.labels)
        out.values = {k: list(v) for k, v in self.values.items()}
        out.prices = {k: list(v) for k, v in self.prices.items()}
        for p in game.seats:
            out.values.setdefault(p.name, [None] * i).append(game.player_value(p))
        for c in game.corporations:
            sp = getattr(c, "share_price", None)
            if sp is not None:
                out.prices.setdefault(c.id, [None] * i).append(sp.price)
        for series in (out.values, out.prices):
            for v in series.values():
                while len(v) < i + 1:
                    v.append(None)
        out._operators = dict(self._operators)
        for o in list(game.corporations) + list(game.minors):
            out._operators.setdefault(o.id, o)
        return out

    def revenue(self) -> tuple[list[str], dict[str, list]]:
        """(OR labels, operator -> revenue per OR) from the operators' histories."""
        seen: set = set()
        for o in self._operators.values():
            seen.update((getattr(o, "operating_history", None) or {}).keys())
        keys = sorted(k for k in seen if isinstance(k, tuple) and len(k) == 2)
        labels = [f"OR {t}.{r}" for t, r in keys]
        series = {}
        for oid, o in self._operators.items():
            hist = getattr(o, "operating_history", None) or {}
            if not hist:
                continue
            series[oid] = [getattr(hist.get(k), "revenue", None) if k in hist else None for k in keys]
        return labels, series


class History:
    """A stored game's history: the game after any number of stored actions, from
    checkpoints (copies every ``EVERY`` live actions) built by one replay, its charts, and
    each live action's label in words (``labels``, by action id: worded on the game just
    before it, during the replay)."""

    EVERY = 40

    def __init__(self, meta: dict, rows: list[dict], *, clock: bool = False):
        """``clock``: also take the clock's marks of the stored actions on the way (``marks``,
        as :func:`trackage.turns.replay_marks` makes them, saving the clock a second replay),
        when no action is an undo or redo (None otherwise, or when the game does not replay)."""
        self.meta = meta
        self.rows = rows
        self.lock = threading.Lock()
        self.final_live = filter_actions([r["data"] for r in rows])
        self.checkpoints: dict[int, Game] = {}
        self.charts = Charts()
        self.labels: dict[int, str] = {}
        game = self.new_game()
        self.checkpoints[0] = game.copy()
        count = 0
        self._label_next(game, 0)
        marking = clock and len(self.final_live) == len(rows) and all(
            action_kind(r["data"]) not in META_TYPES for r in rows)
        start = state = seen(game) if marking else None
        marks: list[Mark] = []
        senders = [sender_of(game, self.final_live[0])] if marking and self.final_live else []

        def trace(g, action):
            nonlocal count, state
            count += 1
            if state is not None:  # the clock's mark, as replay_marks takes it
                mark, state = mark_after(g, action, state, senders[-1])
                marks.append(mark)
                if len(senders) < len(self.final_live):
                    senders.append(sender_of(g, self.final_live[len(senders)]))
            self._label_next(g, count)
            self.charts.observe(g, action.get("id", count))
            if count % self.EVERY == 0:
                self.checkpoints[count] = g.copy()

        self.charts.observe(game, 0)
        self.error = None
        try:
            game.load(self.final_live, trace=trace)
        except Exception as e:  # noqa: BLE001 - a stored game that no longer replays
            self.error = e
        self.final = game
        self.applied = count
        self.marks: tuple[Seen, list[Mark]] | None = (
            (start, marks) if start is not None and self.error is None else None)

    def _label_next(self, game, done: int) -> None:
        """Word the live action after the first ``done`` on ``game`` (the game before it)."""
        if done < len(self.final_live):
            a = self.final_live[done]
            if isinstance(a.get("id"), int):
                self.labels[a["id"]] = logged_label(game, a)

    def append(self, row: dict, game, label: str | None = None) -> None:
        """A new stored (live-played, non-meta) action, already applied to ``game``; ``label``:
        its words, taken on the game before it."""
        with self.lock:
            if label:
                self.labels[row["id"]] = label
            self.rows.append(row)
            self.final_live.append(row["data"])
            self.applied += 1
            self.charts.observe(game, row["id"])
            if self.applied % self.EVERY == 0:
                self.checkpoints[self.applied] = game.copy()

    def new_game(self):
        m = self.meta
        return new_game(m["title"], m["players"], m["options"], m["seed"], m.get("log_id") or m["id"],
                        validate=False)

    def game_at(self, n: int):
        """The game after the stored actions with id <= ``n``."""
        live = filter_actions([r["data"] for r in self.rows if r["id"] <= n])
        common = 0
        for a, b in zip(live, self.final_live):
            if a is not b:
                break
            common += 1
        k = max((c for c in self.checkpoints if c <= common and c <= self.applied), default=0)
        with self.lock:
            g = self.checkpoints[k].copy()
        rest = live[k:]
        if rest:
            g.load(rest)
        return g
