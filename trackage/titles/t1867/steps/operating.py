"""t1867 steps: operating."""

from __future__ import annotations

from typing import ClassVar

from ....core.errors import GameError
from ....core.steps.choose import ChooseMixin
from ....core.steps.operating import Dividend, HomeToken, RunRoutes
from ....core.steps.passing import Passing
from ....core.steps.track import TokenStep, TrackAndTokenStep
from ....core.tokens import Token
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

    def choice_label(self, entity, choice) -> str:
        return f"Nationalize {entity.name}"

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
        # an old record (quirk reset-trainless-major) cannot be named by an action
        if entity not in self.game.trainless_major or self.game.corporation_by_id(entity.id) is not entity:
            return []
        out = [{"type": "pass"}]
        if not self.strands_round(entity):
            out.append({"type": "choose", "choice": "nationalize"})
        return out


class Track1867(TrackAndTokenStep):
    WITH_TOKEN = False
    # the listing's checks (the colour rule, the blocked hexes, the border costs) read the
    # candidate's shape only: it is seen off the map, not placed on the hex
    LISTING_CHECKS_SHAPE = True
    PREPRINTED_YELLOW_IS_LAY = False

    def buying_power(self, entity) -> int:
        return self.game.buying_power(entity, full=True)

    def cover_shortfall(self, payer, cost) -> None:
        take_loans_for(self.game, payer, cost)

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


class Token1867(TokenStep):
    """One token per turn, its price times the distance to the nearest own token."""

    def can_place_token(self, entity) -> bool:
        toks = self.available_tokens(entity)
        return (not self.round.tokened and bool(toks) and toks[0].price <= entity.cash
                and self.game.graph.can_token(entity))

    def token_price(self, entity, token, hex_) -> int:
        used = [t.city.hex for t in entity.tokens if t.used and t.city is not None]
        if not used:
            return token.price
        return token.price * min(h.distance(hex_) for h in used)

    def prepare_token(self, entity, city, token, action: dict) -> Token:
        """The token costs its price times the distance to the nearest own token."""
        price = self.token_price(entity, token, city.hex)
        if price > entity.cash:
            raise GameError(f"{entity.name} cannot afford a token for {price}", rule="insufficient-cash")
        return self.game.board.set_token_price(token, price)

    def token_offer(self, entity, city):
        price = self.token_price(entity, self.available_tokens(entity)[0], city.hex)
        return super().token_offer(entity, city) if price <= entity.cash else None


class Route1867(RunRoutes):
    pass


class Dividend1867(Dividend):
    KINDS = ("payout", "half", "withhold")
    MINORS_PAY_HALF = True

    def decides(self, entity) -> bool:
        """Majors choose; a minor pays half to its owner."""
        return entity.is_corporation and entity.type != "minor"

    def auto_kind(self, entity) -> str:
        return "payout" if entity.type == "minor" and self.total_revenue() > 0 else "withhold"

    def price_moves(self, entity, paid: int) -> int:
        """A major's price moves right only for a dividend of at least its share price."""
        return 1 if entity.type == "minor" or paid >= entity.share_price.price else 0
