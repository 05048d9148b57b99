"""An OpenSpiel-shaped view of trackage games, for search and learning programs.

    from trackage.spiel import SpielGame

    game = SpielGame("1867", num_players=4, seed=1)
    state = game.new_initial_state()
    while not state.is_terminal():
        action = state.legal_actions()[0]        # integers
        print(state.action_to_string(action))
        state.apply_action(action)
    print(state.returns())

The game behind a state is a trackage :class:`~trackage.core.game.Game`; ``clone()`` is its
structural copy, so look-ahead is cheap.

**The action encoding** is fixed per title, options and player count (:class:`ActionEncoding`):
an action is a type and an acting entity plus a few categorical fields, each with a range
known from the title's catalogue, and its index is their mixed-radix number:

* ``lay_tile``: hex, tile name, rotation;
* ``place_token``: hex and the city's position on its tile;
* ``buy_shares`` / ``sell_shares``: corporation, the holder the shares come from, percent;
* ``par``: corporation, market cell;
* ``bid``, ``buy_company``, ``buy_train``: what is bought (and from whom), and the price as
  one of three tiers of the legal range (its minimum, middle and maximum);
* ``discard_train``: train name; ``dividend``: kind; ``pass``; ``run_routes`` (the routes the
  engine suggests);
* any other type (title-specific choices): its position among the legal actions of that type
  and entity, sorted by their content.

``decode(index)`` gives the action dict to process; ``encode(action)`` the index.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from .titles import new_game

TERMINAL = -4  # pyspiel.PlayerId.TERMINAL
PRICE_TIERS = 3
POSITIONAL = 64
BASE_TYPES = ("pass", "lay_tile", "place_token", "buy_shares", "sell_shares", "par", "bid", "buy_company",
              "buy_train", "discard_train", "dividend", "run_routes")
DIVIDEND_KINDS = ("payout", "withhold", "half")
BOOKKEEPING = ("id", "created_at", "user", "auto_actions", "price_range", "price_step", "canonical_prices")


class EncodingError(ValueError):
    """An action outside the encoding (or an index no legal action has)."""


@dataclass(frozen=True)
class _Field:
    name: str
    size: int


class ActionEncoding:
    """The integer encoding of one title + options + player count (see the module)."""

    def __init__(self, game, extra_types: list[str]):
        self.entities = ([str(p.id) for p in game.players] + [c.id for c in game.corporations]
                         + [m.id for m in game.minors] + [c.sym for c in game.companies])
        self.holders = self.entities + ["pool", "depot", "bank"]
        board = game.board
        self.hexes = [h.id for h in board.hexes] if board is not None else []
        self.tiles = board.supply.names() if board is not None else []
        self.cells = [sp.id for sp in game.stock_market.all_prices()]
        self.trains = sorted({v for t in game.depot.trains for v in t.variants})
        self.types = list(BASE_TYPES) + sorted(t for t in extra_types if t not in BASE_TYPES)
        ne = len(self.entities)
        fields = {
            "pass": [],
            "run_routes": [],
            "lay_tile": [_Field("hex", len(self.hexes)), _Field("tile", len(self.tiles)), _Field("rotation", 6)],
            "place_token": [_Field("hex", len(self.hexes)), _Field("city", 8)],
            "buy_shares": [_Field("corporation", ne), _Field("from", len(self.holders)), _Field("percent", 21)],
            "sell_shares": [_Field("corporation", ne), _Field("percent", 21)],
            "par": [_Field("corporation", ne), _Field("cell", len(self.cells))],
            "bid": [_Field("target", ne), _Field("tier", PRICE_TIERS)],
            "buy_company": [_Field("company", ne), _Field("tier", PRICE_TIERS)],
            "buy_train": [_Field("train", len(self.trains)), _Field("from", len(self.holders)),
                          _Field("tier", PRICE_TIERS)],
            "discard_train": [_Field("train", len(self.trains))],
            "dividend": [_Field("kind", len(DIVIDEND_KINDS))],
        }
        self.fields = {t: fields.get(t, [_Field("position", POSITIONAL)]) for t in self.types}
        self.offsets: dict[str, int] = {}
        n = 0
        for t in self.types:
            self.offsets[t] = n
            size = ne
            for f in self.fields[t]:
                size *= max(1, f.size)
            n += size
        self.size = n

    # -- index arithmetic ---------------------------------------------------------------------
    def _index(self, atype: str, entity: int, values: list[int]) -> int:
        if atype not in self.offsets:
            raise EncodingError(f"action type {atype!r} is not in this encoding")
        i = entity
        for f, v in zip(self.fields[atype], values):
            if not 0 <= v < max(1, f.size):
                raise EncodingError(f"{atype}: {f.name} {v} out of range")
            i = i * max(1, f.size) + v
        return self.offsets[atype] + i

    def describe(self, index: int) -> tuple[str, str, dict]:
        """(type, entity id, {field: value}) of an index."""
        atype = max((t for t in self.types if self.offsets[t] <= index), key=lambda t: self.offsets[t])
        i = index - self.offsets[atype]
        values = {}
        for f in reversed(self.fields[atype]):
            size = max(1, f.size)
            values[f.name] = i % size
            i //= size
        return atype, self.entities[i], dict(reversed(list(values.items())))

    # -- actions -> indices -----------------------------------------------------------------
    def _entity(self, action: dict) -> int:
        eid = str(action.get("entity"))
        if eid not in self.entities:
            raise EncodingError(f"unknown entity {eid!r}")
        return self.entities.index(eid)

    def _of(self, seq: list, value, what: str) -> int:
        try:
            return seq.index(value)
        except ValueError:
            raise EncodingError(f"unknown {what} {value!r}") from None

    @staticmethod
    def _tier(action: dict, price) -> int:
        prices = action.get("canonical_prices")
        if prices and price in prices:
            return min(prices.index(price), PRICE_TIERS - 1)
        rng = action.get("price_range")
        if rng and price is not None:
            lo, hi = rng
            return 0 if price <= lo else (2 if price >= hi else 1)
        return 0

    def key(self, game, action: dict, position: int = 0) -> int:
        """The index of ``action`` in ``game`` (``position``: for positional types)."""
        atype = action["type"]
        e = self._entity(action)
        if atype in ("pass", "run_routes"):
            return self._index(atype, e, [])
        if atype == "lay_tile":
            name = str(action["tile"]).rpartition("-")[0]
            return self._index(atype, e, [self._of(self.hexes, action["hex"], "hex"),
                                          self._of(self.tiles, name, "tile"), int(action.get("rotation", 0))])
        if atype == "place_token":
            city = game.board.city_by_id(action.get("city"))
            if city is None:
                raise EncodingError(f"unknown city {action.get('city')!r}")
            return self._index(atype, e, [self._of(self.hexes, city.hex.id, "hex"), list(city.tile.cities).index(city)])
        if atype in ("buy_shares", "sell_shares"):
            shares = [game.index.share(s) for s in action.get("shares") or []]
            if not shares or any(s is None for s in shares):
                raise EncodingError("unknown shares")
            corp = self._of(self.entities, shares[0].corp_id, "corporation")
            pct = int(action.get("percent") or sum(s.percent for s in shares)) // 5
            if atype == "sell_shares":
                return self._index(atype, e, [corp, pct])
            owner = game.share_corp(shares[0]).holder_of(shares[0])
            holder = "pool" if owner is not None and owner.is_pool else str(getattr(owner, "id", "bank"))
            return self._index(atype, e, [corp, self._of(self.holders, holder, "holder"), pct])
        if atype == "par":
            return self._index(atype, e, [self._of(self.entities, action["corporation"], "corporation"),
                                          self._of(self.cells, action["share_price"], "market cell")])
        if atype in ("bid", "buy_company"):
            target = action.get("company") or action.get("corporation") or action.get("minor")
            return self._index(atype, e, [self._of(self.entities, str(target), "company"),
                                          self._tier(action, action.get("price"))])
        if atype == "buy_train":
            train = game.depot.train_by_id(action.get("train"))
            if train is None:
                raise EncodingError(f"unknown train {action.get('train')!r}")
            name = action.get("variant") or train.name
            owner = train.owner
            holder = "depot" if owner is not None and owner.is_depot else str(getattr(owner, "id", "bank"))
            parts = [self._of(self.trains, name, "train"), self._of(self.holders, holder, "holder"),
                     self._tier(action, action.get("price"))]
            return self._index(atype, e, parts)
        if atype == "discard_train":
            train = game.depot.train_by_id(action.get("train"))
            if train is None:
                raise EncodingError(f"unknown train {action.get('train')!r}")
            return self._index(atype, e, [self._of(self.trains, train.name, "train")])
        if atype == "dividend":
            return self._index(atype, e, [self._of(list(DIVIDEND_KINDS), action.get("kind"), "dividend kind")])
        return self._index(atype, e, [position])


def _content(action: dict) -> str:
    return json.dumps({k: v for k, v in action.items() if k not in BOOKKEEPING}, sort_keys=True, default=str)


def _concrete(action: dict, tier: int | None = None) -> dict:
    a = {k: v for k, v in action.items() if k not in ("price_range", "price_step", "canonical_prices")}
    if tier is not None and action.get("canonical_prices"):
        prices = action["canonical_prices"]
        a["price"] = prices[min(tier, len(prices) - 1)]
    return a


class SpielGame:
    """A title, its options and player count: the static description and a factory."""

    def __init__(self, title: str, num_players: int, options: list[str] | tuple = (), seed: int = 0,
                 max_game_length: int = 20_000):
        self.title = title
        self.num_players = num_players
        self.options = list(options)
        self.seed = seed
        self.max_game_length = max_game_length
        first = self._new()
        extra = set()
        for step in _all_step_classes(first):
            extra.update(step.HANDLERS)
        self.encoding = ActionEncoding(first, sorted(extra))
        self._first = first

    def _new(self):
        players = [{"id": i + 1, "name": f"Player {i + 1}"} for i in range(self.num_players)]
        return new_game(self.title, players, self.options, self.seed)

    def num_distinct_actions(self) -> int:
        return self.encoding.size

    def new_initial_state(self) -> SpielState:
        return SpielState(self, self._first.copy())


def _all_step_classes(game) -> list:
    """The step classes of the core and of the game's title (and the title it builds on):
    every action type the title can ask for."""
    from .core.round import Step

    prefixes = {"trackage.core"} | {c.__module__.rsplit(".", 1)[0] for c in type(game).__mro__
                                     if c.__module__.startswith("trackage.titles")}
    out, todo = [], [Step]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if any(cls.__module__.startswith(p) for p in prefixes):
            out.append(cls)
    return out


class SpielState:
    """One position of a game (see the module)."""

    def __init__(self, spiel: SpielGame, game):
        self.spiel = spiel
        self.game = game

    # -- whose turn -------------------------------------------------------------------------
    def current_player(self) -> int:
        """The seat (0-based, in the order the players were given) of whoever acts now:
        a company's president for a company."""
        g = self.game
        if g.finished:
            return TERMINAL
        acting = g.acting_entities()
        if not acting:
            return TERMINAL
        e = acting[0]
        while not e.is_player and getattr(e, "owner", None) is not None and e.owner is not e:
            e = e.owner
        seats = [str(p.id) for p in g.seats]
        return seats.index(str(e.id)) if str(getattr(e, "id", None)) in seats else 0

    def is_terminal(self) -> bool:
        return self.game.finished or len(self.game.actions) >= self.spiel.max_game_length

    def returns(self) -> list[float]:
        """Each seat's final value (cash plus holdings, the title's score) when the game is
        over; zeros before."""
        g = self.game
        if not g.finished:
            return [0.0] * self.spiel.num_players
        result = g.result()
        return [float(result.get(str(p.id), 0)) for p in g.seats]

    # -- actions ----------------------------------------------------------------------------
    def _table(self) -> dict[int, dict]:
        g = self.game
        enc = self.spiel.encoding
        legal = g.legal_actions()
        out: dict[int, dict] = {}
        positional: dict[tuple, list] = {}
        for a in legal:
            if a["type"] not in enc.fields or (enc.fields[a["type"]] and enc.fields[a["type"]][0].name == "position"):
                positional.setdefault((a["type"], str(a.get("entity"))), []).append(a)
                continue
            if "canonical_prices" in a:
                for tier in range(min(PRICE_TIERS, len(a["canonical_prices"]))):
                    c = _concrete(a, tier)
                    out.setdefault(enc.key(g, c | {"canonical_prices": a["canonical_prices"]}), c)
            else:
                out.setdefault(enc.key(g, a), _concrete(a))
        for group in positional.values():
            for pos, a in enumerate(sorted(group, key=_content)[:POSITIONAL]):
                out.setdefault(enc.key(g, a, pos), _concrete(a))
        return out

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        return sorted(self._table())

    def decode(self, index: int) -> dict:
        """The action dict of a legal index."""
        a = self._table().get(index)
        if a is None:
            raise EncodingError(f"{index} is not a legal action now")
        return dict(a)

    def encode(self, action: dict) -> int:
        """The index of a legal action dict."""
        for index, a in self._table().items():
            if _content(a) == _content(action):
                return index
        raise EncodingError(f"{action} is not a legal action now")

    def action_to_string(self, index: int) -> str:
        atype, entity, fields = self.spiel.encoding.describe(index)
        return f"{entity} {atype} " + " ".join(f"{k}={v}" for k, v in fields.items())

    def apply_action(self, index: int) -> None:
        action = self.decode(index)
        action["id"] = len(self.game.actions) + 1
        self.game.process(action)

    def clone(self) -> SpielState:
        return SpielState(self.spiel, self.game.copy())

    def history(self) -> list[dict]:
        return list(self.game.actions)

    # -- what a player sees ------------------------------------------------------------------
    def observation(self) -> dict:
        """The position as plain data: round, phase, bank, players' cash and holdings, each
        company's cash, price, trains, tokens and loans, the depot, the market and the map
        (tile and rotation per hex, tokens per city)."""
        from .core.state import snapshot

        g = self.game
        obs = snapshot(g)
        board = g.board
        if board is not None:
            obs["map"] = {h.id: {"tile": t.name, "rotation": t.rotation,
                                 "tokens": [[tok.owner if tok else None
                                             for tok in board.tokens(c)] for c in t.cities]}
                          for h, t in board.tiles() if not (t.preprinted and t.color == "white" and not t.cities)}
        obs["market"] = {sp.id: [c.id for c in g.stock_market.corporations_at(sp)]
                         for sp in g.stock_market.all_prices() if g.stock_market.corporations_at(sp)}
        loans = {c.id: len(c.loans) for c in g.corporations if isinstance(getattr(c, "loans", None), list)}
        if loans:
            obs["loans"] = loans
        return obs
