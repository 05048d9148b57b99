"""Programmed actions: what a player tells the game to do for them while they are away.

18xx.games lets a player program actions (``program_share_pass``: pass in stock rounds;
``program_buy_shares``: buy shares of a corporation until a count or its float;
``program_disable``: stop). The programs are state, plain data on the game
(``game.programs``): per player id the programs enabled, each a copy of its action with
``seq``, the number of the action that enabled it; and, while any program is enabled, what
each player did this round in the stock round (``history``: player id -> corporation id ->
``[seq, type, by_corporation]``), which a conditional program reads to stop itself.

After an action played live, the programs of the entity in turn answer, through their step's
``auto_actions`` hook, the actions they make now (a pass, a purchase, or a
``program_disable`` with the reason); these are processed and recorded in the triggering
action's ``auto_actions``, as the site records them. A log's ``auto_actions`` are replayed as
they are, and compared (a warning on a difference) with what the programs would make.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .entities import ShareBundle
from .errors import GameError

if TYPE_CHECKING:
    from .game import Game
    from .pipeline import Pipeline

#: every programmed action type the site knows (the ones with no rules here are kept as state)
PROGRAM_TYPES = frozenset({"program_share_pass", "program_buy_shares", "program_merger_pass", "program_disable",
                           "program_auction_bid", "program_independent_mines", "program_harzbahn_draft_pass",
                           "program_close_pass"})
#: the programs a player may set in live play (the site's default ``available_programmed_actions``)
LIVE_TYPES = ("program_buy_shares", "program_share_pass")
#: fields of a program action that are bookkeeping, not the program
_BOOKKEEPING = frozenset({"id", "created_at", "user", "auto_actions", "entity", "entity_type"})
#: fields compared between logged and generated auto actions (the site ignores ``created_at``)
_UNCOMPARED = frozenset({"created_at", "id", "user"})
#: a guard against programs that would answer forever
_MAX_AUTO = 500


def new_state() -> dict[str, Any]:
    """The programs of a game that has none."""
    return {"enabled": {}, "history": {}}


def any_enabled(game: Game) -> bool:
    return any(game.programs["enabled"].values())


def enabled_of(game: Game, player: Any) -> list[dict[str, Any]]:
    """The programs ``player`` has enabled, oldest first."""
    progs: list[dict[str, Any]] = game.programs["enabled"].get(str(player.id), [])
    return progs


# ------------------------------------------------------------------ processing a program action
def process(game: Game, action: dict[str, Any], entity: Any) -> None:
    """Enable or disable a program for ``entity`` (a player); refused with the rule broken."""
    atype = action["type"]
    if entity is None or not entity.is_player:
        raise GameError(f"{atype}: only a player may program actions", rule="program-by-player")
    if atype == "program_disable":
        _remove(game, entity)
        return
    if not game.loading:
        _check(game, action, entity)
    prog = {k: v for k, v in action.items() if k not in _BOOKKEEPING}
    prog["seq"] = game.journal.action
    enabled = dict(game.programs["enabled"])
    # one program at a time (the site's ALLOW_MULTIPLE_PROGRAMS is off): a new one replaces the last
    enabled[str(entity.id)] = [*enabled.get(str(entity.id), [])[:-1], prog]
    game.programs = {**game.programs, "enabled": enabled}


def _remove(game: Game, entity: Any) -> None:
    enabled = dict(game.programs["enabled"])
    progs = enabled.get(str(entity.id), [])
    if progs:
        enabled[str(entity.id)] = progs[:-1]
        game.programs = {**game.programs, "enabled": enabled}


def _check(game: Game, action: dict[str, Any], entity: Any) -> None:
    atype = action["type"]
    if atype not in LIVE_TYPES:
        raise GameError(f"{atype}: this game offers no such program", rule="program-not-available")
    for flag in ("unconditional", "indefinite", "from_market", "auto_pass_after"):
        if not isinstance(action.get(flag, False), bool):
            raise GameError(f"{atype}: {flag} is true or false", rule="program-fields")
    if atype != "program_buy_shares":
        return
    corp = game.corporation_by_id(action.get("corporation"))
    if corp is None:
        raise GameError(f"{atype}: no corporation {action.get('corporation')!r}", rule="program-corporation")
    until = action.get("until_condition")
    if until != "float" and (not isinstance(until, int) or isinstance(until, bool) or until < 1):
        raise GameError(f"{atype}: the until condition is a number of shares or 'float'", rule="program-until")
    if corp.share_price is None:
        raise GameError(f"{atype}: {corp.name} is not parred, its shares cannot be bought",
                        rule="program-corporation-not-parred")


def round_changed(game: Game) -> None:
    """A new round: the programs it ends are removed (a share pass not indefinite, a purchase,
    outside stock rounds; any other program), and the round's history is forgotten."""
    if not any_enabled(game) and not game.programs["history"]:
        return
    stock = game.round.is_stock()
    enabled = {pid: [p for p in progs if not _ends(p, stock)] for pid, progs in game.programs["enabled"].items()}
    game.programs = {"enabled": enabled, "history": {}}


