"""t1893 steps: operating."""

from __future__ import annotations

from typing import ClassVar

from ....core.actions import asks
from ....core.errors import GameError
from ....core.steps.operating import DiscardTrain, Dividend, RunRoutes, over_phase_table_limit
from ....core.steps.track import TokenStep, TrackAndTokenStep
from ....core.tokens import Token
from .. import tilelays


class DiscardTrain1893(DiscardTrain):
    """The core's discard step; its "anyone over the limit?" reads the phase's limit table
    once (``Game1893.train_limit``: the limit by kind of holder) instead of asking the game
    per kind (asked at every step question of every action)."""

    def anyone_crowded(self) -> bool:
        game = self.game
        if type(game).train_limit is not type(game).TABLE_TRAIN_LIMIT or type(self).crowded is not DiscardTrain.crowded:
            return super().anyone_crowded()
        return over_phase_table_limit(game)

    def active(self) -> bool:
        """The core's (:meth:`anyone_crowded`' answer), with 1893's question asked in place
        where it is this class's own (asked at every step question of every action)."""
        game = self.game
        cls = type(self)
        if cls.anyone_crowded is not DiscardTrain1893.anyone_crowded or cls.crowded is not DiscardTrain.crowded \
                or type(game).train_limit is not type(game).TABLE_TRAIN_LIMIT:
            return self.anyone_crowded()
        return over_phase_table_limit(game)


class Track1893(TrackAndTokenStep):
    """One yellow lay or one upgrade; the Rhine may not be crossed at L5/S6 in phase 2."""

    HANDLERS: ClassVar[dict] = {"lay_tile": "process_lay_tile", "pass": "process_pass"}
    WITH_TOKEN = False
    # the listing's checks read the candidate's colour and exits only (the Rhine rule, the
    # border cost): the tile as seen off the map answers for it
    LISTING_CHECKS_SHAPE = True

    def legal_actions(self, entity):
        """The generic listing with the lays' checks worked out per hex where they read the hex
        alone (the same answers, in the same order): the candidates come with their hex, old
        tile and placement (:func:`tilelays.lay_candidates`); the lay's cost is the old tile's
        upgrade cost on a hex without costly borders; 1893's :meth:`check_lay` is asked only on
        a blocked hex or one at a closed Rhine passage (elsewhere it refuses nothing)."""
        acts = self.actions(entity)
        if "lay_tile" not in acts or not asks(self.game, "lay_tile"):
            return super().legal_actions(entity)
        game = self.game
        board = game.board
        lay = self.tile_lay(entity)
        assert lay is not None  # lay_tile is offered only while a lay is left
        power = self.buying_power(entity)
        reuse_barred = lay["cannot_reuse_same_hex"]
        out: list[dict] = []
        last = None
        for hex_, old, t, r, tile in tilelays.lay_candidates(game, entity):
            if hex_ is not last:
                last = hex_
                barred = reuse_barred and hex_ in self.round.laid_hexes
                checked = hex_.id in game.tile_blocked or bool(game.closed_rhine_edges(hex_))
                costly = any(getattr(b, "cost", None) for b in board.borders(hex_))
                base = None if costly else game.upgrade_cost(old, hex_, entity)
            if barred:
                continue
            up = self.is_upgrade(old, tile)
            if (up and not lay["upgrade"]) or (not up and not lay["lay"]):
                continue
            if checked:
                try:
                    self.check_lay(entity, hex_, old, tile, r)
                except GameError:
                    continue
            if not self.legal_lay_ok(entity, hex_, old, tile):
                continue
            extra = lay["cost"] if tile.color == "yellow" else lay["upgrade_cost"]
            cost = base if base is not None else board.lay_cost_preview(hex_, tile, entity)
            if cost + extra > power:
                continue
            out.append({"type": "lay_tile", "hex": hex_.id, "tile": t.id, "rotation": r})
        if "place_token" in acts and asks(game, "place_token"):
            out += [a for city in self.token_cities(entity) if (a := self.token_offer(entity, city)) is not None]
        if "pass" in acts:
            out.append({"type": "pass"})
        return out

    def check_lay(self, entity, hex_, old_tile, tile, rotation) -> None:
        if hex_.id in self.game.tile_blocked:
            raise GameError(f"no tile may be placed in {hex_.id} before the first 3-train", rule="tile-blocked")
        # like every rotation rule, checked in play but not while replaying a log (as the reference)
        if not self.game.loading and self.game.rhine_blocks(hex_, tile):
            raise GameError(f"the Rhine cannot be crossed at {hex_.id} before the first 3-train",
                            rule="rhine-impassable")


class Token1893(TokenStep):
    def prepare_token(self, entity, city, token, action: dict) -> Token:
        """The token takes the city's next free slot; in play a client naming another slot is
        told so (the reference, and a log, ignore the slot)."""
        slot = action.get("slot")
        expected = self.game.board.get_slot(city, entity) or 0
        if slot is not None and not self.game.loading and int(slot) != expected:
            raise GameError(f"a token in {city.id} takes slot {expected}, not {slot}", rule="wrong-slot")
        return token


class Route1893(RunRoutes):
    def runs(self, entity) -> bool:
        """Minors run too."""
        return not entity.is_company


class Dividend1893(Dividend):
    """Minors pay half to their owner and keep half; market shares pay nobody."""

    MINORS_PAY_HALF = True
    COMPANY_SHARES_PAY = False

    def decides(self, entity) -> bool:
        return not entity.is_minor and not entity.is_company

    def auto_kind(self, entity) -> str | None:
        if entity.is_minor and not self.round.routes:
            return None
        return "payout" if entity.is_minor and self.total_revenue() > 0 else "withhold"
