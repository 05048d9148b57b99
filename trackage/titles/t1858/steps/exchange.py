"""t1858 steps: exchange."""

from __future__ import annotations

from typing import ClassVar

from ....core.entities import ShareBundle
from ....core.errors import GameError
from ....core.round import Step
from ....core.shares import action_bundle
from ....core.steps.choose import ChooseMixin
from .. import gauges, privates
from .stock import StockRound1858Step


class Exchange1858(Step):
    """A player's private railway (company or minor) exchanged for a share: the 40%
    certificate starts the company, a treasury share of a running company needs approval
    unless the same player is its president."""

    HANDLERS: ClassVar[dict] = {"buy_shares": "process_buy_shares"}
    BLOCKS = False

    def actions(self, entity):
        return ["buy_shares"] if entity.is_company or entity.is_minor else []

    def active(self):
        return True

    def process_buy_shares(self, action, entity):
        game = self.game
        bundle = action_bundle(game, action, priced=False)
        corp, player = bundle.corporation, entity.owner
        if player is None or not player.is_player or player is not self.round.current_entity_of_round():
            raise GameError(f"{game.index.name(entity)} is not owned by the player in turn", rule="out-of-turn")
        if not corp.floated() and not bundle.shares[0].president:
            raise GameError("cannot exchange a private railway for a single share of an unstarted company",
                            rule="bad-exchange")
        if bundle.percent == 40 and bundle.shares[0].president:
            if entity.is_minor or not game.company_starts_public(entity):
                raise GameError(f"{entity.name} cannot start a public company", rule="bad-exchange")
            if game.turn == 1 or corp.ipoed:
                raise GameError(f"{corp.name} cannot be started now", rule="cannot-par")
            sp = game.par_price(entity)
            if sp.price > player.cash:
                raise GameError(f"{player.name} cannot pay {sp.price}", rule="insufficient-cash")
            privates.acquire_private(game, corp, entity)
            game.stock_market.set_par(corp, sp)
            self.round.players_bought.setdefault(player, {})
            game.exchange_buy(player, bundle, sp.price)
            game.maybe_place_home_token(corp)
            self.round.current_actions.append({"type": "buy_shares", "_corp": corp})
            self.round.last_to_act = player
        else:
            if entity.is_company:
                # 18xx.games offers this exchange through the private's minor only
                if not game.loading:
                    raise GameError(f"{entity.name} exchanges for a share through its minor", rule="bad-exchange")
                entity = game.private_minor(entity)
            if bundle.owner is not corp:
                raise GameError("exchanges are for treasury shares", rule="bad-exchange")
            if corp.owner is player:
                privates.exchange_for_share(game, self.round, bundle, corp, entity, player, True)
                self.round.current_actions.append({"type": "exchange", "_corp": corp})
            else:
                # the reference checks the connection only on approval (an unconnected
                # request could only be denied); here it is refused at once
                if not game.loading and not gauges.corporation_private_connected(game, corp, entity):
                    raise GameError(f"{entity.name} is not connected to {corp.name}", rule="not-connected")
                self.round.pending_approval = corp
                self.round.approval_minor = entity

    def acting_entities(self) -> list:
        player = self.round.current_entity_of_round()
        if player is None or not player.is_player:
            return []
        return list(player.companies) + [m for m in self.game.minors if m.owner is player and not m.closed]

    def legal_actions(self, entity):
        game = self.game
        player = entity.owner
        if player is None or not player.is_player or player is not self.round.current_entity_of_round():
            return []
        # (what follows lists nothing for an entity that could offer no exchange: asked first)
        if entity.is_company:
            if not (game.company_starts_public(entity) and game.turn > 1):
                return []
        elif not (entity.is_minor and not entity.closed and game.minor_exchanges_share(entity)):
            return []
        sr = next((s for s in self.round.steps if isinstance(s, StockRound1858Step)), None)
        if sr is None or sr.bought() or sr.auction or self.round.pending_tokens or self.round.pending_approval:
            return []
        out = []
        if entity.is_company and game.company_starts_public(entity) and game.turn > 1 and \
                game.par_price(entity).price <= player.cash and privates.company_reservation_available(game, entity):
            out = [{"type": "buy_shares", "shares": [c.shares[0].id], "percent": 40}
                   for c in game.corporations if not c.ipoed and not c.closed]
        if entity.is_minor and not entity.closed and game.minor_exchanges_share(entity):
            out += [{"type": "buy_shares", "shares": [own[0].id], "percent": own[0].percent} for c in game.corporations
                    if c.floated() and (own := [s for s in c.shares_of(c) if not s.president])
                    and gauges.corporation_private_connected(game, c, entity)]
        return out


class ExchangeApproval1858(ChooseMixin, Step):
    """The president of a company approves or denies a request to exchange a private
    railway for one of its treasury shares."""

    HANDLERS: ClassVar[dict] = {"choose": "process_choose"}

    def round_state(self):
        return {"pending_approval": None, "approval_minor": None, "approvals": {}}

    def active(self):
        return self.round.pending_approval is not None

    def current_entity(self):
        return self.round.pending_approval

    def active_entities(self):
        corp = self.round.pending_approval
        return [] if corp is None else [corp] if self.game.private_closure_round == "in_progress" else [corp.owner]

    def actions(self, entity):
        return ["choose"] if entity is self.round.pending_approval else []

    def choices(self, entity) -> tuple[str, ...]:
        return ("approve", "deny")

    def choice_label(self, entity, choice) -> str:
        minor = self.round.approval_minor
        return f"{str(choice).capitalize()} {minor.name if minor else 'the'} exchange for a treasury share"

    def choose(self, entity, choice) -> None:
        """Approved, the private is exchanged for a treasury share; denied in the private
        closure round, the company is not asked again."""
        game = self.game
        corp, minor = self.round.pending_approval, self.round.approval_minor
        in_pcr = game.private_closure_round == "in_progress"
        if choice == "approve":
            share = corp.shares_of(corp)[0]
            privates.exchange_for_share(game, self.round, ShareBundle([share], corporation=corp), corp, minor,
                                        minor.owner, True)
            if in_pcr:
                privates.close_private(game, minor)
            else:
                self.round.current_actions.append({"type": "exchange", "_corp": corp})
        elif in_pcr:
            self.round.approvals[corp] = "denied"
        self.round.pending_approval = None
