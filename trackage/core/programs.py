"""Programmed actions: what a player tells the game to do for them while they are away.

18xx.games lets a player program actions (``program_share_pass``: pass in stock rounds;
``program_buy_shares``: buy shares of a corporation until a count or its float;
``program_merger_pass``, in 1867 and 1861: pass in merger rounds for the corporations named
per round kind, optionally stopping once another player has converted;
``program_disable``: stop). Which a player may set is the title's (``Game.available_programs``,
the site's ``available_programmed_actions``: a share pass and a purchase unless a title says
otherwise). The programs are state, plain data on the game
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

import re
from typing import TYPE_CHECKING, Any

from .entities import ShareBundle, entity_type
from .errors import GameError

if TYPE_CHECKING:
    from .game import Game
    from .pipeline import Pipeline

#: every programmed action type the site knows (the ones with no rules here are kept as state)
PROGRAM_TYPES = frozenset({"program_share_pass", "program_buy_shares", "program_merger_pass", "program_disable",
                           "program_auction_bid", "program_independent_mines", "program_harzbahn_draft_pass",
                           "program_close_pass"})
#: the programs a player may set in live play (the site's default ``available_programmed_actions``;
#: a title's are its game's ``available_programs``)
LIVE_TYPES = ("program_buy_shares", "program_share_pass")
#: the merger pass's options, as the site's form offers them (stop when other players have acted)
_MERGER_OPTIONS = ("disable_others",)
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


# ------------------------------------------------------------------ the programs a player may set
#: the share pass's flags, as the site's form offers them (each combination listed)
_PASS_FLAGS = ((False, False), (True, False), (False, True), (True, True))


def available(game: Game, player: Any) -> list[dict[str, Any]]:
    """The programs ``player`` may set now, in the site's action shapes (its
    ``available_programmed_actions`` and the forms of its Auto page): a share pass with each of
    its flags (``unconditional``, ``indefinite``); per corporation whose shares can be bought
    (parred, with shares in the IPO or the market), a purchase until it floats (not floated
    yet) and until a count of shares from the IPO and from the market (``until_condition`` the
    least count, ``until_range`` the counts allowed), each with and without ``auto_pass_after``;
    in a title with merger rounds, outside stock rounds, a merger pass naming per round kind the
    corporations of the player it may pass for (``corporations_by_round``; any part of them may
    be set), with and without the option ``disable_others``;
    and a ``program_disable`` (reason ``user``) when a program is on. Not in
    :meth:`Game.legal_actions` (a program is no move); the gate of live play accepts these."""
    if game.finished or player is None or not player.is_player:
        return []
    player = next((q for q in game.players if q.id == player.id), None)  # (this game's own)
    if player is None:
        return []
    me: dict[str, Any] = {"entity": player.id, "entity_type": "player"}
    kinds = game.available_programs()
    out: list[dict[str, Any]] = []
    if "program_merger_pass" in kinds:
        out += _merger_passes(game, player, me)
    if "program_share_pass" in kinds:
        out += [{"type": "program_share_pass", **me, "unconditional": u, "indefinite": i} for u, i in _PASS_FLAGS]
    for corp in game.corporations if "program_buy_shares" in kinds else ():
        if corp.share_price is None:
            continue
        ipo, market = len(corp.ipo_shares()), len(game.pool.shares_of(corp))
        if not ipo and not market:
            continue
        owned = player.percent_of(corp) // corp.share_percent
        modes: list[dict[str, Any]] = []
        if not corp.floated() and corp.float_percent != 0:
            modes.append({"until_condition": "float", "from_market": False})
        for count, from_market in ((ipo, False), (market, True)):
            if count:
                modes.append({"until_condition": owned + 1, "from_market": from_market,
                              "until_range": [owned + 1, owned + count]})
        out += [{"type": "program_buy_shares", **me, "corporation": corp.id, **m, "auto_pass_after": after}
                for m in modes for after in (False, True)]
    progs = enabled_of(game, player)
    if progs:
        out.append({"type": "program_disable", **me, "reason": "user", "original_type": progs[-1]["type"]})
    return out


def _merger_passes(game: Game, player: Any, me: dict[str, Any]) -> list[dict[str, Any]]:
    """The merger passes ``player`` may set (the site's form: none in a stock round, none
    without a corporation to pass for)."""
    if game.round.is_stock():
        return []
    choices = {kind: [c.id for c in corps] for kind, corps in game.merger_pass_choices(player).items() if corps}
    if not choices:
        return []
    return [{"type": "program_merger_pass", **me, "corporations_by_round": choices, "options": list(opts)}
            for opts in (_MERGER_OPTIONS, ())]


def _merger_pass_fits(listed: dict[str, Any], action: dict[str, Any]) -> bool:
    """Whether ``action`` sets the merger pass ``listed``: per listed round kind some of the
    listed corporations (each once), the listed options."""
    by_round, allowed = action.get("corporations_by_round"), listed["corporations_by_round"]
    if not isinstance(by_round, dict) or (action.get("options") or []) != listed["options"]:
        return False
    for kind, corps in by_round.items():
        if kind not in allowed or not isinstance(corps, list) or len(set(map(str, corps))) != len(corps):
            return False
        if any(not isinstance(c, str) or c not in allowed[kind] for c in corps):
            return False
    return True


def is_available(game: Game, action: dict[str, Any]) -> bool:
    """Whether ``action`` is one of the programs its player may set now (:func:`available`):
    the fields equal, a count inside the listed range; a disable's reason and original type
    are the player's words."""
    player = game.index.resolve(action)
    for listed in available(game, player):
        if listed["type"] != action.get("type"):
            continue
        if listed["type"] == "program_disable":
            return True
        if listed["type"] == "program_merger_pass":
            if _merger_pass_fits(listed, action):
                return True
            continue
        fields = [k for k in listed if k not in ("entity", "entity_type", "until_range", "until_condition")]
        if any(action.get(k, False if isinstance(listed[k], bool) else None) != listed[k]
               or type(action.get(k, listed[k])) is not type(listed[k]) for k in fields):
            continue
        if "until_condition" not in listed:
            return True
        until, lo_hi = action.get("until_condition"), listed.get("until_range")
        if lo_hi is None:
            if until == listed["until_condition"]:
                return True
        elif isinstance(until, int) and not isinstance(until, bool) and lo_hi[0] <= until <= lo_hi[1]:
            return True
    return False


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
    for step in game.round.steps:
        step.program_enabled(entity)


