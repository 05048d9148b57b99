"""t1822 steps: token."""

from __future__ import annotations

from typing import ClassVar

from ....core.errors import GameError
from ....core.steps.ability import CompanyAbility
from ....core.steps.passing import Passing
from ....core.steps.track import TokenStep
from ....core.tokens import Token
from .. import destinations, layeffects
from .choose import CompanyChoices
from .housekeeping import _is_major


class SpecialToken(CompanyAbility):
    """P5 puts an exchange token into the English Channel (also right after its teleport lay)."""

    HANDLERS: ClassVar[dict] = {"place_token": "process_place_token"}
    ABILITY_ACTION = "place_token"

    def round_state(self):
        return {"teleported": None}

    def ability(self, company) -> bool:
        return company.sym == "P5" and company.owner.exchange_tokens > 0

    def usable_ability(self, entity):
        # (the listing asks every entity: only P5 has this ability, so the others are
        # answered before the round's current entity is looked up)
        return super().usable_ability(entity) if getattr(entity, "sym", None) == "P5" else None

    def actions(self, entity):
        if getattr(entity, "sym", None) != "P5":
            return []  # (asked of every entity at every step question: only P5 has the ability)
        if self.round.teleported is entity and self.usable_ability(entity):
            return ["place_token"]
        return super().actions(entity)

    def legal_actions(self, entity):
        if not self.actions(entity):
            return []
        board = self.game.board
        city = board.tile(self.game.board.hex_by_id("P43")).cities[0]
        if board.get_slot(city, entity.owner) is None or board.tokened_by(city, entity.owner):
            return []
        return [{"type": "place_token", "city": city.id, "slot": board.get_slot(city, entity.owner)}]

    def process_place_token(self, action, entity):
        game = self.game
        corp = entity.owner
        city = game.live_city(action.get("city"))
        if city is None or city.hex.id != "P43":
            raise GameError("P5 places its token in the English Channel", rule="bad-token")
        from ....core.tokens import Token

        board = game.board
        if board.tokened_by(city, corp) or board.get_slot(city, corp) is None:
            raise GameError(f"no room for {corp.name} in the English Channel", rule="city-full")
        tok = Token(corp, price=0)
        corp.tokens = (*corp.tokens, tok)
        board.place_city_token(city, corp, tok, free=True, check_tokenable=False)
        corp.exchange_tokens -= 1
        if game.secr_token_ability(corp):
            # SECR's own free Channel token ability is the one the reference finds and uses up
            game.secr_used_ability = True
        self.round.teleported = None
        entity.close()
        game.graph_changed()


class DestinationToken(Passing):
    HANDLERS: ClassVar[dict] = {"hex_token": "process_hex_token", "pass": "process_pass"}
    DESCRIPTION: ClassVar[str] = "Place the Destination Token"

    def token(self, entity):
        return next((t for t in entity.tokens if t.type == "destination" and not t.used), None)

    def actions(self, entity):
        if entity is not self.current_entity() or not _is_major(entity) or self.token(entity) is None:
            return []
        return ["hex_token", "pass"]

    def connected(self, entity) -> bool:
        return destinations.destination_connected(self.game, entity)

    def process_hex_token(self, action, entity):
        game = self.game
        tok = self.token(entity)
        if tok is None:
            raise GameError(f"{entity.name} has no destination token", rule="no-tokens")
        hex_ = game.board.hex_by_id(action.get("hex"))
        if hex_ is None or hex_.id != entity.destination:
            raise GameError(f"{entity.name}'s destination is {entity.destination}", rule="bad-destination")
        if not game.loading and action.get("token_type") != "destination":
            # the reference ignores the token type (a few old games name a normal token):
            # logs load as there, live play names the destination token (docs/quirks.md)
            raise GameError(f"{entity.name} places its destination token here, not a "
                            f"{action.get('token_type') or 'normal'} token", rule="wrong-token-type")
        if not game.loading and not self.connected(entity):
            raise GameError(f"{entity.name} is not connected to {hex_.id}", rule="not-connected")
        game.place_destination_token(entity, hex_, tok)
        layeffects.remove_extra_tokens(game, game.board.tile(hex_))
        self.pass_()

    def check_pass(self, entity) -> None:
        """A major connected to its destination must place the token (logs may pass)."""
        if not self.game.loading and self.connected(entity):
            raise GameError(f"{entity.name} must place its destination token", rule="must-place-destination")

    def legal_actions(self, entity):
        if not self.actions(entity):
            return []
        if self.connected(entity):
            return [{"type": "hex_token", "hex": entity.destination, "token_type": "destination"}]
        return [{"type": "pass"}]


class Token1822(CompanyChoices, TokenStep):
    HANDLERS: ClassVar[dict] = {**TokenStep.HANDLERS, "choose_ability": "process_choose_ability"}
    CHOICE_TIME = "token"

    def available_tokens(self, entity):
        return [t for t in entity.tokens if not t.used and t.type != "destination"]

    def chpr_lcdr(self, entity) -> bool:
        return entity.is_corporation and any(c.sym in ("P18", "P5") for c in entity.companies) \
            and entity.exchange_tokens > 0

    def can_place_token(self, entity) -> bool:
        """SECR's free Channel token and P5's token ability (as in the reference) keep the step open."""
        if entity is not self.current_entity() or self.round.tokened or not self.available_tokens(entity):
            return False
        if (entity.id == "SECR" and self.game.secr_token_ability(entity)) or any(
                c.sym == "P5" and not c.closed for c in entity.companies):
            return True
        return super().can_place_token(entity)

    def actions(self, entity):
        if entity.is_company:
            return ["choose_ability", "pass"] if self.ability_choices(entity) else []
        if entity is not self.current_entity():
            return []
        out = ["place_token"] if self.can_place_token(entity) else []
        if not out and self.chpr_lcdr(entity):
            out.append("choose_ability")
        if out:
            out.append("pass")
        return out

    def free_token(self, entity, city) -> bool:
        """SECR's token in the English Channel is free (once)."""
        return city.hex.id == "P43" and self.game.secr_token_ability(entity)

    def prepare_token(self, entity, city, token, action) -> Token:
        """A major has one token a city; SECR's free token uses its ability up."""
        if _is_major(entity) and self.game.board.tokened_by(city, entity):
            raise GameError(f"{entity.id} can't have 2 tokens in the same city", rule="token-same-city")
        if self.free_token(entity, city):
            self.game.secr_used_ability = True
        return token

    def token_connected(self, entity, city) -> bool:
        with self.game.graph_probe():
            return super().token_connected(entity, city)

    def check_token_room(self, entity, city, token, free) -> None:
        """London (M38) needs only a free slot (and the price); elsewhere, room for the token."""
        board = self.game.board
        if city.hex.id == "M38" and (board.get_slot(city, entity) is None or token.price > entity.cash):
            raise GameError(f"no free slot in {city.id}", rule="city-full")
        if city.hex.id != "M38" and not board.tokenable(city, entity, free=free, tokens=[token]):
            raise GameError(f"{entity.name} cannot place a token in {city.id}", rule="city-full")

    def legal_actions(self, entity):
        return self.ability_offers(entity) if entity.is_company else super().legal_actions(entity)
