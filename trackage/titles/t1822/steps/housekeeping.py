"""t1822 steps: housekeeping."""

from __future__ import annotations

from typing import ClassVar

from ....core.errors import GameError
from ....core.money import pay
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

    def legal_actions(self, entity):
        p = self.pending()
        if not p or entity is not p["entity"]:
            return []
        board = self.game.board
        return [{"type": "place_token", "city": c.id, "slot": 0}
                for h in p["hexes"] for c in board.tile(h).cities if not board.tokened_by(c, entity)]

    def process_place_token(self, action, entity):
        p = self.pending()
        city = self.game.live_city(action.get("city"))
        if city is None or city.hex not in p["hexes"]:
            raise GameError(f"cannot place the token in {action.get('city')!r}", rule="bad-home-token")
        board = self.game.board
        if board.tokened_by(city, entity):
            raise GameError(f"{entity.name} can't have 2 tokens in the same city", rule="token-same-city")
        token = p["token"]
        price = token.price
        if getattr(self.game, "m14_token_ability", None) is entity:
            # the acquired minor 14's London token costs 20 when London is in reach
            self.game.m14_token_ability = None
            if city.hex in self.game.graph.reachable_hexes(entity):
                price = self.game.M14_TOKEN_PRICE
        if price > entity.cash:
            raise GameError(f"{entity.name} cannot pay {price} for the token", rule="insufficient-cash")
        if entity.id == "14":
            board.set_tokens(city, board.tokens(city) + (None,))
        if board.get_slot(city, entity) is None:
            board.set_tokens(city, board.tokens(city) + (None,))
        board.place_city_token(city, entity, token, free=True, check_tokenable=False)
        if price > 0:
            pay(self.game, entity, self.game.bank, price, "token")
        self.round.pending_tokens.pop(0)
        if city.hex.id == "M38":
            path = next((pp for pp in board.tile(city.hex).paths if pp.city is city and pp.edges), None)
            if path is not None:
                self.game.minor_14_city_exit = path.edges[0].num
            if entity.id == "14" and self.game.minor_14_city_exit is not None:
                nb = board.neighbors(city.hex).get(self.game.minor_14_city_exit)
                if nb is not None:
                    self.game.m14_rights_hex = nb.id
        self.game.graph_changed()


class FirstTurnHousekeeping(BuyTrain):
    """A minor's first turn: it may buy the next L train."""

    def description(self):
        return "Buy an L train"

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

    def description(self):
        return "Acquire private companies"

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