def drop_share_passes(game: Game, players: list[Any]) -> None:
    """Remove the conditional programmed share passes of ``players`` (a title's rule)."""
    if not any_enabled(game):
        return
    ids = {str(p.id) for p in players}
    enabled = {pid: [p for p in progs if pid not in ids or p["type"] != "program_share_pass" or p.get("unconditional")]
               for pid, progs in game.programs["enabled"].items()}
    game.programs = {**game.programs, "enabled": enabled}


def _remove(game: Game, entity: Any) -> None:
    enabled = dict(game.programs["enabled"])
    progs = enabled.get(str(entity.id), [])
    if progs:
        enabled[str(entity.id)] = progs[:-1]
        game.programs = {**game.programs, "enabled": enabled}


def _check(game: Game, action: dict[str, Any], entity: Any) -> None:
    atype = action["type"]
    if atype not in game.available_programs():
        raise GameError(f"{atype}: this game offers no such program", rule="program-not-available")
    for flag in ("unconditional", "indefinite", "from_market", "auto_pass_after"):
        if not isinstance(action.get(flag, False), bool):
            raise GameError(f"{atype}: {flag} is true or false", rule="program-fields")
    if atype == "program_merger_pass":
        _check_merger_pass(game, action)
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


def _check_merger_pass(game: Game, action: dict[str, Any]) -> None:
    atype = action["type"]
    options = action.get("options") or []
    if not isinstance(options, list) or any(o not in _MERGER_OPTIONS for o in options):
        raise GameError(f"{atype}: the options are some of {', '.join(_MERGER_OPTIONS)}", rule="program-fields")
    by_round = action.get("corporations_by_round")
    if not isinstance(by_round, dict):
        raise GameError(f"{atype}: corporations_by_round names per round kind the corporations",
                        rule="program-fields")
    for kind, corps in by_round.items():
        if not isinstance(corps, list):
            raise GameError(f"{atype}: corporations_by_round[{kind!r}] is a list of corporations",
                            rule="program-fields")
        for cid in corps:
            if game.corporation_by_id(cid) is None:
                raise GameError(f"{atype}: no corporation {cid!r}", rule="program-corporation")


