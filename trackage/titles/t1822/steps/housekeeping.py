"""t1822 steps: housekeeping."""

from __future__ import annotations

from typing import ClassVar

from ....core.errors import GameError
from ....core.round import Step
from ....core.steps.buy_train import BuyTrain, Purchase
from ....core.steps.operating import HomeToken
from ....core.steps.stock import transfer_company


def _is_major(e) -> bool:
    return e.is_corporation and e.type == "major"


def _is_minor(e) -> bool:
    return e.is_corporation and e.type == "minor"


class PendingToken(HomeToken):
    """Home tokens that need a choice of city (minor 14 in London; acquired 14's token)."""

    HOME_ROOM_RULE = "token-same-city"

    def home_room(self, entity, city, token) -> bool:
        return not self.game.board.tokened_by(city, entity)

    def home_price(self, entity, city, token) -> int:
        """The acquired minor 14's London token costs 20 when London is in reach."""
        game = self.game
        if game.m14_token_ability is entity and city.hex in game.graph.reachable_hexes(entity):
            return int(game.M14_TOKEN_PRICE)
        return int(token.price)

    def make_home_room(self, entity, city) -> None:
        """Minor 14 (and a company without a free slot) gets an extra slot."""
        board = self.game.board
        if entity.id == "14":
            board.set_tokens(city, board.tokens(city) + (None,))
        if board.get_slot(city, entity) is None:
            board.set_tokens(city, board.tokens(city) + (None,))

    def after_home_token(self, entity, city) -> None:
        """London's exit taken by the token (and minor 14's track rights) are noted."""
        game, board = self.game, self.game.board
        if game.m14_token_ability is entity:
            game.m14_token_ability = None
        if city.hex.id == "M38":
            path = next((pp for pp in board.tile(city.hex).paths if pp.city is city and pp.edges), None)
            if path is not None:
                game.minor_14_city_exit = path.edges[0].num
            if entity.id == "14" and game.minor_14_city_exit is not None:
                nb = board.neighbors(city.hex).get(game.minor_14_city_exit)
                if nb is not None:
                    game.m14_rights_hex = nb.id

    def legal_actions(self, entity):
        with self.game.graph_probe():
            return super().legal_actions(entity)


class FirstTurnHousekeeping(BuyTrain):
    """A minor's first turn: it may buy the next L train."""

    DESCRIPTION: ClassVar[str] = "Buy an L train"

    def actions(self, entity):
        game = self.game
        if entity is not self.current_entity() or not _is_minor(entity) or entity.operated():
            return []
        up = game.depot.upcoming
        if not up or up[0].name != "L":
            return []
        # the reference's generic test: room for any train (extra trains count here) and cash for
        # the cheapest train available, another company's at 1 included
        lo = game.depot.min_price(entity)
        if not self.room(entity) or lo is None or entity.cash < lo:
            return []
        return ["buy_train", "pass"]

    def purchased_train(self, action: dict, entity):
        """Whatever the action names: the next train (an L)."""
        return self.game.depot.upcoming[0]

    def after_buy_train(self, entity, purchase: Purchase) -> None:
        """One train only: the step ends."""
        self.pass_()

    def legal_actions(self, entity):
        if not self.actions(entity):
            return []
        t = self.game.depot.upcoming[0]
        buy = [{"type": "buy_train", "train": t.id, "price": t.price, "variant": "L"}] if entity.cash >= t.price else []
        return buy + [{"type": "pass"}]


class AcquireCompany(Step):
    HANDLERS: ClassVar[dict] = {"acquire_company": "process_acquire_company", "pass": "process_pass"}

    def round_state(self):
        return {"acquired_companies": []}

    DESCRIPTION: ClassVar[str] = "Acquire private companies"

    def actions(self, entity):
        if entity is not self.current_entity():
            return []
        return ["acquire_company", "pass"] if self.game.purchasable_companies(entity) else []

    def process_acquire_company(self, action, entity):
        company = self.game.index.company(action.get("company"))
        if company is None or company not in self.game.purchasable_companies(entity):
            raise GameError(f"{entity.name} cannot acquire {action.get('company')!r} now", rule="cannot-acquire")
        transfer_company(self.game, company, entity, 0)
        self.round.acquired_companies.append(company)
        self.game.company_bought(company, entity)
        if not self.game.purchasable_companies(entity):
            self.pass_()

    def legal_actions(self, entity):
        if not self.actions(entity):
            return []
        return [{"type": "acquire_company", "company": c.sym} for c in self.game.purchasable_companies(entity)] + \
            [{"type": "pass"}]
