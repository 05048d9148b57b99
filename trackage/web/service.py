"""The server's games: creating, importing, loading (an LRU of live games), acting, undo.

A game's state is its stored action list replayed (``Game.load``). Live games are cached
per process; before every read or write the cache compares its last action id with the
database's and catches up with actions another process stored. Writes of one game are
serialised per process by a lock, and across processes by the (game_id, action_id) key:
the loser of a race gets :class:`Conflict` (409) and the cached game is rebuilt.
"""

from __future__ import annotations

import copy
import logging
import threading
import time
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..bots.base import controller
from ..clock import ClockReport, ClockSettings, ClockWalk, parse_settings, tally
from ..core.errors import GameError, TrackageError
from ..core.log import filter_actions
from ..core.rng import seed_for
from ..core.suggestion import with_suggestions
from ..export import LOCAL_KEYS, game_to_log
from ..titles import game_class, new_game
from ..turns import Mark, Seen, mark_after, players_to_act, replay_marks, seen, sender_of
from .botseats import BOT_BUDGET, BotRunner, bot_levels
from .storage import ActionConflict, Storage
from .views import History, logged_label

if TYPE_CHECKING:
    from ..core.game import Game
    from .gamehooks import GameHooks
    from .models import Action, CreateGame, ImportLog
    from .notify import Changes

log = logging.getLogger("trackage.web")
META = ("undo", "redo")
MAX_PLAYERS_NAME = 40


class ServiceError(Exception):
    status = 400

    def __init__(self, message: str, rule: str = "bad-request", **extra):
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.extra = extra

    def body(self) -> dict:
        return {"error": self.message, "rule": self.rule, **self.extra}


class NotFound(ServiceError):
    status = 404


class Unauthorized(ServiceError):
    status = 401


class Forbidden(ServiceError):
    status = 403


class Conflict(ServiceError):
    status = 409


class Illegal(ServiceError):
    status = 422


@dataclass
class Live:
    """A game as this process knows it: the engine object after the stored actions."""
    gid: int
    meta: dict
    game: Game
    last_id: int                     # the last stored action id applied
    actors: list = field(default_factory=list)   # (action id, actor, type) of every stored action
    history: History | None = None   # views.History: checkpoints and charts (built lazily)
    legal: tuple | None = None       # (last_id, the game's legal actions then): asked once per action
    marks: tuple[Seen, list[Mark]] | None = None  # the clock's marks of every stored action (built lazily)
    clock_report: tuple[tuple, ClockReport] | None = None  # (its key: the move, the marks, the settings; the tally)
    clock_walk: ClockWalk = field(default_factory=ClockWalk)  # the tally's walk over the marks, taken up per action


def to_act_of(game) -> list[dict]:
    """The players to act now: ``[{id, name}]`` (several when several may act at once)."""
    return [{"id": p.id, "name": p.name} for p in players_to_act(game)]


def clock_settings(meta: dict) -> ClockSettings | None:
    raw = meta.get("clock")
    return None if raw is None else parse_settings(raw)


def has_clock(meta: dict) -> bool:
    """A game shows a clock when it was set one, or was imported (time per player)."""
    return meta.get("clock") is not None or meta.get("source") == "import"




# characters a name may not hold (Unicode categories): control characters (NUL, escapes, ...),
# format characters (bidi overrides and isolates, zero-width characters) and lone surrogates
NAME_REFUSED_CATEGORIES = ("Cc", "Cf", "Cs")


def normal_name(raw: str) -> str:
    """A player's name as it is kept: Unicode NFC, no spaces around it, every run of inner
    white space one space."""
    return " ".join(unicodedata.normalize("NFC", raw).split())