def round_changed(game: Game) -> None:
    """A new round: the programs it ends are removed (a share pass not indefinite, a purchase,
    outside stock rounds; a merger pass, outside merger rounds; any other program), and the
    round's history is forgotten."""
    if not any_enabled(game) and not game.programs["history"]:
        return  # (no copy: the common case of a game without programs)
    stock, merger = game.round.is_stock(), game.round.is_merger()
    enabled = {pid: [p for p in progs if not _ends(p, stock, merger)]
               for pid, progs in game.programs["enabled"].items()}
    game.programs = {"enabled": enabled, "history": {}}


def _ends(prog: dict[str, Any], stock: bool, merger: bool) -> bool:
    if prog["type"] == "program_share_pass":
        return not stock and not prog.get("indefinite")
    if prog["type"] == "program_buy_shares":
        return not stock
    if prog["type"] == "program_merger_pass":
        return not merger
    return True


# ------------------------------------------------------------------ the stock round's history
def note(game: Game, action: dict[str, Any], entity: Any, thing: Any) -> None:
    """Remember ``action`` of ``entity`` (a player, or what a player owns) on ``thing`` (the
    corporation, company or minor it concerns) in this stock round's history, which the
    programs read; kept in the order the site keeps it (players and things as first met)."""
    player = entity if entity.is_player else getattr(entity, "owner", None)
    if thing is None or player is None or not player.is_player:
        return
    history = dict(game.programs["history"])
    mine = dict(history.get(str(player.id), {}))
    key = _key(thing)
    actor = {"entity": action.get("entity"), "entity_type": action.get("entity_type")}
    mine[key] = [*mine.get(key, []), [game.journal.action, action["type"], actor]]
    history[str(player.id)] = mine
    game.programs = {**game.programs, "history": history}


def _key(thing: Any) -> str:
    return f"{entity_type(thing)}:{thing.id}"


def _thing(game: Game, key: str) -> Any:
    etype, _, eid = key.partition(":")
    return game.index.resolve({"entity": eid, "entity_type": etype})


def site_name(thing: Any) -> str:
    """How the site's messages name ``thing``: a corporation or minor by its short name, a
    company or player by its name."""
    return str(thing.id) if thing.is_corporation or thing.is_minor else str(thing.name)


def turn_started(game: Game, player: Any) -> None:
    """``player``'s turn starts: what they did before is forgotten (they keep their place)."""
    if player is None or not player.is_player:
        return
    programs = game.programs
    history = programs["history"]
    pid = str(player.id)
    if history.get(pid) == {} and pid in history:
        return
    game.programs = {**programs, "history": {**history, pid: {}}}


# ------------------------------------------------------------------ what programs make
def auto(entity: Any, atype: str, created_at: Any, **fields: Any) -> dict[str, Any]:
    """An action made by a program for ``entity`` (a player, or a corporation it passes for),
    in the site's shape."""
    out: dict[str, Any] = {"type": atype, "entity": entity.id, "entity_type": entity_type(entity)}
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


def merger_auto_actions(step: Any, entity: Any, pass_entity: Any, others_acted: bool) -> list[dict[str, Any]]:
    """What the programmed merger pass of ``entity``'s owner does now in a merger round's merge
    step: stop (option ``disable_others``) when ``others_acted`` since the action that enabled
    it; else pass for ``pass_entity`` (None: nothing to pass now) when the program names it
    for this kind of round."""
    game = step.game
    player = entity.owner if not entity.is_player else entity
    if player is None or not getattr(player, "is_player", False):
        return []
    at = game.programs.get("created_at")
    out: list[dict[str, Any]] = []
    for prog in enabled_of(game, player):
        if prog["type"] != "program_merger_pass":
            continue
        if prog["seq"] != game.journal.action and "disable_others" in (prog.get("options") or []) and others_acted:
            out.append(auto(player, "program_disable", at,
                            reason="Other players have acted and requested to stop"))
            continue
        names = (prog.get("corporations_by_round") or {}).get(game.round.SHORT_NAME) or []
        if pass_entity is not None and pass_entity.id in names:
            out.append(auto(pass_entity, "pass", at))
    return out


