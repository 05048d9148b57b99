"""The action pipeline of a game: applying actions, the gate of live play, snapshots, history.

:class:`Pipeline` does the work behind the public play API of
:class:`~trackage.core.game.Game` (``process``, ``_apply``, ``load``, ``undo``, ``redo``):
an action's way through the rules and the round flow, the gate that refuses what
``legal_actions`` does not list, the snapshots taken before every few actions and kept for undo,
and the replay from a snapshot. It holds the game only while it works (one is made per
call, so a game's state never holds one); what it keeps between calls (the action list,
the snapshots, the redo stack, the gate's flags) lives on the game.

A title changes the pipeline through the game's hooks (``preprocess_action``,
``action_processed``, ``game_end_check``, ``end_now``, ``next_round`` ...), never here.
"""

from __future__ import annotations

import contextlib
import contextvars
import gc
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from . import schema
from .errors import ActionFormatError, GameError, GameOverError
from .journal import record_round
from .legal import META_TYPES, is_listed, share_kind
from .programs import PROGRAM_TYPES, after_action, is_available, round_changed
from .programs import process as process_program
from .rewind import Rewind, building_untracked, current, make_tracked, recording, recording_off, recording_on
from .round import Step

if TYPE_CHECKING:
    from .game import Game

# action types that never change state (besides the log)
NO_OP_TYPES = frozenset({"message"})

# fields of an action that :func:`trackage.core.legal.matches` compares as plain values (no
# price with a range, no field the engine works out, no list): a listed action with another
# value in one of them is no match
_PLAIN_FIELDS = ("hex", "tile", "rotation", "city", "train", "company", "corporation", "minor")
_ABSENT: Any = object()

# is a gated process() call running in this context (this thread, this task)? The gate checks
# the outermost call only: the trials the rules run on copies inside it are not moves. A
# context variable, so that games processed at once in other threads are gated all the same.
_GATING: contextvars.ContextVar[bool] = contextvars.ContextVar("trackage_gating", default=False)


@contextlib.contextmanager
def trials_only() -> Iterator[None]:
    """Within it, ``process()`` on a game is a trial, not a move, and is not gated: a listing
    uses it around its work, so that the rules' trials on copies (e.g. 1893's "would this
    end the round into a failed founding?") do not list the copy's actions again to check a
    move nobody makes. The trial's answer is the rules' refusal, which comes before the
    gate's, or none."""
    token = _GATING.set(True)
    try:
        yield
    finally:
        _GATING.reset(token)


def snapshot(game: Game) -> Game:
    """A frozen copy of ``game`` now (never changed; restored by copying it again). It keeps
    no snapshots of its own: the history is the game's (a snapshot holding the snapshots
    before it would keep every one ever taken alive, for the collector to scan)."""
    from .clone import clone

    if game.board is not None:
        game.board.settle_graph()
    snap = clone(game)
    snap.snapshots = {}
    return snap


class Start:
    """The start of a game that nothing changed since its class built it (a log's replay
    builds the game and loads it at once): kept in the history as what to build it from,
    not as a copy. Builds are deterministic (the same class, players, options, seed and id
    build the same state), so the copy an undo to the start restores is made only then
    (:meth:`Pipeline.start_of`), with the flags the load had set on the game when its first
    action came."""

    __slots__ = ("check_programs", "cls", "game_id", "options", "players", "seed", "strict")

    def __init__(self, game: Game) -> None:
        self.cls: type[Game] = cast("type[Game]", type(game).TRACKED_CLASS or type(game))  # (not the twin)
        self.players = tuple((p.id, p.name) for p in game.seats)
        self.options = tuple(game.raw_options)
        self.seed = game.seed
        self.game_id = game.game_id
        self.strict = game.strict
        self.check_programs = game.check_programs

    def build(self) -> Game:
        """The start, built anew as the game was (:meth:`Game.built`), then frozen as
        :func:`snapshot` freezes a copy."""
        game = self.cls.built(list(self.players), list(self.options), self.seed, self.game_id)
        game.strict = self.strict
        game.check_programs = self.check_programs
        game.loading = True
        game._rewinds = ()
        if game.board is not None:
            game.board.settle_graph()
        return game