def player_names(raw) -> list[str]:
    """The names of a new game's players, normalised (:func:`normal_name`); refused (422
    ``bad-players``, naming the problem and the name) when a name is empty, longer than
    ``MAX_PLAYERS_NAME`` characters, holds a control or format character, or is the same
    as another one ignoring case."""
    if not isinstance(raw, list) or not raw:
        raise Illegal("players must be a non-empty list of names", "bad-players")
    names: list[str] = []
    seen: dict[str, int] = {}
    for i, given in enumerate(raw, start=1):
        if not isinstance(given, str):
            raise Illegal(f"player {i}: a name is a string, not {type(given).__name__}", "bad-players")
        name = normal_name(given)
        if not name:
            raise Illegal(f"player {i}: the name {given!r} is empty", "bad-players", name=given)
        for ch in name:
            if unicodedata.category(ch) in NAME_REFUSED_CATEGORIES:
                what = unicodedata.name(ch, "a control character")
                raise Illegal(f"player {i}: the name {name!r} holds U+{ord(ch):04X} ({what}); control and format "
                              "characters are not allowed in names", "bad-players", name=given)
        if len(name) > MAX_PLAYERS_NAME:
            raise Illegal(f"player {i}: the name {name!r} is {len(name)} characters long; at most "
                          f"{MAX_PLAYERS_NAME} are allowed", "bad-players", name=given)
        key = unicodedata.normalize("NFC", name.casefold())
        if key in seen:
            raise Illegal(f"player {i}: the name {name!r} is the same as player {seen[key]}'s "
                          f"{names[seen[key] - 1]!r} (names must differ, ignoring case and spaces)",
                          "bad-players", name=given)
        seen[key] = i
        names.append(name)
    return names


def last_undoable(lv: Live) -> tuple[int, str, str] | None:
    """(id, actor, type) of the stored action an undo takes back now: the last one still
    in play that is not a message; None: nothing to undo."""
    if not lv.game.actions:
        return None
    live_ids = {a.get("id") for a in lv.game.actions}
    return next(((i, a, t) for i, a, t in reversed(lv.actors) if i in live_ids and t != "message"), None)


def redo_waiting(lv: Live) -> bool:
    """Whether a redo would be taken now: the last stored action is an undo, something to put back."""
    return bool(lv.actors) and lv.actors[-1][2] == "undo" and bool(lv.game.redo_stack)


def clean_action(action: dict) -> dict:
    return {k: v for k, v in action.items() if k not in LOCAL_KEYS}


def load_marked(game, actions: list[dict], marks: list[Mark] | None) -> None:
    """Load ``actions`` (no undo or redo among them) onto ``game``; with ``marks``, append
    the clock's mark of each, as :func:`trackage.turns.replay_marks` takes them."""
    if marks is None or not actions:
        game.load(actions)
        return
    state = seen(game)
    senders = [sender_of(game, actions[0])]

    def trace(g, action: dict) -> None:
        nonlocal state
        mark, state = mark_after(g, action, state, senders[-1])
        marks.append(mark)
        if len(senders) < len(actions):
            senders.append(sender_of(g, actions[len(senders)]))

    game.load(actions, trace=trace)


def build_game(meta: dict, rows: list[dict]):
    """The engine game of a stored game after its stored actions (undo/redo applied)."""
    g = new_game(meta["title"], meta["players"], meta["options"], meta["seed"],
                 meta.get("log_id") or meta["id"], validate=False)
    live = filter_actions([r["data"] for r in rows])
    if live:
        g.load(live)
    return g


