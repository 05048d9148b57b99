"""1858 India: the 1858 rules on an Indian map, with loco works, mine/oil/port tokens,
Pullman trains, a 1M variant of the 2H and gauge conversion tiles."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from ...core import tiles as tilemod
from ...core.kinds import Kinds
from ...core.tokens import Token
from ..t1858.game import Game1858
from ..t1858.steps import Dividend1858, IssueShares1858, Token1858
from .steps import BuyTrainIndia, CollectTokens, DiscardTrainIndia, RouteIndia, TrackIndia

if TYPE_CHECKING:
    from .routes import RouteRulesIndia

DATA = Path(__file__).parent / "data"

TRAIN_COUNTS = {"2H": 8, "4H": 7, "6H": 5, "5E": 4, "6E": 3, "7E": 20, "5D": 10, "Pullman": 4}
M_PRICES = {1: 160, 2: 240, 3: 500, 4: 650, 5: 800}


class HexTokenOwner(Kinds):
    """The bank-held mine, oil and port tokens (dummy companies in the reference)."""

    owner = None
    cash = 0
    TOKEN_KIND = "hex_owner"

    def __init__(self, sym):
        self.id = self.sym = self.name = sym
        self.tokens: tuple = ()


class Game1858India(Game1858):
    IN_PLACE: ClassVar[tuple[str, ...]] = (*Game1858.IN_PLACE, "hex_token_owners")
    CURRENCY = "£%s"
    TITLE = "1858India"
    PLAYER_RANGE = (3, 6)
    DATA_DIR = DATA
    TOKEN_COST: ClassVar[dict] = {"mine": 50, "oil": 100, "port": 200}
    BANK = 16_000
    STARTING_CASH: ClassVar[dict] = {3: 665, 4: 500, 5: 400, 6: 335}
    CERT_LIMIT: ClassVar[dict] = {3: 27, 4: 20, 5: 16, 6: 13}

    def game_phases(self, g) -> list:
        # (``g`` is this game's own copy of the data: only what is changed below is copied)
        phases = [dict(p) for p in g["phases"]]
        phases[0]["status"] = ["yellow_privates", "narrow_gauge"]
        phases[3]["status"] = ["public_companies", "dual_gauge", "loco_works", "oil_tokens"]
        phases[4]["status"] = ["public_companies", "dual_gauge", "loco_works", "oil_tokens"]
        phases[5]["status"] = ["public_companies", "dual_gauge", "loco_works", "oil_tokens", "port_tokens"]
        return phases

    def game_trains(self, g) -> list:
        # (``g`` is this game's own copy of the data: only what is changed below is copied)
        trains = [dict(t) for t in g["trains"]]
        trains[0]["variants"] = [{"name": "1M", "no_local": True, "track_type": "narrow", "price": 80,
                                  "distance": [{"nodes": ["city", "offboard"], "pay": 1, "visit": 1},
                                               {"nodes": ["town"], "pay": 99, "visit": 99}]}]
        for i, price in M_PRICES.items():
            variants = trains[i]["variants"] = list(trains[i]["variants"])
            variants[0] = {**variants[0], "price": price}
        trains.append({"name": "Pullman", "track_type": "broad", "price": 100, "available_on": "3",
                       "distance": [{"nodes": ["city", "offboard"], "pay": 7, "visit": 7},
                                    {"nodes": ["town"], "pay": 0, "visit": 99}]})
        for t in trains:
            t["num"] = TRAIN_COUNTS[t["name"]]
        return trains

    def bank_cash_start(self) -> int:
        return self.BANK

    def init_cert_limit(self) -> int:
        return self.CERT_LIMIT[len(self.players)]

    def init_starting_cash(self) -> None:
        from ...core.money import pay

        for p in self.players:
            pay(self, self.bank, p, self.STARTING_CASH[len(self.players)], "starting_cash")

    def phase4_train_trigger(self) -> int:
        return 7

    def token_owner(self, token):
        if token.owner_kind == "hex_owner":
            return self.hex_token_owners.get(token.owner)
        return super().token_owner(token)

    def setup(self) -> None:
        super().setup()
        self.hex_token_owners = {}
        for kind in ("mine", "oil", "port"):
            owner = HexTokenOwner(kind)
            self.hex_token_owners[kind] = owner
            for coord in self.data["board"][f"{kind}_hexes"]:
                hx = self.board.hex_by_id(coord)
                tok = Token(owner, price=0, type=kind)
                owner.tokens = (*owner.tokens, tok)
                self.board.put_hex_token(hx, tok)

    def hex_token_hexes(self, kind) -> list:
        return [self.board.hex_by_id(c) for c in self.data["board"][f"{kind}_hexes"]]

    def operating_steps(self) -> list:
        return [TrackIndia, CollectTokens, Token1858, RouteIndia, Dividend1858, DiscardTrainIndia, BuyTrainIndia,
                IssueShares1858]

    # --- companies
    def private_railway(self, company) -> bool:
        return company.data.get("type") != "locoworks"

    def purchasable_companies(self, entity) -> list:
        # quirk (reference): a loco works closed with its company has no owner again, so it
        # is for sale once more (closed, without its discount, still earning its revenue)
        if type(self).private_railway is Game1858India.private_railway:
            # (:meth:`private_railway`, inline, the owner first: asked by every operating
            # question of a company in a phase with loco works)
            return [c for c in self.companies if c.owner is None and c.data.get("type") == "locoworks"]
        return [c for c in self.companies if not self.private_railway(c) and c.owner is None]

    def company_pays(self, company) -> bool:
        # the reference pays every owned company with revenue, closed or not (a closed loco
        # works bought back earns its 10)
        if company.owner is None or company.owner is self.bank or company.revenue <= 0:
            return False
        return not (self.private_railway(company) and company.owner.is_corporation)

    def init_round(self):
        r = super().init_round()
        return r

    # --- trains
    def pullman(self, train) -> bool:
        return train is not None and train.name == "Pullman"

    def owns_pullman(self, corp) -> bool:
        for t in corp.trains:  # (:meth:`pullman`, inline, a plain loop: asked by the train step)
            if t.name == "Pullman":
                return True
        return False

    def trainless(self, corp) -> bool:
        for t in corp.trains:  # (:meth:`pullman`, inline, a plain loop)
            if t.name != "Pullman":
                return False
        return True

    def num_corp_trains(self, corp) -> int:
        n = 0
        for t in corp.trains:  # (:meth:`pullman`, inline: asked by every train question)
            if t.name != "Pullman":
                n += 1
        return n

    def route_trains(self, entity) -> list:
        trains = super().route_trains(entity)
        return [t for t in trains if not self.pullman(t)]

    def plain_train_prices(self, corp) -> bool:
        """This class's :meth:`train_price` for a buyer with no loco works discount is the
        variant's own price."""
        if type(self).train_price is not Game1858India.train_price or type(self).train_spec is not Game1858.train_spec:
            return False
        for c in getattr(corp, "companies", []):
            for ab in c.abilities:
                if ab.get("type") == "train_discount":
                    return False
        return True

    def train_price(self, train, entity, variant=None, companies=None) -> int:
        """A depot train's price after the loco works discounts of ``companies`` (default:
        the buyer's)."""
        spec = self.train_spec(train, variant)
        price = spec["price"]
        if train.owner is not self.depot:
            return price
        for c in (getattr(entity, "companies", []) if companies is None else companies):
            for ab in c.abilities:
                if ab.get("type") == "train_discount" and (not ab.get("trains") or spec["name"] in ab["trains"]):
                    d = ab["discount"]
                    price -= d if d > 1 else int(price * d)
        return price

    # other companies' Pullmans count for the cheapest train (the step stays open for them)
    # though they are never sold across: BuyTrainIndia.trains_for_sale leaves them out

    def route_rules(self) -> RouteRulesIndia:
        from .routes import RouteRulesIndia

        return RouteRulesIndia(self)

    def run_extra_revenue(self, entity, routes: list) -> int:
        return self.mines_ports_bonus(entity)

    def mines_ports_bonus(self, corp) -> int:
        """The bonus a run earns from collected mine, oil and port tokens."""
        board = self.data["board"]
        total = 0
        for kind in ("mine", "oil", "port"):
            n = sum(1 for t in corp.tokens if t.type == kind)
            if n:
                off = self.board.tile(self.board.hex_by_id(board[f"{kind}_bonus_hex"])).offboards[0]
                total += n * off.revenue_for(self.phase.tiles)
        return total

    # --- map
    def upgrades_to(self, old_tile, new_tile) -> bool:
        return super().upgrades_to(old_tile, new_tile) or self.gauge_conversion(old_tile, new_tile)

    def conversion_ok(self, old_tile, new_tile) -> bool:
        from .steps import conversion_ok

        return self.gauge_conversion(old_tile, new_tile) and conversion_ok(old_tile, new_tile)

    def conversion_may_fit(self, old_tile, new_tile) -> bool:
        """A gauge conversion (its test reads no rotation) in some rotation, maybe."""
        return self.gauge_conversion(old_tile, new_tile)

    def gauge_conversion(self, old, new) -> bool:
        """Same colour, label, cities, towns and track layout; only gauges differ. The old
        tile is tried in every rotation and turning the new one turns its paths alike, so the
        answer is a function of the two tiles' specs, colours, labels and gauge flags, kept with
        the catalogue."""
        memo = old.spec.upgrade_memos.setdefault(("1858 India gauge conversion", type(self)), {})
        key = (old.spec, old.color, old.labels, new.spec, new.color, new.labels, old.igc, new.igw, new.igc)
        ok = memo.get(key)
        if ok is None:
            ok = memo[key] = self._gauge_conversion(old, new)
        return ok

    def _gauge_conversion(self, old, new) -> bool:
        if old.color != new.color or old.color == "white":
            return False
        if not tilemod.upgrades_to_correct_label(old, new):
            return False
        if len(old.cities) != len(new.cities) or len(old.towns) != len(new.towns):
            return False
        if len(old.paths) != len(new.paths):
            return False
        new_ends = [_path_ends(p, 0) for p in new.paths]
        return any(all(any(_ends_within(_path_ends(p, r), ne) for ne in new_ends) for p in old.paths) for r in range(6))


def _path_ends(path, r: int) -> list:
    out = [("edge", (e + r) % 6) for e in path.exits]
    out += [("node", getattr(n, "kind", type(n).__name__)) for n in path.nodes]
    return out


def _ends_within(ends, other) -> bool:
    return all(e in other for e in ends)