def changed(game: Game) -> None:
    """Say that ``game``'s state was changed outside the play API (a what-if, a test's set-up):
    what was worked out for the state before (the remembered listing) is not used again."""
    game._moves = (game._moves or 0) + 1
    game._rewinds = ()  # changes made outside the record: its undo no longer fits


def listing_entities(game: Game) -> list[Any]:
    """The entities ``legal_actions`` lists actions of: the acting ones and the open private
    companies in a player's or a company's hands (their abilities)."""
    entities = game.acting_entities()
    entities += [c for c in game.listing_companies() if c not in entities]
    return entities


def _skipped(cls: type) -> tuple[str, ...]:
    """The attributes a copy of a ``cls`` starts without (``CLONE_SKIP`` along its classes)."""
    return tuple(dict.fromkeys(n for c in cls.__mro__ for n in c.__dict__.get("CLONE_SKIP", ())))


def _hide(obj: Any, names: Iterable[str], keep: tuple[str, ...] = ()) -> tuple[tuple[str, Any], ...]:
    """Take ``obj``'s own values of ``names`` (but ``keep``) away for a trial, as a copy would
    start without them (unrecorded); :func:`_show` puts them back."""
    own = obj.__dict__
    out = tuple((n, own[n]) for n in names if n not in keep and n in own)
    cls = type(obj)
    for n, _ in out:
        del own[n]
        if not hasattr(cls, n):
            own[n] = None  # (no class default: a new object's own start)
    return out


def _show(obj: Any, hidden: tuple[tuple[str, Any], ...]) -> None:
    """Put back what :func:`_hide` took (and drop what the trial left in its place)."""
    own = obj.__dict__
    for n, v in hidden:
        own[n] = v