class GameService:
    def __init__(self, storage: Storage, cache_size: int = 32, hooks: GameHooks | None = None,
                 changes: Changes | None = None, bot_budget: float | None = BOT_BUDGET):
        if cache_size < 1:
            raise ValueError(f"the live-game cache holds at least 1 game, not {cache_size}")
        self.storage = storage
        self.hooks = hooks  # the games' webhooks (None: none are kept or sent)
        self.changes = changes  # the live updates' waiters, told of each stored action
        self.cache_size = cache_size
        self._cache: OrderedDict[int, Live] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._game_locks: dict[int, threading.RLock] = {}
        self._catchups: dict[int, tuple[int, float]] = {}  # per game: (actions applied, seconds) since taken
        self.bots = BotRunner(self, bot_budget)  # plays the bot seats' turns in its own thread

    # ------------------------------------------------------------------ create
    def create(self, setup: CreateGame) -> dict:
        """A new game from a set-up its model checked (title, names, options, seed); the
        title's own rules (player count, options) are checked here."""
        title, names, options = setup.title, setup.players, setup.options
        seed = setup.seed if setup.seed is not None else int(time.time() * 1000) % 2_000_000_000
        hotseat = setup.hotseat if setup.hotseat is not None else len(names) == 1
        players = [{"id": i + 1, "name": n} for i, n in enumerate(names)]
        try:
            game_class(title).validate_setup(len(players), options)
            game = new_game(title, players, options, seed)  # it must start
        except GameError as e:
            raise Illegal(str(e.message), e.rule) from None
        if setup.webhooks and self.hooks is None:
            raise Illegal("this server sends no webhooks", "webhook-url")
        urls = self.hooks.check_urls(setup.webhooks) if self.hooks is not None else []
        gid, seat_list = self.storage.create_game(title, players, options, seed, hotseat=hotseat,
                                                  to_act=to_act_of(game), clock=setup.clock, bots=setup.bots)
        if self.hooks is not None:
            self.hooks.add_game_hooks(gid, urls)
        if setup.bots:
            self.bots.kick(gid)  # a bot may be the first to act
        return {"id": gid, "seats": [{"player": s["player"], "token": s["token"],
                                      **({"bot": setup.bots[s["player_id"]]} if s["player_id"] in setup.bots else {})}
                                     for s in seat_list]}

    def import_log(self, data: ImportLog) -> dict:
        """A game from a log its model checked (its shape and title); it must replay."""
        title = data.title
        rows = []
        last = 0
        ids_ok = all(isinstance(a.get("id"), int) and not isinstance(a.get("id"), bool) for a in data.actions)
        for a in data.actions:
            a = dict(a)
            if ids_ok and a["id"] > last:
                last = a["id"]
            else:
                ids_ok = False
            rows.append(a)
        if not ids_ok:  # renumber (undo's action_id refers to ids: only when they were usable)
            if any(a.get("type") in META and a.get("action_id") not in (None, 0) for a in rows):
                raise Illegal("the log's action ids are not increasing integers", "bad-log")
            for i, a in enumerate(rows, start=1):
                a["id"] = i
        settings = data.settings
        options = [str(o) for o in settings.get("optional_rules") or []]
        players = [{"id": p["id"], "name": str(p["name"])} for p in data.players]
        seed = seed_for(data.id, settings)
        meta = {"id": data.id, "title": str(title), "players": players, "options": options,
                "seed": seed, "log_id": data.id}
        try:
            hist = History(meta, [{"id": a["id"], "data": a, "actor": None} for a in rows], clock=True)
        except (TrackageError, ValueError, KeyError, TypeError, AttributeError) as e:
            raise Illegal(f"the log cannot be set up: {e}", "bad-log") from None
        if hist.error is not None:
            err = hist.error
            failing = hist.final_live[hist.applied] if hist.applied < len(hist.final_live) else None
            raise Illegal(f"the log does not replay: action {failing.get('id') if failing else '?'} "
                          f"({failing.get('type') if failing else '?'}): {getattr(err, 'message', err)}",
                          "does-not-replay", action=failing, failed_rule=getattr(err, "rule", "engine-error"))
        game = hist.final
        status = "finished" if game.finished else "active"
        gid, seat_list = self.storage.create_game(
            str(title), players, options, seed, hotseat=True, source="import", log_id=data.id,
            initial_actions=rows, status=status, result=game.result() if game.finished else None,
            to_act=to_act_of(game))
        stored = self.storage.game(gid) or {}
        hist.meta = {**meta, "id": gid, "hotseat": True, "source": "import",
                     "created_at": stored.get("created_at", time.time())}  # (when imported: the clock's restart)
        live_obj = Live(gid, hist.meta, game, rows[-1]["id"] if rows else 0,
                        [(a["id"], None, a.get("type")) for a in rows], hist, marks=hist.marks)
        self._put(live_obj)
        return {"id": gid, "seats": [{"player": s["player"], "token": s["token"]} for s in seat_list],
                "action_count": live_obj.last_id, "finished": game.finished}

    # ------------------------------------------------------------------ loading
    def _lock_for(self, gid: int) -> threading.RLock:
        with self._cache_lock:
            lk = self._game_locks.get(gid)
            if lk is None:
                lk = self._game_locks[gid] = threading.RLock()
            return lk

    def _put(self, live: Live) -> None:
        with self._cache_lock:
            self._cache[live.gid] = live
            self._cache.move_to_end(live.gid)
            while len(self._cache) > self.cache_size:
                gone, _lv = self._cache.popitem(last=False)
                self._catchups.pop(gone, None)

    def cached(self) -> list[int]:
        """The ids of the games cached here, least recently used first."""
        with self._cache_lock:
            return list(self._cache)

    def _drop(self, gid: int) -> None:
        with self._cache_lock:
            self._cache.pop(gid, None)

    def meta(self, gid) -> dict:
        if not isinstance(gid, int):
            raise NotFound(f"no game {gid!r}", "unknown-game")
        m = self.storage.game(gid)
        if m is None:
            raise NotFound(f"no game {gid}", "unknown-game")
        return m

    def take_catchup(self, gid: int) -> tuple[int, float]:
        """How many stored actions this process applied to the game to catch up with the
        database (a cold load: all of them), and in how many seconds, since the last call."""
        with self._cache_lock:
            return self._catchups.pop(gid, (0, 0.0))

    def _count_catchup(self, gid: int, n: int, t0: float) -> None:
        with self._cache_lock:
            done, secs = self._catchups.get(gid, (0, 0.0))
            self._catchups[gid] = (done + n, secs + time.perf_counter() - t0)

    def live(self, gid: int) -> Live:
        """The cached live game, caught up with the database (call under the game's lock
        when you change it)."""
        with self._lock_for(gid):
            with self._cache_lock:
                lv = self._cache.get(gid)
            t0 = time.perf_counter()
            if lv is None:
                meta = self.meta(gid)
                rows = self.storage.actions(gid)
                hist = History(meta, rows, clock=has_clock(meta))
                lv = Live(gid, meta, hist.final, rows[-1]["id"] if rows else 0,
                          [(r["id"], r["actor"], r["data"].get("type")) for r in rows], hist, marks=hist.marks)
                self._put(lv)
                self._count_catchup(gid, len(rows), t0)
                return lv
            last = self.storage.last_action_id(gid)
            if last != lv.last_id:
                new = self.storage.actions(gid, after=lv.last_id)
                if any(r["data"].get("type") in META for r in new):
                    self._drop(gid)
                    return self.live(gid)
                marks: list[Mark] = []
                try:
                    load_marked(lv.game, [r["data"] for r in new], marks if lv.marks is not None else None)
                except Exception:  # noqa: BLE001 - rebuild from scratch
                    self._drop(gid)
                    return self.live(gid)
                lv.last_id = new[-1]["id"]
                lv.history = None
                if lv.marks is not None:  # the clock's marks kept up (no replay of the whole game)
                    lv.marks[1].extend(marks)
                lv.actors.extend((r["id"], r["actor"], r["data"].get("type")) for r in new)
                self._count_catchup(gid, len(new), t0)
            self._put(lv)
            return lv

    def history(self, gid: int):
        lv = self.live(gid)
        with self._lock_for(gid):
            if lv.history is None:
                lv.history = History(lv.meta, self.storage.actions(gid))
            return lv.history

    def game_at(self, gid: int, n: int | None):
        """The game after the stored actions with id <= ``n`` (the history view; None: now),
        and that id."""
        lv = self.live(gid)
        if n is None or n >= lv.last_id:
            return lv.game, lv.last_id
        n = max(0, n)
        return self.history(gid).game_at(n), n

    # ------------------------------------------------------------------ seats
    def seat(self, gid: int, token: str | None) -> dict | None:
        if not token:
            return None
        return self.storage.seat_for_token(gid, token)

    def locked(self, gid: int) -> threading.RLock:
        """The game's lock: hold it while reading a live game (asking for legal actions
        touches the engine's route memory; another request may be acting)."""
        return self._lock_for(gid)

    def legal(self, lv: Live, *, routes: bool = False, shared: bool = False) -> list[dict]:
        """The live game's legal actions, asked of the engine once per stored action; copies
        (``shared``: the kept listing itself, for a caller that only reads it, as the state's
        JSON does). A ``run_routes`` is listed without the router's suggestion (the route
        search behind it can take a while late in a game) unless ``routes`` (the engine
        remembers it)."""
        with self._lock_for(lv.gid):
            if lv.legal is None or lv.legal[0] != lv.last_id:
                lv.legal = (lv.last_id, [] if lv.game.finished else lv.game.legal_actions(routes=False))
            listing = lv.legal[1]
            if routes:
                return copy.deepcopy(with_suggestions(lv.game, listing))
            return listing if shared else copy.deepcopy(listing)

    def seat_legal(self, game, seat: dict | None, lv: Live | None = None, *, routes: bool = False,
                   shared: bool = False) -> list[dict]:
        """Legal actions the seat may take now (a hotseat token: all); ``lv``: the live
        game ``game`` is (its legal actions are cached); ``routes``: a ``run_routes`` with the
        router's suggestion; ``shared``: the kept actions, not copies, to read only (see
        :meth:`legal`)."""
        if seat is None or game.finished:
            return []
        acts = (self.legal(lv, routes=routes, shared=shared) if lv is not None and lv.game is game
                else game.legal_actions(routes=routes))
        bots = {} if lv is None or seat.get("bot") else bot_levels(lv.meta)  # not offered to humans
        if seat["player_id"] is None and not bots:
            return acts
        out = []
        for a in acts:
            try:
                c = controller(game.index.resolve(a))
            except GameError:
                continue
            if c is not None and str(c.id) in bots:
                continue
            if c is None or seat["player_id"] in (None, str(c.id)):
                out.append(a)
        return out

    # ------------------------------------------------------------------ acting
    def act(self, gid: int, seat: dict, sent: Action, base_url: str = "") -> Live:
        """Apply an action (its model checked its id and type) of a seat of the game (the
        route found the game and the seat); when the players to act change, the game's
        webhooks are told (links from ``base_url``, the server's address)."""
        with self._lock_for(gid):
            lv = self.live(gid)
            before = to_act_of(lv.game)
            lv = self._act(gid, seat, sent, lv)
            after = to_act_of(lv.game)
            if self.changes is not None:
                self.changes.publish(gid)
            if self.hooks is not None and after != before:
                self.hooks.turn_changed(gid, lv.game.TITLE, after, lv.game.round.name, lv.last_id, base_url)
            if bot_levels(lv.meta) and not lv.game.finished:
                self.bots.kick(gid, base_url)  # a bot to act next moves in the background
            return lv

    def _act(self, gid: int, seat: dict, sent: Action, lv: Live) -> Live:
        action = sent.as_dict()
        aid = sent.id
        with self._lock_for(gid):
            if aid != lv.last_id + 1:
                raise Conflict(f"stale action id {aid}: the game has {lv.last_id} actions, send {lv.last_id + 1}",
                               "stale-id", action_count=lv.last_id)
            game = lv.game
            actor = "*" if seat["player_id"] is None else seat["player_id"]
            action = clean_action(action)
            atype = action["type"]
            if atype in META:
                return self._meta_action(lv, seat, actor, action)
            if game.finished and atype != "message":
                raise Illegal("the game is over", "game-over")
            try:
                entity = game.index.resolve(action)
            except GameError as e:
                raise Illegal(e.message, e.rule) from None
            if atype != "message":
                c = controller(entity)
                if seat["player_id"] is not None and c is not None and str(c.id) != seat["player_id"]:
                    raise Forbidden(f"{game.index.name(entity)} is not yours to act for", "not-your-entity")
                if not seat.get("bot") and c is not None and str(c.id) in bot_levels(lv.meta):
                    raise Forbidden(f"{atype}: {game.index.name(entity)} is played by a bot "
                                    f"({bot_levels(lv.meta)[str(c.id)]}); a human cannot act for it", "bot-seat")
            if atype == "run_routes":
                self._fill_revenues(game, entity, action)
            action["created_at"] = int(time.time())  # when it arrived: the clock's time
            before = seen(game) if lv.marks is not None else None
            sender = sender_of(game, action) if lv.marks is not None else None
            label = logged_label(game, action) if lv.history is not None else None
            try:
                game.process(action)
            except GameError as e:
                raise Illegal(e.message, e.rule) from None
            except Exception as e:
                log.exception("game %s: action %s raised", gid, aid)
                self._drop(gid)
                raise Illegal(f"the engine could not apply this action: {type(e).__name__}: {e}",
                              "engine-error") from None
            made = game.actions[-1].get("auto_actions") if game.actions else None
            if made:  # what the players' programs did after it is stored with it (as the site stores it)
                action = {**action, "auto_actions": made}
            try:
                self.storage.append_action(gid, action, actor, to_act=to_act_of(game))
            except ActionConflict:
                self._drop(gid)
                raise Conflict(f"action {aid} was stored by another request first", "stale-id",
                               action_count=self.storage.last_action_id(gid)) from None
            except Exception:
                self._drop(gid)
                raise
            lv.last_id = aid
            lv.actors.append((aid, actor, atype))
            if lv.marks is not None and before is not None:
                lv.marks[1].append(mark_after(game, action, before, sender)[0])
            if lv.history is not None:
                lv.history.append({"id": aid, "data": action, "actor": actor}, game, label)
            if game.finished:
                self.storage.set_status(gid, "finished", game.result())
            return lv

    def _fill_revenues(self, game, entity, action) -> None:
        """A run's revenue is the engine's: filled in when the client leaves it out (a
        claimed revenue is checked by the engine and refused when it differs)."""
        routes = action.get("routes")
        if not isinstance(routes, list) or not all(isinstance(r, dict) for r in routes):
            return
        if all("revenue" in r for r in routes):
            return
        try:
            trains = {t.id: t for t in game.route_trains(entity)}
            revs = game.compute_route_revenues(entity, routes, trains)
        except Exception:  # noqa: BLE001 - the engine refuses it in process()
            return
        action["routes"] = [{**r, "revenue": v} for r, v in zip(routes, revs)]

    def _meta_action(self, lv: Live, seat, actor, action) -> Live:
        """Undo (of one's own last action, while nobody acted after it) and redo."""
        game = lv.game
        atype = action["type"]
        pid = seat["player_id"]
        if atype == "undo":
            if "action_id" in action:
                raise Illegal("only the last action can be undone here", "undo-one")
            last = last_undoable(lv)
            if last is None:
                raise Illegal("nothing to undo", "nothing-to-undo")
            if pid is not None and last[1] != pid:
                raise Forbidden("you can undo only your own last action, before anyone acts after it",
                                "not-your-action")
            if last[1] in bot_levels(lv.meta) and not seat.get("bot"):
                raise Forbidden("undo: the last action is a bot's; a human cannot take it back", "bot-seat")
            stored = {"type": "undo", "entity": int(pid) if pid and pid.isdigit() else (pid or game.seats[0].id),
                      "entity_type": "player", "id": action["id"], "created_at": int(time.time())}
            game.undo()
        else:
            if not redo_waiting(lv):
                raise Illegal("nothing to redo", "nothing-to-redo")
            if pid is not None and lv.actors[-1][1] != pid:
                raise Forbidden("you can redo only your own undo", "not-your-action")
            stored = {"type": "redo", "entity": int(pid) if pid and pid.isdigit() else (pid or game.seats[0].id),
                      "entity_type": "player", "id": action["id"], "created_at": int(time.time())}
            try:
                game.redo()
            except GameError as e:
                raise Illegal(e.message, e.rule) from None
        try:
            self.storage.append_action(lv.gid, stored, actor, to_act=to_act_of(game))
        except ActionConflict:
            self._drop(lv.gid)
            raise Conflict("another request stored this action id first", "stale-id") from None
        lv.last_id = stored["id"]
        lv.actors.append((stored["id"], actor, atype))
        lv.history = None
        lv.marks = None
        return lv

    def may_undo(self, lv: Live, seat: dict | None) -> bool:
        """Whether the seat's undo would be taken now (its own last action, nobody acted after)."""
        last = last_undoable(lv)
        return (seat is not None and last is not None and seat["player_id"] in (None, last[1])
                and last[1] not in bot_levels(lv.meta))

    def may_redo(self, lv: Live, seat: dict | None) -> bool:
        """Whether the seat's redo would be taken now (the last stored action is its undo)."""
        return seat is not None and redo_waiting(lv) and seat["player_id"] in (None, lv.actors[-1][1])

    # ------------------------------------------------------------------ the clock
    def clock(self, lv: Live) -> ClockReport | None:
        """The chess clock of a game with one (or imported), from its stored actions'
        timestamps; the marks are built by one replay, then kept up by live play."""
        if not has_clock(lv.meta):
            return None
        with self._lock_for(lv.gid):
            if lv.marks is None:
                rows = self.storage.actions(lv.gid)
                lv.marks = replay_marks(build_game(lv.meta, []), [r["data"] for r in rows])
            start, marks = lv.marks
            # the tally reads the marks, the live actions and the settings, not the time now:
            # kept until the game moves (a state after each action, then its reads, share it)
            key = (lv.last_id, id(marks), len(marks), len(lv.game.actions), repr(lv.meta.get("clock")),
                   lv.meta.get("created_at"))
            if lv.clock_report is not None and lv.clock_report[0] == key:
                return lv.clock_report[1]
            live_ids = {a.get("id") for a in lv.game.actions}
            imported = lv.meta.get("source") == "import"
            start_at = lv.meta.get("created_at") if not imported else None
            # an imported log's clock stood still from its last action until the import
            resumed_at = lv.meta.get("created_at") if imported else None
            report = tally([str(p.id) for p in lv.game.seats], start, marks, clock_settings(lv.meta),
                           start_at=start_at, live_ids=live_ids, resumed_at=resumed_at, walk=lv.clock_walk)
            lv.clock_report = (key, report)
            return report

    # ------------------------------------------------------------------ views
    def log(self, gid: int) -> dict:
        """The game as an 18xx.games log: every stored action (undo/redo included)."""
        lv = self.live(gid)
        rows = self.storage.actions(gid)
        log = game_to_log(lv.game, game_id=lv.meta.get("log_id") or gid)
        log["actions"] = [copy.deepcopy(r["data"]) for r in rows]
        log["settings"]["seed"] = lv.meta["seed"]
        return log
