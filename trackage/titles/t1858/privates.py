"""1858's private railways: buying one, exchanging it for a share of a public company (which
claims its reserved token slot), and closing it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.board import Board
from ...core.entities import without
from ...core.errors import GameError
from ...core.money import pay
from . import gauges

if TYPE_CHECKING:
    from .game import Game1858


def reserved_cities(game: Game1858, corp, company) -> list:
    """The cities reserved for ``company`` where ``corp`` may place a token."""
    board = game.board
    bcls = type(board)
    if bcls.reserved_by is Board.reserved_by and bcls.cities is Board.cities:
        # (the reserved cities found from the reservations map, not a scan of every city on the
        # map: the cities :meth:`Board.cities` lists that :meth:`Board.reserved_by` says yes to,
        # each placed by its hex's map position and its place on that hex's tile, the same
        # order; a reserved city not on its hex's tile sends the question to the scan)
        st = board.state
        tile_at = st.tile_at
        order = board.hexmap.hex_order()
        found: list = []
        whole = True
        for city, res in st.city_res.items():
            for r in res:
                if r is not None and (r is company or getattr(r, "owner", None) is company):
                    break
            else:
                continue
            h = city.hex
            pos = order.get(h.id) if h is not None else None
            place = None
            if pos is not None:
                for i, c in enumerate(tile_at[h.id].cities):
                    if c is city:
                        place = i
                        break
            if place is None:
                whole = False
                break
            found.append((pos, place, city))
        if whole:
            found.sort(key=lambda f: (f[0], f[1]))
            return [c for _, _, c in found if board.tokenable(c, corp, free=True)]
    return [c for c in board.cities() if board.reserved_by(c, company) and board.tokenable(c, corp, free=True)]


def acquire_private(game: Game1858, corp, entity) -> None:
    """``corp`` takes the private railway ``entity`` (its minor closes)."""
    company = game.private_company(entity)
    minor = game.private_minor(entity)
    player = company.owner
    game.release_stubs(minor)
    blocker = [a for a in minor.abilities if a.get("type") == "blocks_hexes"]
    if blocker:
        company.abilities = list(company.abilities) + blocker
    minor.close()
    if company in player.companies:
        player.companies = without(player.companies, company)
    company.owner = corp
    corp.companies = (*corp.companies, company)


def exchange_for_share(game: Game1858, round_, bundle, corp, minor, player, treasury: bool) -> None:
    """A private railway is exchanged for a share of ``corp`` (from the treasury: ``corp``
    takes the private and claims its token slot)."""
    if not game.loading and not gauges.corporation_private_connected(game, corp, minor):
        raise GameError(f"{minor.name} is not connected to {corp.name}", rule="not-connected")
    floated_before = corp.floated()
    game.share_market.transfer(bundle, player)
    if floated_before != corp.floated():
        game.float_corporation(corp)
    if not treasury:
        return
    acquire_private(game, corp, minor)
    claim_token(game, round_, corp, minor)


def claim_token(game: Game1858, round_, corp, minor) -> None:
    """``corp`` is offered a token in the slots reserved for the private ``minor``."""
    if not any(not t.used for t in corp.tokens):
        return
    company = game.private_company(minor)
    cities = reserved_cities(game, corp, company)
    board = game.board
    if not any(sum(1 for t in board.tokens(c) if t is not None) < board.slots(c) for c in cities):
        return
    round_.pending_tokens.append({"entity": corp, "cities": cities, "hexes": [c.hex for c in cities],
                                  "token": next(t for t in corp.tokens if not t.used)})
    if game.private_closure_round != "in_progress":
        return
    for c in cities:
        i = board.find_reservation(c, company)
        if i is not None:
            res = list(board.city_reservations(c))
            res[i] = corp
            board.set_city_reservations(c, res)


def company_reservation_available(game: Game1858, company) -> bool:
    """Has ``company`` a reserved slot left on the map (a city with room for its token)?"""
    board = game.board
    return any(board.reserved_by(c, company) and sum(1 for t in board.tokens(c) if t is not None) < board.slots(c)
               for c in board.cities())


def private_revenue(game: Game1858, corp) -> int:
    """The revenue of the private railways ``corp`` owns (added to its run)."""
    if corp is None or not corp.is_corporation:
        return 0
    total = 0
    for c in corp.companies:  # (a plain loop: asked for every run and dividend)
        if game.private_railway(c):
            total += c.revenue
    return total


def close_companies_of(game: Game1858, corp) -> None:
    """The private railways ``corp`` owns close."""
    for c in list(corp.companies):
        close_company(game, c)


def close_company(game: Game1858, company) -> None:
    """A private railway closes: its owner gets its value, its reservations go."""
    if not game.private_railway(company) or company.closed:
        return
    owner = company.owner
    if owner is not None and owner is not game.bank:
        pay(game, game.bank, owner, company.value, "compensation")
    if owner is not None and hasattr(owner, "companies") and company in owner.companies:
        owner.companies = without(owner.companies, company)
    company.owner = None
    company.closed = True
    if any(a.get("type") == "reservation" for a in company.abilities):
        remove_reservations_of(game, company)
    company.abilities = []
    minor = game.private_minor(company)
    for coord in (minor.coordinates if minor is not None else []):
        gauges.compact_reservations(game, game.board.hex_by_id(coord))


def remove_reservations_of(game: Game1858, entity) -> None:
    """``entity``'s reservations leave the map."""
    board = game.board
    # (nothing to write when no city's entry holds it: a city without an entry has none)
    for held in board.state.city_res.values():
        if entity in held:
            break
    else:
        return
    for c in board.cities():
        res = list(board.city_reservations(c))
        if entity in res:
            res[res.index(entity)] = None
            board.set_city_reservations(c, res)


def close_private(game: Game1858, entity) -> None:
    """A private railway closes as company and as minor."""
    company = game.private_company(entity)
    minor = game.private_minor(entity)
    if minor is not None:
        game.release_stubs(minor)
        minor.close()
    if company is not None:
        close_company(game, company)