class Pipeline:
    """The work of :meth:`Game.process` and its kin, on one game."""

    __slots__ = ("game", "granted", "hint")

    def __init__(self, game: Game) -> None:
        self.game = game
        # the action being processed when it is one of the listing handed out for this state,
        # field by field (schema.listed_index): its schema and the gate are answered
        self.granted: dict[str, Any] | None = None
        # after an action of a load (this pipeline's run of actions): the state number it ended
        # in, its round, the step the round's answer named (with the base "blocking?", so its
        # "anything?" for the operator was true) and that operator; handed to the next action's
        # round where nothing has moved since (see :meth:`process_single`); None otherwise
        self.hint: tuple[int, Any, Any, Any, list[str] | None, tuple[Any, ...]] | None = None

    # ------------------------------------------------------------- one action
    def process(self, action: dict[str, Any]) -> None:
        """Apply one action (with its embedded ``auto_actions``); on any error restore the
        game exactly as it was and re-raise the error with the action attached."""
        game = self.game
        # the gate guards the outermost call only: trials the rules run on copies are not moves
        gated = not game.loading and game.LISTED_ONLY and not _GATING.get()
        memo = game._listing
        if gated and memo is not None and memo[0] == game._moves and schema.listed_index(action, memo[1]) is not None:
            # one of the listed actions, as handed out: it fits its schema as they all do
            self.granted, misfit = action, None
        else:
            misfit = schema.check(action, loading=game.loading)
        n = len(game.actions)
        # live play records what the action changes (trackage.core.rewind): a refusal and an
        # undo put it back in place. A copy is still taken at the positions the history keeps
        # (multiples of LIVE_SNAPSHOT_EVERY), for undos further back than the records kept;
        # without a record (a title with REWIND off, a process() inside a log import), before
        # every action, and a refusal restores it
        rec = game.rewind_record() if game.REWIND and not game.loading else None
        before = snapshot(game) if rec is None or n % game.LIVE_SNAPSHOT_EVERY == 0 else None
        lengths = (n, len(game.log), len(game.warnings))
        # (the gate's flags are the pipeline's, not state: plain stores, never recorded; a
        # refusal and the end of the call set them back themselves)
        flag = object.__setattr__
        try:
            flag(game, "_gate", gated)
            flag(game, "_unlisted", None)
            token = _GATING.set(True) if gated else None
            try:
                # (as ``with recording(rec)``, without a generator's frame per action)
                mark = recording_on(rec)
                try:
                    if before is not None and n == 0 and 0 not in game.snapshots:
                        # the start, which apply() would copy again: this copy of it (kept
                        # below as the state after no action), stored as apply() stores it
                        game.snapshots = {0: before}
                    self.apply(action, live=True)
                finally:
                    recording_off(mark)
            finally:
                if token is not None:
                    _GATING.reset(token)
            if game._unlisted is not None:
                # the rules let it through, but it is no legal action: refused all the same
                raise game._unlisted
        except GameError as e:
            self.take_back(before, rec, lengths)
            raise e.with_action(action) from None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError, AssertionError) as e:
            # (an assert states what the rules guarantee for a listed action: one that fails
            # was reached by an impossible action, as a None's missing attribute would be)
            self.take_back(before, rec, lengths)
            raise ActionFormatError(f"malformed or impossible action: {type(e).__name__}: {e}", action) from e
        except Exception:
            # an engine bug: still leave the game as it was, and let the error show itself
            self.take_back(before, rec, lengths)
            raise
        finally:
            flag(game, "_gate", False)
        if misfit is not None:
            game.warnings.append(misfit)  # a log's misfit, accepted: said once it is applied
        game.redo_stack = []
        if before is not None:
            self.keep_snapshot(n, before)
        # the last REWIND_KEEP records, for undo (a copy starts with None)
        game._rewinds = (*(game._rewinds or ())[1 - game.REWIND_KEEP:], (rec, lengths)) if rec is not None else ()

    def take_back(self, before: Game | None, rec: Rewind | None, lengths: tuple[int, int, int]) -> None:
        """Leave the game as it was before the action being processed: its record put back,
        or else the copy taken before it restored."""
        game = self.game
        object.__setattr__(game, "_gate", False)
        object.__setattr__(game, "_unlisted", None)
        if rec is not None:
            self.rewind(rec, lengths)
        else:
            assert before is not None
            self.restore(before)

    def rewind(self, rec: Rewind, lengths: tuple[int, int, int]) -> None:
        """Put back what ``rec`` recorded (the game's own objects, as they were), and the
        pipeline's records (actions, log, warnings) to their ``lengths`` then; the state gets
        a new number (``_moves``): nothing remembered for a later state is used."""
        game = self.game
        moves = game._moves or 0
        rec.undo()
        game._moves = moves + 1
        self.cut_records(lengths)

    def cut_records(self, lengths: tuple[int, int, int]) -> None:
        """The game's action list, log and warnings back to ``lengths``."""
        game = self.game
        del game.actions[lengths[0]:]
        del game.log[lengths[1]:]
        del game.warnings[lengths[2]:]

    def trial(self, action: dict[str, Any], live: bool = True, loading: bool | None = None) -> None:
        """Apply ``action`` as :meth:`apply` would, on the game itself, and take it back
        (:meth:`trying`). ``loading``: the trial's mode (None: the game's). A refusal
        propagates after the take-back."""
        with self.trying(loading):
            self.apply(action, live=live)

    @contextlib.contextmanager
    def trying(self, loading: bool | None = None) -> Iterator[None]:
        """Within it, the game's changes are a trial: recorded, and taken back by their record
        at the end whatever happens (a refusal half-way included), leaving the very state it
        found: the same objects holding the same values, the same state number (``_moves``:
        what was remembered for a state reached in the trial is undone with it), flags,
        records and views. The game is seen as a copy would see it: no gate, no listing under
        way, no memo of the state before, the board's derived views built anew (the game's own
        are put back untouched). ``loading``: the trial's mode (None: the game's). A record
        around it does not see the trial's writes (records nest)."""
        game = self.game
        board = game.board
        if board is not None:
            board.settle_graph()  # as a copy does before it is taken
        moves, lengths = game._moves, (len(game.actions), len(game.log), len(game.warnings))
        snaps, was_loading = game.snapshots, game.loading
        rec = game.rewind_record()
        hidden = _hide(game, _skipped(type(game)), keep=("_moves", "_rewinds"))
        try:
            views = _hide(board, _skipped(type(board))) if board is not None else ()
            try:
                if loading is not None:
                    object.__setattr__(game, "loading", loading)
                with recording(rec):
                    yield
            finally:
                rec.undo()
                if board is not None:
                    _show(board, views)
        finally:
            self.cut_records(lengths)
            object.__setattr__(game, "snapshots", snaps)
            object.__setattr__(game, "_moves", moves)
            object.__setattr__(game, "loading", was_loading)
            _show(game, hidden)

    def apply(self, action: dict[str, Any], record: bool = True, live: bool = False) -> None:
        """Apply ``action`` and its ``auto_actions`` without the error handling of
        :meth:`process` (a log import, a replay, a trial on a copy), and record it. ``live``
        (a move through :meth:`process`): the players' programs make the auto actions."""
        rec = current()
        if rec is not None and rec.game is not self.game:
            # a trial on a copy inside a recorded action: the copy's changes are not the action's
            with recording(None):
                self.applied(action, record, live)
            return
        self.applied(action, record, live)

    def applied(self, action: dict[str, Any], record: bool = True, live: bool = False) -> None:
        """:meth:`apply` where no other game's record is being made (a load asks once)."""
        game = self.game
        if not game.actions and 0 not in game.snapshots:
            game.snapshots = {0: snapshot(game)}  # the start (a replay's load keeps a Start instead)
        atype = action["type"]
        if atype in ("undo", "redo"):
            raise ActionFormatError("undo/redo are log filters, not game actions; use Game.undo()", action)
        if game.finished and atype != "message":
            raise GameOverError(action=action)
        # what the action and its auto_actions cause is the action's: its id, or the one it will get
        game.journal.action = action.get("id") or len(game.actions) + 1
        self.process_single(action)
        if live or action.get("auto_actions"):
            # (otherwise the programs have nothing to do: no logged auto actions to process, and
            # none made outside live play)
            action = after_action(self, action, live)
        if record:
            game.actions.append(action)

    def process_single(self, action: dict[str, Any]) -> None:
        """One action through the rules, then the round flow: the end checks and the next
        rounds for as long as the current one is finished."""
        game = self.game
        atype = action["type"]
        hint = self.hint
        if hint is not None:
            self.hint = None  # (one action's: whatever follows moves the state)
        if game._gate and game._unlisted is None:
            # a specific rule's refusal, if any, is the clearer error: the rules run first
            object.__setattr__(game, "_unlisted", self.check_listed(action))  # (a flag: see process)
        # the state moves from here on: a listing remembered for the state before is retired
        game._moves = (game._moves or 0) + 1
        if atype in NO_OP_TYPES:
            if atype != "message":
                game.index.resolve(action)
            else:  # chat: said in the story, changes nothing else
                game.journal.record("chat", entity=action.get("entity"), message=str(action.get("message", ""))[:500])
            return
        if atype == "end_game":
            game.end_game("manually_ended")
            return
        if atype in PROGRAM_TYPES:  # a player's programs: state beside the rounds, as the site keeps them
            process_program(game, action, game.index.resolve(action))
            return
        entity = game.index.resolve(action)
        cls = type(game)
        base_pre, base_processed = cls.BASE_HOOKS
        if cls.preprocess_action is not base_pre:  # (the base's does nothing)
            game.preprocess_action(action, entity)
        rnd = game.round
        if hint is not None and hint[0] + 1 == game._moves and hint[1] is rnd and game.PREPROCESS_KEEPS_STEPS:
            # the state the action before ended in, unmoved (the very next state number, the same
            # round, a ``preprocess_action`` that writes nothing the steps read): the round told
            # which step's "anything?" is known (taken by its ``process`` at once)
            rnd.hinted = hint[2:]
            try:
                kept = rnd.process(action, entity)
            finally:
                if rnd.hinted is not None:
                    rnd.hinted = None
        else:
            kept = rnd.process(action, entity)
        # (the base's ``action_processed`` does nothing and says nothing)
        keeps = (cls.action_processed is not base_processed and game.action_processed(action)) \
            or game.ACTION_PROCESSED_KEEPS_STEPS
        trigger = game.end_trigger
        reason, timing = game.game_end_check()
        if timing == "immediate":
            game.end_game(reason)
        # the round's answer to "which step is active?" after the action (``kept``) still holds
        # for its ``finished()`` where the hooks between wrote nothing it reads: a title's
        # ``action_processed`` that says so (for all its calls, or returning True for this one),
        # and no end newly triggered by this check (with the trigger it had, ``game_end_check``
        # writes at most the final turn's numbers again, which no step question and no round's
        # ``finished()`` reads: only the next round's choice and ``end_now`` do)
        if kept is not None and not (keeps and game.end_trigger is trigger and game.round is rnd):
            kept = None
        # (:meth:`round_finished` inlined: asked after every action)
        if game.finished:
            stays = True
        elif kept is None:
            stays = not game.round.finished()
        else:
            now = game.round
            now.settled = kept
            try:
                stays = not now.finished()
            finally:
                now.settled = None
                if now.listing is not None:
                    now.listing = None
        if stays:
            if kept is not None and game.loading and not game.finished:
                # (:meth:`hint_next` inline: asked after most actions of a load)
                step = kept[0]
                t = type(step)
                if step is not None and t.blocking is Step.blocking \
                        and t.has_current_actions is Step.has_current_actions:
                    if t.current_entity is Step.current_entity and rnd.PLAIN_OPERATOR:
                        # (the base's, of a round with the base operator: read inline)
                        ents, ix = rnd.entities, rnd.entity_index
                        entity = ents[ix] if ents and ix < len(ents) else None
                    else:
                        entity = step.current_entity()
                    listing = kept[2] if len(kept) > 2 else None
                    acts = listing[2] if listing is not None and listing[0] is step and listing[1] is entity else None
                    idle = listing[3] if listing is not None and listing[0] is step else ()
                    self.hint = (game._moves, rnd, step, entity, acts, idle)
            return
        while True:
            kept = None
            for e in game.round.entities:
                if hasattr(e, "passed"):
                    e.passed = False
            if game.end_now(timing):
                game.end_game(reason)
            elif game.turn >= 100:
                game.end_game("dnf")
            else:
                old = game.round
                game.next_round()
                if game.finished:
                    break
                if game.round is not old:
                    record_round(game)
                round_changed(game)
                # (the setup's last answer where it is the round's answer now: its ``finished()``
                # and the next action's hint, as after an action)
                kept = game.round.set_up()
                if game.round.listing is not None:  # (a transient of the setup's questions)
                    game.round.listing = None
            if game.finished or not self.round_finished(kept):
                if kept is not None and game.loading and not game.finished:
                    self.hint_next(kept, game.round)
                break

    def hint_next(self, kept: tuple[Any, ...], rnd: Any) -> None:
        """Hand the next action of a load what ``kept``, the round's answer to "which step is
        active?" now, says (see :meth:`process_single`)."""
        game = self.game
        step = kept[0]
        t = type(step)
        if step is not None and t.blocking is Step.blocking \
                and t.has_current_actions is Step.has_current_actions:
            # its answer came from the base "blocking?": its "anything?" of its current
            # entity is true now (``Round.process`` asks :meth:`Step.accepts` alone); the
            # list the skip worked out for it, carried with the answer where nothing was
            # written since, is that entity's list now (asked instead)
            entity = step.current_entity()
            listing = kept[2] if len(kept) > 2 else None
            acts = listing[2] if listing is not None and listing[0] is step and listing[1] is entity else None
            # (and the steps the skip found inactive, inactive still: whatever the entity)
            idle = listing[3] if listing is not None and listing[0] is step else ()
            self.hint = (game._moves, rnd, step, entity, acts, idle)

    def round_finished(self, kept: tuple[Any, ...] | None) -> bool:
        """The current round's ``finished()``, its first "which step is active?" answered by
        ``kept`` when given (see :meth:`process_single`)."""
        rnd = self.game.round
        if kept is None:
            finished: bool = rnd.finished()
            return finished
        rnd.settled = kept
        try:
            finished = rnd.finished()
        finally:
            rnd.settled = None
            if rnd.listing is not None:
                rnd.listing = None
        return finished

    # ------------------------------------------------------------- the gate
    def check_listed(self, action: dict[str, Any]) -> GameError | None:
        """Live play accepts exactly the listed actions (:mod:`trackage.core.legal`); the
        game's meta actions (chat, ending the game) are not moves and are checked by the rules
        alone; a programmed action is accepted when its player may set it now
        (:func:`trackage.core.programs.available`, a listing of its own)."""
        game = self.game
        if action["type"] in PROGRAM_TYPES:
            if is_available(game, action):
                return None
            return GameError(f"{action['type']} by {game.index.name(game.index.resolve(action))} is not a program "
                             "this player may set now", rule="program-not-listed")
        if action["type"] in META_TYPES:
            if action["type"] == "end_game":
                e = game.index.resolve(action)
                if not e.is_player:
                    raise GameError("only a player of the game may end it", rule="end-game-by-player")
            return None
        e = game.index.resolve(action)
        if action is self.granted and e is not None and str(e.id) == str(action["entity"]):
            return None  # one of the listed actions of ``e`` itself (see process)
        like = self.listed_like(action, e)
        # fields whose different value refuses a match whatever else (legal.matches: not a
        # price, a derived field or a list): the listed actions that differ in one are passed
        # over before the full comparison (the same answer, fewer comparisons: a lay among
        # hundreds)
        keys = [(k, v) for k in _PLAIN_FIELDS if (v := action.get(k, _ABSENT)) is not _ABSENT and type(v) is not list]
        if keys and len(like) > 1 and action["type"] != "run_routes":  # (a run matches on its type)
            like = [la for la in like
                    if not any((b := la.get(k, _ABSENT)) is not _ABSENT and type(b) is not list and b != v
                               for k, v in keys)]
        if is_listed(action, like, partial(share_kind, game)):
            return None
        return GameError(f"{action['type']} by {game.index.name(e)} is not a legal action now",
                         rule="not-a-legal-action")

    def listed_like(self, action: dict[str, Any], entity: Any) -> list[dict[str, Any]]:
        """What ``legal_actions`` lists of ``entity``'s actions of ``action``'s type, the
        same as filtering the whole listing, but only that is worked out: steps skip the
        types not asked (see :func:`trackage.core.actions.asks`) and tile lays other hexes."""
        if entity is None:
            return []
        game = self.game
        memo = game._listing
        if memo is not None and memo[0] == game._moves:
            out = memo[1]  # the listing handed out for this very state
        else:
            game._asking = action
            try:
                out = game.legal_actions(entity, routes=False)  # a run's routes are the rules' to check
            finally:
                game._asking = None
        atype, eid = action["type"], str(entity.id)
        return [a for a in out if a["type"] == atype and str(a.get("entity")) == eid]

    # ------------------------------------------------------------- history
    def restore(self, snap: Game) -> None:
        """Make the game a copy of ``snap`` (references to ``snap`` inside it become the game);
        the game's snapshots stay its own."""
        from .clone import clone_into

        game = self.game
        snaps = game.snapshots
        clone_into(snap, game)
        game.snapshots = snaps
        game._moves = (game._moves or 0) + 1
        game._rewinds = ()  # the game's objects are new: the records name the old ones

    def start_of(self, start: Start) -> Game:
        """The copy of the start that ``start`` stands for, as :func:`snapshot` would have
        taken it (made tracked with the game, as :func:`~trackage.core.rewind.make_tracked`
        turns a game's snapshots)."""
        snap = start.build()
        if not self.game.untracked:
            make_tracked(snap)
        return snap

    def keep_snapshot(self, n: int, snap: Game) -> None:
        """Remember ``snap`` as the state after ``n`` actions: the last few, every
        ``SNAPSHOT_EVERY``-th of the last ``SNAPSHOT_SPARSE_AFTER`` actions and every
        ``SNAPSHOT_SPARSE_EVERY``-th before them (and the start), so that undo needs little
        replay and a long game does not keep a copy per ``SNAPSHOT_EVERY`` actions."""
        game = self.game
        snaps = {k: v for k, v in game.snapshots.items() if k < n}
        snaps[n] = snap
        every, far, sparse = game.SNAPSHOT_EVERY, n - game.SNAPSHOT_SPARSE_AFTER, game.SNAPSHOT_SPARSE_EVERY
        for k in [k for k in snaps if k < n - 4 and (k % every or (k < far and k % sparse))]:
            del snaps[k]
        game.snapshots = snaps

    def load(self, actions: Iterable[dict[str, Any]], strict: bool,
             trace: Callable[[Game, dict[str, Any]], object] | None, snapshots_near_end: bool = True,
             as_built: bool = False) -> None:
        """Apply the actions of an 18xx.games log as a log import (see :meth:`Game.load`).
        ``as_built``: nothing changed the game since its class built it (a replay's own game):
        its start is kept as a :class:`Start`, built anew if an undo ever reaches it."""
        game = self.game
        actions = list(actions)
        game._rewinds = ()
        game.strict = strict
        game.loading = True
        if as_built and actions and not game.actions and not game.snapshots:
            game.snapshots = {0: Start(game)}
        every = game.SNAPSHOT_EVERY
        end = len(game.actions) + len(actions)
        # without snapshots near the end, none is taken here (apply keeps the start all the same)
        near = end - 4 * every if snapshots_near_end else end + 1
        # a game of barrier-free twins makes its new objects so too (nothing records here)
        scope = building_untracked() if game.untracked else contextlib.nullcontext()
        # an import keeps nearly all it makes (the cyclic garbage of a 1,000-action log is ~23,000
        # objects); the cyclic collector, left on, rescans the growing game and the whole heap
        # (full collections of ~90 ms in a process holding a few games): off for the import,
        # and the garbage goes at the first collection after it
        collecting = gc.isenabled()
        gc.disable()
        # the record being made, asked once: no action of the load starts or ends one
        rec = current()
        apply = self.apply if rec is not None and rec.game is not game else self.applied
        try:
            with scope:
                # the actions' shapes checked at once, by type; a suspect one alone, as it comes
                suspects = schema.suspects(actions)
                for i, action in enumerate(actions):
                    n = len(game.actions)
                    if n >= near and (n % every == 0 or n >= end - 2):
                        self.keep_snapshot(n, snapshot(game))
                    misfit = schema.check(action, loading=True) if i in suspects else None
                    apply(action)
                    if misfit is not None:
                        game.warnings.append(misfit)  # tolerated from a log, and said
                    game.imported = len(game.actions)
                    if trace is not None:
                        trace(game, action)
        finally:
            game.loading = False
            if collecting:
                gc.enable()

    def replay_to(self, n: int) -> None:
        """Restore the state after ``n`` actions: the nearest snapshot, then the actions after
        it, each in the mode it was first applied (imported or live)."""
        game = self.game
        actions = game.actions
        imported = game.imported
        redo = game.redo_stack
        kept = {k: v for k, v in game.snapshots.items() if k <= n}
        loading = game.loading
        k = max(kept)  # there is always the start
        snap = kept[k]
        if isinstance(snap, Start):
            snap = kept[k] = self.start_of(snap)
        self.restore(snap)
        for i in range(k, n):
            game.loading = i < imported
            self.apply(actions[i])
        game.loading = loading
        game.imported = min(imported, n)
        game.redo_stack = redo
        game.snapshots = kept

    def undo(self) -> dict[str, Any]:
        """Take back the last action; returns it. A live action recorded by :meth:`process`
        is put back by its record; any other is replayed to from the nearest snapshot."""
        game = self.game
        if not game.actions:
            raise GameError("nothing to undo", rule="nothing-to-undo")
        last = game.actions[-1]
        n = len(game.actions) - 1
        was_imported = len(game.actions) <= game.imported
        redo = game.redo_stack + [(last, was_imported)]
        records = game._rewinds or ()
        if records and records[-1][1][0] == n and not was_imported:
            rec, lengths = records[-1]
            game._rewinds = records[:-1]
            self.rewind(rec, lengths)
            snaps = game.snapshots
            if snaps and max(snaps) > n:  # (never changed in place: kept as it is when none is dropped)
                game.snapshots = {k: v for k, v in snaps.items() if k <= n}
        else:
            self.replay_to(n)
        game.redo_stack = redo
        return last

    def redo(self) -> None:
        """Apply the last undone action again, exactly as it was first applied."""
        game = self.game
        if not game.redo_stack:
            raise GameError("nothing to redo", rule="nothing-to-redo")
        action, was_imported = game.redo_stack[-1]
        rest = game.redo_stack[:-1]
        if was_imported:
            before = snapshot(game)
            loading = game.loading
            game.loading = True
            try:
                self.apply(action)
            finally:
                game.loading = loading
            game.imported = len(game.actions)
            self.keep_snapshot(len(game.actions) - 1, before)
        else:
            game.process(action)
        game.redo_stack = rest