def _share_pass(step: Any, entity: Any, prog: dict[str, Any]) -> list[dict[str, Any]]:
    if "pass" not in step.actions(entity) or not step.normal_pass(entity):
        return []
    at = step.game.programs.get("created_at")
    reason = None if prog.get("unconditional") else stop_reason(step, entity, prog, None)
    if reason:
        return [auto(entity, "program_disable", at, reason=reason)]
    return [auto(entity, "pass", at)]


def _buy_shares(step: Any, entity: Any, prog: dict[str, Any]) -> list[dict[str, Any]]:
    game = step.game
    at = game.programs.get("created_at")
    corp = game.corporation_by_id(prog.get("corporation"))
    if corp is None:
        return [auto(entity, "program_disable", at, reason="Unknown corporation")]
    name = site_name(corp)
    until = prog.get("until_condition")
    done = None
    if until == "float":
        if corp.floated() or corp.float_percent == 0:
            done = f"{name} is floated"
    elif isinstance(until, int) and entity.percent_of(corp) / corp.share_percent >= until:
        done = f"{until} share(s) bought in {name}, end condition met"
    if done:
        out = [auto(entity, "program_disable", at, reason=done)]
        if prog.get("auto_pass_after"):
            out.append(auto(entity, "program_share_pass", at, unconditional=False, indefinite=False))
        return out
    acts = step.actions(entity)
    if "buy_shares" in acts:
        if step.program_from_market(prog):
            source, shares = "market", game.pool.shares_of(corp)
        else:
            source, shares = game.IPO_NAME, corp.ipo_shares()
        by_percent: dict[int, list[Any]] = {}
        for s in shares:
            if step.can_buy(entity, ShareBundle([s], corporation=corp)):
                by_percent.setdefault(s.percent, []).append(s)
        if not by_percent:
            return [auto(entity, "program_disable", at, reason=f"Cannot buy {name} from {source}")]
        if len(by_percent) != 1:
            return [auto(entity, "program_disable", at,
                         reason=f"Shares of different sizes exist, cannot auto buy {name} from {source}")]
        share = next(iter(by_percent.values()))[0]
        reason = stop_reason(step, entity, prog, share)
        if reason:
            return [auto(entity, "program_disable", at, reason=reason)]
        return [auto(entity, "buy_shares", at, shares=[share.id], percent=share.percent)]
    if step.bought() and "pass" in acts:
        if until == "float" and corp.floated():
            return []  # just floated: some like to sell the last share at once
        return [auto(entity, "pass", at)]
    return []


def stop_reason(step: Any, entity: Any, prog: dict[str, Any], share: Any) -> str | None:
    """Why a program of ``entity`` stops now: a forced sale, or what another player did in this
    stock round since the program was enabled (None: it goes on); the step judges each action
    (its ``shenanigan`` hook)."""
    game = step.game
    if step.must_sell(entity):
        return f"{entity.name} must sell shares"
    for pid, things in game.programs["history"].items():
        if pid == str(entity.id):
            continue
        other = game.index.player(pid)
        for key, recs in things.items():
            thing = _thing(game, key)
            for seq, atype, actor in recs:
                if seq < prog["seq"]:
                    continue
                reason = step.shenanigan(entity, other, atype, game.index.resolve(actor), thing, share)
                if reason:
                    return reason
    return None


def shenanigan(step: Any, entity: Any, other: Any, atype: str, actor: Any, corp: Any, share: Any) -> str | None:
    """Whether ``other``'s action ``atype`` (made by ``actor``, on ``corp``) since ``entity``
    enabled a program stops it before it buys ``share`` (None: a pass); the reason."""
    game = step.game
    buying: Any = game.share_corp(share) if share is not None else None
    name = site_name(corp)
    if atype == "par":
        if buying is None or game.check_sale_timing(entity, ShareBundle([corp.shares[0]], corporation=corp)):
            return f"Corporation {name} parred"
        return None
    if atype == "sell_shares":
        return "Shares were sold"
    if atype == "take_loan":
        return f"{name} took a loan"
    if atype != "buy_shares":
        return f"Unknown action {atype} disabling for safety"
    if actor is corp:
        return f"{name} redeemed a share."
    if corp.owner is not entity or corp.owner.percent_of(corp) >= 50:
        return None
    if corp is not buying:
        return f"{other.name} bought on corporation {name} and is unsecure"
    percentage = entity.percent_of(corp) + share.percent
    if percentage > 50:
        return None
    bigger = [s for s in corp.shares if s.percent > share.percent and corp.holder_of(s) is not entity]
    if bigger:
        top = max(bigger, key=lambda s: s.percent)
        if percentage < actor.percent_of(corp) + top.percent:
            buyer = actor if actor.is_player else actor.owner
            return f"{buyer.name} has bought, shares exist that could allow them to gain presidency"
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


