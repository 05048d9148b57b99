"""The 1867 merger round: converting a minor into a major, merging connected minors into
a major, the share purchases that follow, and token reduction."""

from __future__ import annotations

import functools
from collections import Counter
from typing import ClassVar

from ...core import programs
from ...core.entities import Corporation, ShareBundle, certificate_price
from ...core.errors import GameError
from ...core.game import Game
from ...core.round import Step, starting_at
from ...core.shares import action_bundle
from ...core.steps import merger
from ...core.steps.merger import MergerMixin, connected_corporations, placed_hexes

LIMIT_OWNED_BY_ONE_ENTITY = 6
LIMIT_MERGE = 10


def _treasury(corp) -> list:
    return corp.shares_of(corp)


class Merge(MergerMixin, Step):
    HANDLERS: ClassVar[dict] = {"merge": "process_merge", "convert": "process_convert", "pass": "process_pass"}

    def __init__(self, game, round_, **opts):
        super().__init__(game, round_, **opts)
        self.converting = None
        self.merge_major = False
        self.merging: list | None = None  # the corporations of the merge under way

    def round_state(self):
        return {"converted": None, "merge_type": None, "converts": [], "share_dealing_players": [],
                "share_dealing_multiple": []}

    DESCRIPTION: ClassVar[str] = "Convert or Merge Minor Corporation"

    def actions(self, entity):
        if not entity.is_corporation or entity is not self.current_entity() or self.round.converted is not None:
            return []
        if self.converting is not None or self.merge_major:
            return ["merge"]
        out = ["merge"]
        if self.merging is None and self.can_convert(entity):
            out.append("convert")
        out.append("pass")
        return out

    def auto_actions(self, entity):
        """The site's: a minor that can neither convert nor merge passes; otherwise its owner's
        programmed merger pass answers (for the minor to act, not while a major is chosen; it
        stops when a conversion was made this round and it asks so)."""
        if not self.actions(entity):
            return []
        choosing = self.converting is not None or self.merge_major
        if not choosing and self.merging is None and not self.can_convert(entity) \
                and not self.mergeable_candidates(entity):
            return [programs.auto(entity, "pass", self.game.programs.get("created_at"))]
        return programs.merger_auto_actions(self, entity, None if choosing else self.current_entity(),
                                            bool(self.round.converts))

    def can_convert(self, entity) -> bool:
        return entity.type == "minor" and entity.share_price is not None and "convert_range" in entity.share_price.types

    # ------------------------------------------------------------ candidates
    def mergeable_candidates(self, corp) -> list:
        return self.candidates_of(self.merging if self.merging is not None else [corp])

    def candidates_of(self, mergeable: list, neighbours=None) -> list:
        """Minors that may join a merge of ``mergeable``: connected by track, at most ten
        companies, at most six of one owner."""
        if len(mergeable) >= LIMIT_MERGE:
            return []
        counts = Counter(id(c.owner) for c in mergeable)
        near = neighbours or functools.partial(connected_corporations, self.game)
        available = dict.fromkeys(oc for c in mergeable for oc in near(c) if oc not in mergeable)
        return [c for c in available if getattr(c, "type", None) == "minor" and not c.closed
                and counts[id(c.owner)] < LIMIT_OWNED_BY_ONE_ENTITY]

    def mergeable(self, corp) -> list:
        return self.majors() if self.converting is not None or self.merge_major else self.mergeable_candidates(corp)

    def merged_par(self, merging):
        prices = [c.share_price.price for c in merging]
        return self.new_par(min(200, max(100, max(prices) + min(prices))))

    def viable(self, merging) -> bool:
        """Will the major these minors form have a president? An owner of two of them gets
        the president's certificate at once; otherwise an owner must be able to buy a second
        10% share afterwards (its price in cash, room under the certificate limit once the
        minor's certificate became a 10% share), or the reference calls the merge failed and
        stops until it is undone."""
        owners, game = [c.owner for c in merging], self.game
        if any(owners.count(p) >= 2 for p in owners):
            return True
        par = self.merged_par(merging).price
        for minor in merging:
            p = minor.owner
            certs = game.num_certs(p) - sum(1 for s in p.shares_of(minor) if s.counts_for_limit) + 1
            if p.cash >= par and certs < game.cert_limit(p):
                return True
        return False

    def reachable_viable(self, merging) -> bool:
        """Can this merge still end with a president, adding more connected minors if needed?"""
        neighbours = functools.cache(functools.partial(connected_corporations, self.game))
        seen = set()

        def search(group) -> bool:
            key = frozenset(id(c) for c in group)
            if key in seen:
                return False
            seen.add(key)
            if self.viable(group):
                return True
            return any(search(group + [c]) for c in self.candidates_of(group, neighbours))

        return search(list(merging))

    def new_par(self, price_limit):
        return next(sp for sp in self.game.share_prices_with_types(("par", "par_2")) if sp.price <= price_limit)

    # ------------------------------------------------------------ processing
    def majors(self) -> list:
        """The majors not yet started, for a conversion or a merge to form."""
        return [c for c in self.game.corporations if c.type == "major" and not c.floated() and not c.ipoed]

    def process_convert(self, action, entity):
        if self.merging is not None or not self.can_convert(entity):
            raise GameError(f"{entity.name} cannot convert", rule="cannot-convert")
        if not self.game.loading and not self.majors():
            raise GameError("no major corporation is available", rule="no-major-available")
        self.converting = entity

    def process_pass(self, action, entity):
        if self.merging is not None:
            if not self.game.loading and not self.viable(self.merging):
                raise GameError("no player could become president of this merge; add more minors",
                                rule="illegal-merge")
            self.merge_major = True
        else:
            self.pass_()

    def partner_refusal(self, entity, other) -> GameError | None:
        """Why ``entity``'s merge may not take in ``other`` now (None when it may)."""
        if other not in self.mergeable_candidates(entity):
            return GameError(f"{entity.name} cannot merge with {other.name}", rule="illegal-merge")
        if not self.majors():
            return GameError("no major corporation is available", rule="no-major-available")
        if not self.reachable_viable((self.merging or [entity]) + [other]):
            return GameError("this merge could not end with a president", rule="illegal-merge")
        return None

    def process_merge(self, action, entity):
        if self.converting is not None:
            return self.finish_convert(action, entity)
        if self.merge_major:
            return self.finish_merge_to_major(action, entity)
        other = self.game.corporation_by_id(action.get("corporation"))
        if other is None:
            raise GameError(f"unknown corporation {action.get('corporation')!r}", rule="unknown-entity")
        if not self.game.loading and (refusal := self.partner_refusal(entity, other)) is not None:
            raise refusal
        self.merging = (self.merging or [entity]) + [other]
        if not self.mergeable_candidates(entity):
            self.merge_major = True

    def target_from(self, action, corp):
        target = self.game.corporation_by_id(action.get("corporation"))
        if target is None or target not in self.mergeable(corp):
            raise GameError(f"choose a major corporation to merge {corp.name} into", rule="illegal-merge")
        return target

    def deal_shares(self, target, kind: str, players: list, multiple: list) -> None:
        """The major formed by a ``kind`` ("convert" or "merge") offers its shares to ``players``."""
        self.round.converted = target
        self.round.converts.append(target)
        self.round.merge_type = kind
        self.round.share_dealing_players = players
        self.round.share_dealing_multiple = multiple
        self.game.graph_changed()

    def finish_convert(self, action, corp):
        game, target, owner = self.game, self.target_from(action, corp), corp.owner
        game.stock_market.set_par(target, self.new_par(corp.share_price.price))
        self.converting = None
        game.share_market.buy_shares(owner, ShareBundle([_treasury(target)[0]], corporation=target), exchange=True)
        self.take_over(corp, target)
        self.round.entities[self.round.entity_index] = target
        self.deal_shares(target, "convert", starting_at(game.players, target.owner), [owner])

    def finish_merge_to_major(self, action, corp):
        game = self.game
        target = self.target_from(action, corp)
        assert self.merging is not None  # only called while a merge is under way
        merging = sorted(self.merging, key=game.stock_market.operating_key)
        par = self.merged_par(merging)
        owners = [c.owner for c in merging]
        players = starting_at([p for p in game.players if p in owners], owners[0])
        if not any(p.cash >= par.price or owners.count(p) >= 2 for p in players):
            raise GameError("merge impossible, no player can become president", rule="illegal-merge")
        game.stock_market.set_par(target, par)
        self.round.entities[self.round.entity_index] = target
        self.merge_major = False
        target.ipoed = True
        for minor in merging:
            self.receive_share(minor.owner, target)
            if minor in self.round.entities:
                self.round.entities.remove(minor)
        if self.absorb(target, merging):
            self.round.corporations_removing_tokens = [target] + self.merging
        else:
            game.fix_token_count(target)
        if self.round.entities:
            self.round.goto_entity(target)
        self.merging = None
        self.deal_shares(target, "merge", list(players), list(players))

    def legal_actions(self, entity):
        acts, choosing = self.actions(entity), self.converting is None and not self.merge_major
        out = [{"type": "merge", "corporation": c.id} for c in (self.mergeable(entity) if "merge" in acts else [])
               if not choosing or self.partner_refusal(entity, c) is None]
        if "convert" in acts and self.majors():
            out.append({"type": "convert"})
        if "pass" in acts and (self.merging is None or self.viable(self.merging)):
            out.append({"type": "pass"})
        return out


