"""t1822 steps: acquisition."""

from __future__ import annotations

from typing import ClassVar

from ....core.errors import GameError
from ....core.round import Step
from ....core.steps.choose import ChooseMixin
from .. import acquisitions
from .housekeeping import _is_major


class MinorAcquisition(ChooseMixin, Step):
    HANDLERS: ClassVar[dict] = {"merge": "process_merge", "choose": "process_choose", "pass": "process_pass"}
    PAY: ClassVar[dict] = {"money": 0, "one_share": 1, "two_shares": 2}

    def setup(self):
        self.state = "select"
        self.minor = None

    DESCRIPTION: ClassVar[str] = "Acquire a minor"
    #: the choices in words: how to pay for the minor, then what becomes of its token
    CHOICE_WORDS: ClassVar[dict] = {"money": "Pay in cash", "one_share": "Pay with one share",
                                    "two_shares": "Pay with two shares", "replace": "Replace its token",
                                    "exchange": "Exchange its token", "remove": "Remove its token"}

    def choice_question(self, entity) -> str:
        return f"Acquire {self.minor.name} ({self.minor.id})" if self.minor is not None else ""

    def choice_label(self, entity, choice) -> str:
        return self.CHOICE_WORDS.get(choice) or super().choice_label(entity, choice)

    def action_label(self, entity, action):
        if action.get("type") == "merge":
            minor = self.game.corporation_by_id(action.get("corporation"))
            return f"Acquire {minor.name} ({minor.id})" if minor is not None else None
        return super().action_label(entity, action)

    def actions(self, entity):
        if entity is not self.current_entity():
            return []
        if self.state in ("pay", "token"):
            return ["choose"]
        return ["merge", "pass"] if self.can_acquire(entity) else []

    def can_acquire(self, entity) -> bool:
        return _is_major(entity) and len(entity.operating_history) > 1 and bool(self.candidates(entity))

    def candidates(self, entity):
        game = self.game
        out = [m for m in game.corporations if m.type == "minor" and m.floated() and len(m.operating_history) > 1
               and self.pay_choices(entity, m)]
        if "can_acquire_minor_bidbox" in game.phase.status:
            for c in game.bidbox_minors():
                m = game.find_corporation(c)
                if m is not None and self.pay_choices(entity, m):
                    out.append(m)
        return out

    def bank_minor(self, minor) -> bool:
        return minor.owner is None or minor.owner is self.game.bank

    def pay_choices(self, entity, minor) -> list:
        game = self.game
        if self.bank_minor(minor):
            return ["money"] if entity.cash >= game.MINOR_BIDBOX_PRICE else []
        out = []
        value = minor.share_price.price * 2
        if entity.cash >= value and self._payable(entity, minor, 0):
            out.append("money")
        n = entity.num_ipo_shares()
        if n > 0 and self._payable(entity, minor, 1):
            out.append("one_share")
        room = not (entity.share_price is None or entity.share_price.counts_for_limit()) \
            or game.num_certs(minor.owner) < game.cert_limit()
        if n > 1 and room and self._payable(entity, minor, 2):
            out.append("two_shares")
        return out

    def _payable(self, entity, minor, n) -> bool:
        if n == 0:
            return True
        diff = minor.share_price.price * 2 - entity.share_price.price * n
        if diff < 0:
            return -diff <= minor.owner.cash
        return diff == 0 or diff <= entity.cash

    def token_choices(self, entity) -> list:
        if entity.exchange_tokens <= 0:
            return ["remove"]
        if self.minor is not None and self.bank_minor(self.minor) and self.minor.id == "14" \
                and not self.can_pay_london_token(entity):
            return ["exchange"]
        return ["replace", "exchange"]

    def can_pay_london_token(self, entity) -> bool:
        """Minor 14's replacement token costs 20 when London is in reach; the reference takes the
        choice but then cannot place the token if the company cannot pay (a dead end): refused."""
        game = self.game
        with game.graph_probe():
            reachable = game.board.hex_by_id("M38") in game.graph.reachable_hexes(entity)
        return not reachable or entity.cash - game.MINOR_BIDBOX_PRICE >= game.M14_TOKEN_PRICE

    def connected(self, entity, minor) -> bool:
        game = self.game
        nodes = game.graph.connected_nodes(entity)
        if self.bank_minor(minor) and minor.id == "14":
            return any(c in nodes for c in game.board.tile(game.board.hex_by_id("M38")).cities)
        if self.bank_minor(minor):
            city = next((c for c in game.board.tile(game.board.hex_by_id(minor.coordinates)).cities
                         if game.board.reserved_by(c, minor)), None)
        else:
            city = minor.tokens[0].city
        return city is not None and city in nodes

    def probe_connected(self, entity, minor) -> bool:
        with self.game.graph_probe():
            return self.connected(entity, minor)

    def process_merge(self, action, entity):
        minor = self.game.corporation_by_id(action.get("corporation"))
        if self.state != "select" or minor is None or minor not in self.candidates(entity):
            raise GameError(f"{entity.name} cannot acquire {action.get('corporation')!r}", rule="cannot-acquire")
        if not self.game.loading and not self.probe_connected(entity, minor):
            raise GameError(f"Can't acquire minor {minor.id} because it is not connected to {entity.id}",
                            rule="not-connected")
        self.minor = minor
        self.state = "pay"

    def choices(self, entity) -> list:
        """How to pay for the minor, then what becomes of its token."""
        return self.pay_choices(entity, self.minor) if self.state == "pay" else self.token_choices(entity)

    def choose(self, entity, choice) -> None:
        if self.state == "pay":
            self.shares = self.PAY[choice]
            self.state = "token"
            return
        if self.bank_minor(self.minor):
            acquisitions.acquire_bank_minor(self.game, entity, self.minor, choice, self.round)
        else:
            acquisitions.acquire_player_minor(self.game, entity, self.minor, self.shares, choice)
        self.state = "select"
        self.minor = None
        self.pass_()

    def legal_actions(self, entity):
        if "merge" not in self.actions(entity):
            return super().legal_actions(entity)
        return [{"type": "merge", "corporation": m.id} for m in self.candidates(entity)
                if self.connected(entity, m)] + [{"type": "pass"}]
