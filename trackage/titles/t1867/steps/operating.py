"""t1867 steps: operating."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from trackage.core.steps.track import tokenable_cities

from ....core.errors import GameError
from ....core.money import spend
from ....core.steps.choose import ChooseMixin
from ....core.steps.operating import Dividend, HomeToken, RunRoutes
from ....core.steps.passing import Passing
from ....core.steps.track import TrackAndTokenStep

if TYPE_CHECKING:
    pass


from .loans import take_loans_for


class HomeToken1867(HomeToken):
    """The player places the home token of the minor/major just started, in a free city."""

    def after_home_token(self, entity, city) -> None:
        """A laid token clears the graph, as in the reference."""
        self.game.clear_graph()


class MajorTrainless(ChooseMixin, Passing):
    HANDLERS: ClassVar[dict] = {"pass": "process_pass", "choose": "process_choose"}

    def active(self):
        return bool(self.game.trainless_major)

    def skip(self):
        pass

    def current_entity(self):
        tm = self.game.trainless_major
        return tm[0] if tm else None

    def actions(self, entity):
        return ["pass", "choose"] if entity in self.game.trainless_major else []

    def passing(self, entity) -> None:
        """The major stays trainless (not nationalised)."""
        self.game.trainless_major.remove(entity)

    def choices(self, entity) -> list[str]:
        return ["nationalize"]

    def choose(self, entity, choice) -> None:
        """Nationalise the major (refused while that would strand the round)."""
        if self.strands_round(entity):
            raise GameError(f"{entity.name} operates now and another major still has to choose: nationalising "
                            "it would leave the round waiting for a company that no longer exists",
                            rule="nationalize-operator")
        self.game.trainless_major.remove(entity)
        self.game.nationalize(entity)

    def strands_round(self, entity) -> bool:
        """Is ``entity`` the operator whose turn it is while other trainless majors wait?
        The reference then keeps the removed company as the operator and can process no
        further action (quirk: nationalise-operator)."""
        round_ = self.round
        if not round_.is_operating() or not round_.entities:
            return False
        operator = round_.entities[round_.entity_index]
        return operator is entity and any(c is not entity for c in self.game.trainless_major)

    def legal_actions(self, entity):
        if entity not in self.game.trainless_major:
            return []
        out = [{"type": "pass"}]
        if not self.strands_round(entity):
            out.append({"type": "choose", "choice": "nationalize"})
        return out


class Track1867(TrackAndTokenStep):
    WITH_TOKEN = False

    def description(self):
        return "Lay Track"

    def buying_power(self, entity) -> int:
        return self.game.buying_power(entity, full=True)

    def is_upgrade(self, old_tile, new_tile) -> bool:
        return old_tile.color != "white"

    def pay(self, entity, cost):
        if cost > 0:
            if cost > entity.cash:
                take_loans_for(self.game, entity, cost)
            spend(entity, self.game.bank, cost)

    def check_lay(self, entity, hex_, old_tile, tile, rotation):
        hidden = self.game.hidden_company
        if self.game.loading or hidden is None or hidden.closed:
            return
        for ab in hidden.abilities:
            if ab.get("type") == "blocks_hexes" and hex_.id in ab.get("hexes", []):
                raise GameError(f"{hex_.id} is blocked until phase 3", rule="hex-blocked")

    def after_lay(self, entity, hex_, old_tile, tile):
        if tile.name == "639":
            self.game.place_639_token(tile)


class Token1867(TrackAndTokenStep):
    """One token per turn, its price times the distance to the nearest own token."""

    HANDLERS: ClassVar[dict] = {"place_token": "process_place_token", "pass": "process_pass"}

    def round_state(self):
        return {"tokened": False}

    def setup(self):
        self.round.tokened = False

    def description(self):
        return "Place a Token"

    def can_place_token(self, entity) -> bool:
        if entity is not self.current_entity() or self.round.tokened:
            return False
        toks = self.available_tokens(entity)
        if not toks or toks[0].price > entity.cash:
            return False
        return self.game.graph.can_token(entity)

    def actions(self, entity):
        if not entity.is_corporation:
            return []
        return ["place_token", "pass"] if self.can_place_token(entity) else []

    def token_price(self, entity, token, hex_) -> int:
        used = [t.city.hex for t in entity.tokens if t.used and t.city is not None]
        if not used:
            return token.price
        return token.price * min(h.distance(hex_) for h in used)

    def can_lay_tile(self, entity) -> bool:
        return False

    def prepare_token(self, entity, city, token, action: dict) -> None:
        """The token costs its price times the distance to the nearest own token."""
        price = self.token_price(entity, token, city.hex)
        if price > entity.cash:
            raise GameError(f"{entity.name} cannot afford a token for {price}", rule="insufficient-cash")
        token.price = price

    def legal_actions(self, entity):
        if "place_token" not in self.actions(entity):
            return []
        out = []
        toks = self.available_tokens(entity)
        for city in tokenable_cities(self.game, entity):
            if self.token_price(entity, toks[0], city.hex) <= entity.cash:
                out.append({"type": "place_token", "city": city.id, "slot": self.game.board.get_slot(city, entity)
                            or 0})
        return out + [{"type": "pass"}]


class Route1867(RunRoutes):
    pass


class Dividend1867(Dividend):
    KINDS = ("payout", "half", "withhold")

    def actions(self, entity):
        if not entity.is_corporation or entity.type == "minor":
            return []
        return super().actions(entity)

    def skip(self):
        entity = self.current_entity()
        if entity.type == "minor":
            self.do_dividend(entity, "payout" if self.total_revenue() > 0 else "withhold")
        else:
            self.do_dividend(entity, "withhold")

    def payout_amounts(self, entity, kind, revenue):
        if kind == "withhold":
            return revenue, 0
        if entity.type == "minor":
            return revenue // 2, revenue - revenue // 2
        if kind == "half":
            n = entity.total_shares
            withheld = (revenue // 2 // n) * n
            return withheld, revenue - withheld
        return 0, revenue

    def pay_shareholders(self, entity, amount):
        if entity.type == "minor":
            if amount > 0 and entity.owner is not None:
                spend(self.game.bank, entity.owner, amount)
            return
        super().pay_shareholders(entity, amount)

    def move_price(self, entity, revenue, kept, paid):
        if entity.share_price is None:
            return
        sm = self.game.stock_market
        if entity.type == "minor":
            if paid > 0:
                sm.move_right(entity)
            else:
                sm.move_left(entity)
            return
        if paid <= 0:
            sm.move_left(entity)
        elif paid >= entity.share_price.price:
            sm.move_right(entity)

    def legal_actions(self, entity):
        if "dividend" not in self.actions(entity):
            return []
        return [{"type": "dividend", "kind": k} for k in self.KINDS]