def _ends(prog: dict[str, Any], stock: bool) -> bool:
    if prog["type"] == "program_share_pass":
        return not stock and not prog.get("indefinite")
    if prog["type"] == "program_buy_shares":
        return not stock
    return True


# ------------------------------------------------------------------ the stock round's history
def note(game: Game, action: dict[str, Any], entity: Any, corp: Any) -> None:
    """Remember ``action`` (a purchase, sale or par of ``corp`` by ``entity``) while programs run."""
    if corp is None or action["type"] not in ("buy_shares", "sell_shares", "par") or not any_enabled(game):
        return
    player = entity if entity.is_player else getattr(entity, "owner", None)
    if player is None:
        return
    history = dict(game.programs["history"])
    mine = dict(history.get(str(player.id), {}))
    rec = [game.journal.action, action["type"], bool(entity.is_corporation)]
    mine[str(corp.id)] = [*mine.get(str(corp.id), []), rec]
    history[str(player.id)] = mine
    game.programs = {**game.programs, "history": history}


def turn_started(game: Game, player: Any) -> None:
    """``player``'s turn starts: what they did before is forgotten."""
    if player is None or not game.programs["history"].get(str(player.id)):
        return
    history = {**game.programs["history"], str(player.id): {}}
    game.programs = {**game.programs, "history": history}


# ------------------------------------------------------------------ what programs make
def auto(entity: Any, atype: str, created_at: Any, **fields: Any) -> dict[str, Any]:
    """An action made by a program for ``entity``, in the site's shape."""
    out: dict[str, Any] = {"type": atype, "entity": entity.id, "entity_type": "player"}
    if created_at is not None:
        out["created_at"] = created_at
    return {**out, **fields}


def stock_auto_actions(step: Any, entity: Any) -> list[dict[str, Any]]:
    """What ``entity``'s programs do now in a stock round's buy/sell/par step."""
    game = step.game
    out: list[dict[str, Any]] = []
    for prog in list(enabled_of(game, entity)):
        if prog["type"] == "program_share_pass":
            out += _share_pass(step, entity, prog)
        elif prog["type"] == "program_buy_shares":
            out += _buy_shares(step, entity, prog)
    return out


def _share_pass(step: Any, entity: Any, prog: dict[str, Any]) -> list[dict[str, Any]]:
    if "pass" not in step.actions(entity) or not step.normal_pass(entity):
        return []
    at = step.game.programs.get("created_at")
    reason = None if prog.get("unconditional") else _stop_reason(step, entity, prog, None)
    if reason:
        return [auto(entity, "program_disable", at, reason=reason)]
    return [auto(entity, "pass", at)]


def _buy_shares(step: Any, entity: Any, prog: dict[str, Any]) -> list[dict[str, Any]]:
    game = step.game
    at = game.programs.get("created_at")
    corp = game.corporation_by_id(prog.get("corporation"))
    if corp is None:
        return [auto(entity, "program_disable", at, reason="Unknown corporation")]
    until = prog.get("until_condition")
    done = None
    if until == "float":
        if corp.floated():
            done = f"{corp.name} is floated"
    elif isinstance(until, int) and entity.percent_of(corp) / corp.share_percent >= until:
        done = f"{until} share(s) bought in {corp.name}, end condition met"
    if done:
        out = [auto(entity, "program_disable", at, reason=done)]
        if prog.get("auto_pass_after"):
            out.append(auto(entity, "program_share_pass", at, unconditional=False, indefinite=False))
        return out
    acts = step.actions(entity)
    if "buy_shares" in acts:
        if prog.get("from_market"):
            source, shares = "market", game.pool.shares_of(corp)
        else:
            source, shares = "IPO", corp.ipo_shares()
        by_percent: dict[int, list[Any]] = {}
        for s in shares:
            if step.can_buy(entity, ShareBundle([s])):
                by_percent.setdefault(s.percent, []).append(s)
        if not by_percent:
            return [auto(entity, "program_disable", at, reason=f"Cannot buy {corp.name} from {source}")]
        if len(by_percent) != 1:
            return [auto(entity, "program_disable", at,
                         reason=f"Shares of different sizes exist, cannot auto buy {corp.name} from {source}")]
        share = next(iter(by_percent.values()))[0]
        reason = _stop_reason(step, entity, prog, share)
        if reason:
            return [auto(entity, "program_disable", at, reason=reason)]
        return [auto(entity, "buy_shares", at, shares=[share.id], percent=share.percent)]
    if step.bought() and "pass" in acts:
        if until == "float" and corp.floated():
            return []  # just floated: some like to sell the last share at once
        return [auto(entity, "pass", at)]
    return []


