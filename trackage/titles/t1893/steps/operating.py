"""t1893 steps: operating."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ....core.errors import GameError
from ....core.money import spend
from ....core.steps.operating import Dividend, RunRoutes
from ....core.steps.track import TrackAndTokenStep

if TYPE_CHECKING:
    pass


class Track1893(TrackAndTokenStep):
    """One yellow lay or one upgrade; the Rhine may not be crossed at L5/S6 in phase 2."""

    HANDLERS: ClassVar[dict] = {"lay_tile": "process_lay_tile", "pass": "process_pass"}
    WITH_TOKEN = False

    def description(self):
        return "Lay Track"

    def check_lay(self, entity, hex_, old_tile, tile, rotation) -> None:
        if hex_.id in self.game.tile_blocked:
            raise GameError(f"no tile may be placed in {hex_.id} before the first 3-train", rule="tile-blocked")
        # like every rotation rule, checked in play but not while replaying a log (as the reference)
        if not self.game.loading and self.game.rhine_blocks(hex_, tile):
            raise GameError(f"the Rhine cannot be crossed at {hex_.id} before the first 3-train",
                            rule="rhine-impassable")


class Token1893(TrackAndTokenStep):
    HANDLERS: ClassVar[dict] = {"place_token": "process_place_token", "pass": "process_pass"}

    def description(self):
        return "Place a Token"

    def setup(self):
        self.round.tokened = False

    def can_lay_tile(self, entity) -> bool:
        return False

    def prepare_token(self, entity, city, token, action: dict) -> None:
        """The token takes the city's next free slot; in play a client naming another slot is
        told so (the reference, and a log, ignore the slot)."""
        slot = action.get("slot")
        if slot is not None and not self.game.loading:
            expected = self.game.board.get_slot(city, entity) or 0
            if int(slot) != expected:
                raise GameError(f"a token in {city.id} takes slot {expected}, not {slot}", rule="wrong-slot")


class Route1893(RunRoutes):
    def actions(self, entity):
        if entity is not self.current_entity() or entity.is_company:
            return []
        if not self.game.route_trains(entity) or not self.game.can_run_route(entity):
            return []
        return ["run_routes"]


class Dividend1893(Dividend):
    """Minors pay half to their owner and keep half; market shares pay nobody."""

    def actions(self, entity):
        if entity.is_minor:
            return []
        return super().actions(entity)

    def skip(self):
        entity = self.current_entity()
        if entity.is_minor:
            if not self.round.routes:
                self.pass_()
                return
            self.do_dividend(entity, "payout" if self.total_revenue() > 0 else "withhold")
            return
        super().skip()

    def payout_amounts(self, entity, kind, revenue):
        if entity.is_minor:
            if kind == "withhold":
                return revenue, 0
            half = revenue // 2
            return half, (revenue - half if half > 0 else 0)
        return super().payout_amounts(entity, kind, revenue)

    def pay_shareholders(self, entity, amount):
        if entity.is_minor:
            spend(self.game.bank, entity.owner, amount)
            return
        super().pay_shareholders(entity, amount)

    def corporation_dividends(self, entity, per_share):
        return 0
