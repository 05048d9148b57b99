"""t1822 steps: track."""

from __future__ import annotations

from typing import ClassVar

from ....core.steps.ability import CompanyAbility
from ....core.steps.passing import Passing
from ....core.steps.track import TrackAndTokenStep
from .. import layeffects, privatelays
from .choose import CompanyChoices


class Track1822(CompanyChoices, TrackAndTokenStep):
    HANDLERS: ClassVar[dict] = {"lay_tile": "process_lay_tile", "pass": "process_pass",
                                "choose_ability": "process_choose_ability"}
    CHOICE_TIME = "track"
    WITH_TOKEN = False
    PREPRINTED_YELLOW_IS_LAY = False

    def actions(self, entity):
        if entity.is_company:
            return ["choose_ability"] if self.ability_choices(entity) else []
        if entity is not self.current_entity() or not self.can_lay_tile(entity):
            return []
        return ["lay_tile", "pass"]

    def can_lay_tile(self, entity) -> bool:
        if getattr(entity, "id", None) == "14" and not entity.operated():
            return False
        if any((ab := privatelays.track_ability(self.game, c, "track")) and not ab.get("consume_tile_lay")
               for c in getattr(entity, "companies", [])):
            return True
        return super().can_lay_tile(entity)

    # the listing's checks read the tile's colour (check_lay_1822, the lay's price) and exits
    # (Board1822.lay_cost_preview's borders) only
    LISTING_CHECKS_SHAPE = True

    def check_lay(self, entity, hex_, old_tile, tile, rotation):
        self.game.check_lay_1822(entity, hex_, old_tile, tile)

    def listing_reads_exits(self, hex_) -> bool:
        # the exits only where the hex has borders (their crossing costs); elsewhere is_upgrade
        # reads the old tile, check_lay_1822 and the lay's price the colour, the lay cost the hex
        return bool(self.game.board.borders(hex_))

    def after_lay(self, entity, hex_, old_tile, tile):
        layeffects.after_lay(self.game, entity, hex_, old_tile, tile)

    def pay(self, entity, cost: int, why: str = "terrain"):
        super().pay(entity, self.game.tile_cost_with_discount(self.laying_hex, entity, cost), why)

    def process_lay_tile(self, action, entity):
        self.laying_hex = self.game.board.hex_by_id(action.get("hex"))  # for the hex's discounts in pay()
        super().process_lay_tile(action, entity)

    def legal_actions(self, entity):
        if entity.is_company:
            return self.ability_offers(entity)
        if not self.actions(entity):
            return []
        if self.tile_lay(entity) is None or getattr(entity, "tokens", None) is None:
            return [{"type": "pass"}]
        return super().legal_actions(entity)


class SpecialTrack(CompanyAbility, Passing):
    """Private companies' tile lays (P2, P8, P10, P11, P12, P21), used by the owning corporation.
    Blocks only while a company that must lay its tiles together is half-way."""

    HANDLERS: ClassVar[dict] = {"lay_tile": "process_lay_tile", "pass": "process_pass"}
    ABILITY_ACTION = "lay_tile"

    def setup(self):
        self.company = None

    def blocks(self) -> bool:
        return self.company is not None

    def current_entity(self):
        return self.company if self.company is not None else self.round.current_entity_of_round()

    DESCRIPTION: ClassVar[str] = "Lay Track (company)"

    def ability(self, company):
        return privatelays.track_ability(self.game, company, "special_track")

    def usable_ability(self, entity):
        # (the listing asks every entity: a company a player holds has no track ability to
        # use (track_ability), answered before the round's current entity is looked up)
        owner = getattr(entity, "owner", None) if entity.is_company else None
        return super().usable_ability(entity) if owner is not None and owner.is_corporation else None

    def actions(self, entity):
        if self.company is not None and entity is self.company:
            return ["lay_tile", "pass"]
        # (only a company has an ability to use: the others answered without the base's questions)
        return super().actions(entity) if entity.is_company else []

    def process_lay_tile(self, action, entity):
        privatelays.special_lay_tile(self.game, self, action, entity, self.ability_for(entity))

    def passing(self, entity) -> None:
        """A company half-way through its lays gives up the rest: it closes."""
        self.company = None
        entity.close()

    def legal_actions(self, entity):
        lays = privatelays.special_lay_options(self.game, entity, self.usable_ability(entity)) \
            if "lay_tile" in self.actions(entity) else []
        return lays + super().legal_actions(entity)