def same(logged: list[dict[str, Any]], made: list[dict[str, Any]], names: tuple[str, ...] = ()) -> bool:
    """Whether two lists of auto actions agree (as the site compares them: ``created_at``
    aside). A shared log names its players anew (``names``, the names it gives them), while the
    reasons it recorded name them as they were: a player's name in a reason stands for any name."""
    def key(a: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in a.items() if k not in _UNCOMPARED and v is not None}

    def agree(a: dict[str, Any], b: dict[str, Any]) -> bool:
        ka, kb = key(a), key(b)
        if ka == kb:
            return True
        ra, rb = ka.pop("reason", None), kb.pop("reason", None)
        return ka == kb and isinstance(ra, str) and isinstance(rb, str) and _renamed(ra, rb, names)

    return len(logged) == len(made) and all(agree(a, b) for a, b in zip(logged, made, strict=True))


def _renamed(logged: str, made: str, names: tuple[str, ...]) -> bool:
    """Whether ``logged`` is ``made`` with the players' ``names`` in it written otherwise."""
    used = [n for n in names if n and n in made]
    if not used:
        return False
    pattern = re.escape(made)
    for n in sorted(used, key=len, reverse=True):
        pattern = pattern.replace(re.escape(n), ".+")
    return re.fullmatch(pattern, logged) is not None


def after_action(pipe: Pipeline, action: dict[str, Any], live: bool) -> dict[str, Any]:
    """The programs' turn after ``action``: in live play the auto actions are made and the action
    returned carries them; from a log, the logged ones are processed (and compared with what
    the programs would make in a strict load, a warning when they differ)."""
    game = pipe.game
    logged = action.get("auto_actions") or []
    if game.loading or not live or logged or not any_enabled(game):
        # (a log's auto actions, also fed one by one in live play, are processed as they are:
        # titles' steps make some that are no program's)
        if logged and game.loading and (game.strict or game.check_programs) and any_enabled(game):
            # (a strict load or a check only: the trial on a copy costs a replay its speed)
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


#: how a warning about differing auto actions starts (after ``action N: ``)
MISMATCH = "its auto actions "


def is_mismatch(warning: object) -> bool:
    """Whether ``warning`` (one of ``game.warnings``) tells of logged auto actions that differ."""
    return isinstance(warning, str) and MISMATCH in warning


def _compare(pipe: Pipeline, action: dict[str, Any], logged: list[dict[str, Any]]) -> None:
    from .pipeline import Pipeline, snapshot

    game = pipe.game
    try:
        if game.REWIND:  # tried on the game itself and taken back by its record
            with Pipeline(game).trying(loading=False):
                made = generate(Pipeline(game), action.get("created_at"))
        else:
            trial = snapshot(game)
            trial.loading = False
            made = generate(Pipeline(trial), action.get("created_at"))
    except GameError as e:
        made = [{"type": "error", "message": str(e)}]
    rest = logged[len(made):]
    if rest and all(a.get("entity_type") not in (None, "player") for a in rest):
        # the site's operating steps pass for companies and minors with nothing to do (1858's
        # minors with no tile to lay, companies with no token); trackage does not make these
        # titles' own auto actions (a live player passes for them), so only the programs' part counts
        logged = logged[:len(made)]
    if not same(logged, made, tuple(str(p.name) for p in game.players)):
        game.warnings.append(f"action {action.get('id')}: {MISMATCH}{_shown(logged)} are not what the programs "
                             f"make now {_shown(made)}")


def _shown(actions: list[dict[str, Any]]) -> str:
    return "[" + ", ".join(a.get("type", "?") + (f" ({a['reason']})" if a.get("reason") else "")
                           for a in actions) + "]"