def _stop_reason(step: Any, entity: Any, prog: dict[str, Any], share: Any) -> str | None:
    """Why a program of ``entity`` stops now: a forced sale, or what another player did to a
    corporation since the program was enabled (None: it goes on)."""
    game = step.game
    if step.must_sell(entity):
        return f"{entity.name} must sell shares"
    for pid, corps in game.programs["history"].items():
        if pid == str(entity.id):
            continue
        other = game.index.player(pid)
        for cid, recs in corps.items():
            corp = game.corporation_by_id(cid)
            for seq, atype, by_corp in recs:
                if seq < prog["seq"]:
                    continue
                reason = _shenanigan(game, entity, other, atype, by_corp, corp, share)
                if reason:
                    return reason
    return None


def _shenanigan(game: Game, entity: Any, other: Any, atype: str, by_corp: bool, corp: Any,
                share: Any) -> str | None:
    buying: Any = share.corporation if share is not None else None
    if atype == "par":
        if buying is None or game.check_sale_timing(entity, ShareBundle([corp.shares[0]])):
            return f"Corporation {corp.name} parred"
        return None
    if atype == "sell_shares":
        return "Shares were sold"
    if atype != "buy_shares":
        return f"Unknown action {atype} disabling for safety"
    if by_corp:
        return f"{corp.name} redeemed a share."
    if corp.owner is not entity or corp.owner.percent_of(corp) >= 50:
        return None
    if corp is not buying:
        return f"{other.name} bought on corporation {corp.name} and is unsecure"
    percentage = entity.percent_of(corp) + share.percent
    if percentage > 50:
        return None
    bigger = [s for s in corp.shares if s.percent > share.percent and s.owner is not entity]
    if bigger:
        top = max(bigger, key=lambda s: s.percent)
        if percentage < other.percent_of(corp) + top.percent:
            return f"{other.name} has bought, shares exist that could allow them to gain presidency"
    return None


# ------------------------------------------------------------------ the pipeline's part
def generate(pipe: Pipeline, created_at: Any) -> list[dict[str, Any]]:
    """Process what the programs make now, until they make nothing; the actions made."""
    game = pipe.game
    made: list[dict[str, Any]] = []
    game.programs = {**game.programs, "created_at": created_at}
    try:
        while any_enabled(game) and not game.finished:
            entity = game.round.current_entity
            step = game.round.active_step(entity) if entity is not None else None
            acts = step.auto_actions(entity) if step is not None else []
            if not acts:
                break
            for a in acts:
                pipe.process_single(a)
            made += acts
            if len(made) > _MAX_AUTO:
                raise GameError("programmed actions do not stop", rule="programs-loop")
    finally:
        game.programs = {k: v for k, v in game.programs.items() if k != "created_at"}
    return made


def same(logged: list[dict[str, Any]], made: list[dict[str, Any]]) -> bool:
    """Whether two lists of auto actions agree (as the site compares them: ``created_at`` aside)."""
    def key(a: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in a.items() if k not in _UNCOMPARED and v is not None}
    return len(logged) == len(made) and all(key(a) == key(b) for a, b in zip(logged, made, strict=True))


def after_action(pipe: Pipeline, action: dict[str, Any], live: bool) -> dict[str, Any]:
    """The programs' turn after ``action``: in live play the auto actions are made and the action
    returned carries them; from a log, the logged ones are processed (and compared with what
    the programs would make in a strict load, a warning when they differ)."""
    game = pipe.game
    logged = action.get("auto_actions") or []
    if game.loading or not live or logged or not any_enabled(game):
        # (a log's auto actions, also fed one by one in live play, are processed as they are:
        # titles' steps make some that are no program's)
        if logged and game.loading and game.strict and any_enabled(game):
            # (a strict load only: the trial on a copy costs a replay its speed)
            _compare(pipe, action, logged)
        for a in logged:
            pipe.process_single(a)
        return action
    gate = game._gate
    game._gate = False  # the programs' actions are the engine's, not a move to check against the listing
    try:
        made = generate(pipe, action.get("created_at"))
    finally:
        game._gate = gate
    out = {k: v for k, v in action.items() if k != "auto_actions"}
    if made:
        out["auto_actions"] = made
    return out


def _compare(pipe: Pipeline, action: dict[str, Any], logged: list[dict[str, Any]]) -> None:
    from .pipeline import Pipeline, snapshot

    game = pipe.game
    trial = snapshot(game)
    trial.loading = False
    try:
        made = generate(Pipeline(trial), action.get("created_at"))
    except GameError as e:
        made = [{"type": "error", "message": str(e)}]
    if not same(logged, made):
        game.warnings.append(f"action {action.get('id')}: its auto actions {[a.get('type') for a in logged]} "
                             f"are not what the programs make now {[a.get('type') for a in made]}")