class PostMergerShares(MergerMixin, Step):
    HANDLERS: ClassVar[dict] = {"buy_shares": "process_buy_shares", "pass": "process_pass"}

    DESCRIPTION: ClassVar[str] = "Buy Shares Post Merge"

    def corporation(self):
        return self.round.converted

    def active(self):
        return self.corporation() is not None

    def skip(self):
        pass

    def can_buy(self, entity, share) -> bool:
        corp, game = self.corporation(), self.game
        return (share.corp_id == corp.id and share.percent == 10
                and corp.holder_of(share) is not game.pool
                and entity.cash >= certificate_price(corp, share)
                and corp.holding_ok(entity, share.percent)
                and game.num_certs(entity) < game.cert_limit(entity))

    def can_buy_any(self, entity) -> bool:
        """:meth:`can_buy` of one of the first two certificates in the treasury: what reads
        the player beside the price (the holding and certificate limits, for a 10% share) is
        the same for both, so asked once, for the first whose own checks pass."""
        cls = type(self)
        if cls.can_buy is not PostMergerShares.can_buy:
            return any(self.can_buy(entity, s) for s in _treasury(self.corporation())[:2])
        game = self.game
        # (the converted company, a certificate's holder and the game's certificate limit read
        # in place where the methods are the ones that read them so)
        corp = self.round.converted if cls.corporation is PostMergerShares.corporation else self.corporation()
        plain = type(corp).holder_of is Corporation.holder_of
        cid, pool, cash, seen = corp.id, game.pool, entity.cash, 0
        for s in corp.certificates:  # (the treasury's first two, in order, without the list)
            if s.corp_id != cid:
                continue
            if plain:
                h = corp.cert_holders[s.index]
                held_by = corp if h is None else h
            else:
                held_by = corp.holder_of(s)
            if s.percent == 10 and held_by is not pool and cash >= certificate_price(corp, s):
                if not corp.holding_ok(entity, 10):
                    return False
                n = game.num_certs(entity)
                plain_limit = type(game).cert_limit is Game.cert_limit
                return n < (game.cert_limit_value if plain_limit else game.cert_limit(entity))
            seen += 1
            if seen == 2:
                break
        return False

    def eligible_players(self) -> list:
        return [p for p in self.round.share_dealing_players if not p.passed and self.can_buy_any(p)]

    def check_merge(self):
        if self.eligible_players():
            return
        corp = self.corporation()
        if self.presidency_in_treasury(corp):
            self.broken = True
        elif self.round.merge_type == "merge" and self.round.share_dealing_multiple:
            for p in self.round.share_dealing_players:
                p.passed = False
            self.round.share_dealing_players = starting_at(self.game.players, corp.owner)
            self.round.share_dealing_multiple = []

    def current_entity(self):
        if self.corporation() is None:
            return None
        if getattr(self, "broken", False):
            return self.game.players[0]
        players = self.eligible_players()
        if not players:
            self.check_merge()
            players = self.eligible_players()
        return players[0] if players else None

    def actions(self, entity):
        if not entity.is_player or self.corporation() is None or not self.can_buy_any(entity):
            return []
        return ["buy_shares", "pass"]

    def process_buy_shares(self, action, entity):
        bundle = action_bundle(self.game, action)
        target = bundle.corporation
        self.check_turn(entity)
        if target is not self.corporation() or len(bundle.shares) != 1 or not self.can_buy(entity, bundle.shares[0]):
            raise GameError(f"{entity.name} cannot buy {bundle.shares[0].id}", rule="illegal-buy")
        self.receive_share(entity, target, bundle)
        if entity not in self.round.share_dealing_multiple or not self.can_buy_any(entity):
            entity.passed = True
        self.check_merge()

    def check_turn(self, entity):
        # The reference lets any player who may still buy act out of turn; logs may hold that,
        # live play keeps to the turn order.
        if not self.game.loading and entity is not self.current_entity():
            raise GameError(f"it is not {entity.name}'s turn to buy", rule="out-of-turn")

    def pass_breaks_merge(self, entity) -> bool:
        """Would this pass leave the major without a president (nobody else may still buy)?
        The reference then calls the merge failed and stops until it is undone."""
        return self.presidency_in_treasury(self.corporation()) and all(p is entity for p in self.eligible_players())

    def process_pass(self, action, entity):
        self.check_turn(entity)
        if self.pass_breaks_merge(entity):
            raise GameError(f"{entity.name} must buy: the merged major would have no president",
                            rule="merge-needs-president")
        entity.passed = True
        self.check_merge()
        if self.current_entity() is entity and entity in self.round.share_dealing_players:
            self.round.share_dealing_players.remove(entity)

    def legal_actions(self, entity):
        if "buy_shares" not in self.actions(entity):
            return []
        s = next(s for s in _treasury(self.corporation())[:2] if self.can_buy(entity, s))
        out = [{"type": "buy_shares", "shares": [s.id], "percent": 10}]
        if not self.pass_breaks_merge(entity):
            out.append({"type": "pass"})
        return out


