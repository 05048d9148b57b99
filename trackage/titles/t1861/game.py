"""1861: The Railways of the Russian Empire. The 1867 rules on another map, plus the
national railway (RSR), which operates from phase 4 to 7, run by the priority-deal player."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from ...core.board import unused_tokens_by_type
from ...core.entities import hand_over_companies
from ...core.money import pay
from ..t1867.game import DiscardTrain1867, Game1867, OperatingRound1867
from ..t1867.steps import LoanOperations, MajorTrainless, RedeemShares, Route1867

NATIONAL_START_PHASE = 4
NATIONAL_END_PHASE = 8


class OperatingRound1861(OperatingRound1867):
    def skip_entity(self, entity) -> bool:
        if entity.type != "national":  # (an operator: its ``type`` slot always set)
            return OperatingRound1867.skip_entity(self, entity)
        num = int(self.game.phase.name)
        return num < NATIONAL_START_PHASE or num >= NATIONAL_END_PHASE


class Game1861(Game1867):
    CURRENCY = "%s₽"
    TITLE = "1861"
    PLAYER_RANGE = (2, 6)
    OPTIONAL_RULES: ClassVar[dict] = {"column_market": None}
    DATA_DIR = Path(__file__).parent / "data"
    GRID_DEFAULT = True
    GREEN_CORPORATIONS = ("MB", "Y", "V", "TR", "SV", "E")
    BONUS_CAPITALS = ("H8",)
    BONUS_REVENUE = "Q3"
    EXPORT_TRAINS = False
    NUM_LOANS = 172
    NATIONAL_MAX_LOANS = 100
    NATIONALIZATION_LOAN_STEPS = 1

    def add_neutral_tokens(self):
        self.green_tokens = []

    def home_token_locations(self, corp) -> list:
        board = self.board
        mine = unused_tokens_by_type(corp)  # (what each city's question would find: nothing moves)
        # (a hex without cities never: tested here, without the call, for most of the board)
        return [h for h, tile in board.tiles() if tile.cities and self._home_city_free(board, corp, tile.cities, mine)
                and not self._hex_connected(h)]

    def _home_city_free(self, board, corp, cities, tokens=None) -> bool:
        """An empty city ``corp`` may token on the hex (every kind of company); ``tokens`` as
        in 1867's. The cheap test first: the board's question changes nothing (but its
        refusal's reason)."""
        return any(not any(t is not None for t in board.tokens(c))
                   and board.tokenable(c, corp, free=True, tokens=tokens) for c in cities)

    def has_home_token_location(self, corp) -> bool:
        """Whether :meth:`home_token_locations` names any hex: the first found answers."""
        board = self.board
        return any(tile.cities and self._home_city_free(board, corp, tile.cities) and not self._hex_connected(h)
                   for h, tile in board.tiles())

    def place_rsr_home_token(self):
        board = self.board
        tile = board.tile(self.board.hex_by_id("E1"))
        if tile.hex.id not in self.national_reservations:
            return
        if any(board.tokened_by(c, self.national) for c in tile.cities):
            return
        new_token = next((t for t in self.national.tokens if not t.used), None)
        if new_token is None:
            return
        self.national_reservations.remove(tile.hex.id)
        board.place_city_token(tile.cities[-1], self.national, new_token, check_tokenable=False)
        self.graph_changed()

    def start_operating_hook(self, round_, entity):
        if entity is self.national:
            self.place_rsr_home_token()
        super().start_operating_hook(round_, entity)

    def nationalization_transfer_assets(self, corp):
        hand_over_companies(corp, self.national)
        for t in corp.trains:
            t.owner = self.national
        self.national.trains = (*self.national.trains, *corp.trains)
        corp.trains = ()
        if corp.cash > 0:
            pay(self, corp, self.national, corp.cash, "closure")

    def operating_order(self):
        return super().operating_order() + [self.national]

    def stock_round(self):
        from ..t1867.game import StockRound1867
        from ..t1867.steps import HomeToken1867
        from .steps import BuySellParShares1861

        return StockRound1867(self, [MajorTrainless, DiscardTrain1867, HomeToken1867, BuySellParShares1861])

    def operating_round(self, round_num):
        from .steps import BuyCompany1861, BuyCompanyPreloan1861, BuyTrain1861, Dividend1861, Token1861, Track1861

        self.national.owner = self.players[0]
        self.calculate_interest()
        return OperatingRound1861(self, [MajorTrainless, BuyCompany1861, RedeemShares, Track1861, Token1861,
                                         Route1867, Dividend1861, (BuyCompanyPreloan1861, {"blocks": True}),
                                         LoanOperations, DiscardTrain1867, BuyTrain1861,
                                         (BuyCompany1861, {"blocks": True})], round_num=round_num)

    def game_end_set_final_turn(self, reason, timing):
        if timing != "one_more_full_or_set":
            return
        if self.round.round_num != 1:
            return super().game_end_set_final_turn(reason, timing)
        self.operating_rounds_in_set = self.final_operating_rounds = 3
        self.final_turn = self.turn