class ReduceTokens(merger.ReduceTokens):
    """The major formed keeps two tokens, in two different hexes."""

    def available_hex(self, entity, hex_) -> bool:
        """Two of the major's own tokens in one hex are cleared up first."""
        own_twice = entity is self.surviving() and placed_hexes(entity).count(hex_) > 1
        return own_twice or super().available_hex(entity, hex_)

    def removal_refusal(self, entity, token):
        if self.leaves_one_hex(entity, token):
            return GameError(f"remove_token: {entity.id} must have two tokens in different hexes", rule="token-hexes")
        return None

    def leaves_one_hex(self, entity, token) -> bool:
        """Would removing ``token`` leave all of the major's tokens in one hex when they were
        in several (possible with a multi-city hex)?"""
        hexes = placed_hexes(entity)
        if len(set(hexes)) == 1:
            return False
        rest = list(hexes)
        if token.owned_by(entity) and token.city is not None:
            rest.remove(token.city.hex)
        return len(set(rest)) <= 1

    def move_tokens_to_surviving(self, surviving, others) -> None:
        """The minors' unplaced tokens are not moved; a major left with two gets its 40 one back."""
        for o in others:
            o.tokens = tuple(t for t in o.tokens if t.city is not None)
        super().move_tokens_to_surviving(surviving, others)
        self.game.fix_token_count(surviving)
