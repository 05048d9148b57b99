"""Rounds: an ordered list of steps over an ordered list of entities.

An action goes to the first active step that is blocking or accepts its type;
after it, blocking steps with nothing to do are skipped (their ``skip`` may have
side effects, e.g. a withheld dividend), then the round moves on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from .errors import GameError, OutOfTurnError
from .rewind import Tracked


def starting_at(seq: list[Any], first: Any) -> list[Any]:
    """The entries of ``seq`` in turn from ``first`` (which must be one of them)."""
    i = seq.index(first)
    return seq[i:] + seq[:i]


def ranged(action: dict[str, Any], lo: int, hi: int, step: int = 1) -> dict[str, Any]:
    """A legal action whose price may be anything from ``lo`` to ``hi`` in steps of ``step``:
    given at ``lo``, with the range and a few canonical values (for bots and menus)."""
    hi = lo + (hi - lo) // step * step if hi >= lo else lo
    mid = lo + ((hi - lo) // 2) // step * step
    return {**action, "price": lo, "price_range": [lo, hi], "price_step": step,
            "canonical_prices": sorted({lo, mid, hi})}


class Step(Tracked):
    """A unit of a round. Subclasses fill ``HANDLERS``: action type -> the method (function or
    name) that processes it. The table is resolved when the class is defined, against the
    class itself (so a subclass's override of a handler is the one called), and a handler
    that does not exist is an error at import, not at play."""
    IN_PLACE_PARTS: ClassVar[tuple[str, ...]] = ("auction",)

    HANDLERS: ClassVar[dict[str, Any]] = {}
    #: What the step is about, for the player (default: the class name); or override :meth:`description`.
    DESCRIPTION: ClassVar[str] = ""
    DISPATCH: ClassVar[dict[str, Callable[..., object]]] = {}
    BLOCKS = True
    # the options it was made with (plain values, never changed after): copies share them
    CLONE_SHARE: ClassVar[tuple[str, ...]] = ("opts",)
    #: whether this class's ``skip`` (and the ``pass_`` it calls) writes, beyond the step's own
    #: ``passed``, only what no step question of its round reads (``active``, ``blocks``,
    #: ``blocking``, ``has_actions``, ``actions``, ``current_entity``) and leaves the round's
    #: operator as it was: :meth:`Round.skip_steps` then treats it as the base skip (the steps it
    #: found inactive stay so, its answer stands). Off for a class that defines ``skip`` or
    #: ``pass_`` (itself or through a base before the one that set it) unless it says so in its
    #: own body; every step of the rounds the class is used in was read for it
    SKIP_WRITES_UNREAD: ClassVar[bool] = False
    #: whether the class keeps the base "active?", the base "blocks?", and the base "blocking?"
    #: with the base "anything now?" and "whose turn?" (set for each class as it is made): the
    #: round's per-action questions read these answers instead of comparing the methods
    PLAIN_ACTIVE: ClassVar[bool] = True
    PLAIN_BLOCKS: ClassVar[bool] = True
    PLAIN_BLOCKING: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.PLAIN_ACTIVE = cls.active is Step.active
        cls.PLAIN_BLOCKS = cls.blocks is Step.blocks
        cls.PLAIN_BLOCKING = cls.blocking is Step.blocking and cls.has_current_actions is Step.has_current_actions \
            and cls.current_entity is Step.current_entity
        table = {}
        for atype, handler in cls.HANDLERS.items():
            name = handler if isinstance(handler, str) else getattr(handler, "__name__", None)
            func = getattr(cls, name, None) if name else None
            if not callable(func):
                raise TypeError(f"{cls.__name__}: no handler {handler!r} for action type {atype!r}")
            table[atype] = func
        cls.DISPATCH = table
        # :meth:`has_actions` answers for the :meth:`actions` it was written beside: where a class
        # (or a base later in its MRO) overrides ``actions`` without its own ``has_actions``,
        # an inherited shortcut would answer for another list, so the class gets the default
        mro = cls.__mro__
        lister = next(k for k in mro if "actions" in k.__dict__)
        shortcut = next(k for k in mro if "has_actions" in k.__dict__)
        if mro.index(shortcut) > mro.index(lister):
            cls.has_actions = Step.has_actions  # type: ignore[method-assign]
        # likewise :meth:`answers`
        answerer = next(k for k in mro if "answers" in k.__dict__)
        if mro.index(answerer) > mro.index(lister):
            cls.answers = Step.answers  # type: ignore[method-assign]
            answerer = Step
        # and :meth:`accepts`, which answers for the :meth:`answers` (and list) beside it
        if mro.index(next(k for k in mro if "accepts" in k.__dict__)) > min(mro.index(answerer), mro.index(lister)):
            cls.accepts = Step.accepts  # type: ignore[method-assign]
        # the skip's mark answers for the skip and pass_ of the class that set it
        marker = next(k for k in mro if "SKIP_WRITES_UNREAD" in k.__dict__)
        skipper = min(mro.index(next(k for k in mro if "skip" in k.__dict__)),
                      mro.index(next(k for k in mro if "pass_" in k.__dict__)))
        if mro.index(marker) > skipper:
            cls.SKIP_WRITES_UNREAD = False

    def __init__(self, game: Any, round_: Any, **opts: Any) -> None:
        self.game = game
        self.round = round_
        self.opts = opts
        self.passed = False
        self.acted = False

    # --- state
    def round_state(self) -> dict[str, Any]:
        return {}

    def setup(self) -> None:
        pass

    def active(self) -> bool:
        return not self.passed

    def pass_(self) -> None:
        self.passed = True

    def unpass(self) -> None:
        # (written only when changed: each write is the undo journal's in live play)
        if self.passed:
            self.passed = False
        if self.acted:
            self.acted = False

    def blocks(self) -> bool:
        opts = self.opts  # (most steps have no options: the class's answer without a look-up)
        blocks: bool = opts.get("blocks", self.BLOCKS) if opts else self.BLOCKS
        return blocks

    def current_entity(self) -> Any:
        rnd = self.round
        if rnd.PLAIN_OPERATOR:  # (the base :meth:`Round.current_entity_of_round` inline: asked very often)
            ents, i = rnd.entities, rnd.entity_index
            return ents[i] if ents and i < len(ents) else None
        return rnd.current_entity_of_round()

    def active_entities(self) -> list[Any]:
        e = self.current_entity()
        return [e] if e is not None else []

    def current_actions(self) -> list[str]:
        e = self.current_entity()
        if e is None or getattr(e, "closed", False):
            return []
        return self.actions(e)

    def has_current_actions(self) -> bool:
        """Whether :meth:`current_actions` lists anything (asked through :meth:`has_actions`)."""
        e = self.current_entity()
        return e is not None and not getattr(e, "closed", False) and self.has_actions(e)

    def blocking(self) -> bool:
        return self.blocks() and self.has_current_actions()

    def blocking_for(self, entity: Any, has: bool) -> bool:
        """:meth:`blocking`, told ``has``, whether ``entity`` has actions now: when ``entity``
        is the step's current entity that is the answer, not worked out again."""
        if type(self).blocking is not Step.blocking:
            return self.blocking()
        if not self.blocks():
            return False
        e = self.current_entity()
        if e is entity:
            return e is not None and not getattr(e, "closed", False) and has
        return self.has_current_actions()

    def actions(self, entity: Any) -> list[str]:
        return []

    def has_actions(self, entity: Any) -> bool:
        """Whether :meth:`actions` lists anything for ``entity``: the round's "active?" and
        "blocking?" questions. Default: the list, worked out. A step whose list is costly may
        answer sooner (stopping at the first kind it allows), with the same truth value; a
        subclass that overrides :meth:`actions` without this gets the default back."""
        return bool(self.actions(entity))

    def answers(self, entity: Any, atype: str) -> tuple[bool, bool]:
        """For an action of ``atype`` by ``entity``, the round's two questions: whether
        :meth:`actions` lists ``atype``, and whether it lists anything. Default: the list,
        worked out. A step whose list is costly may answer from the one kind asked (the same
        truths); a subclass that overrides :meth:`actions` without this gets the default back."""
        acts = self.actions(entity)
        return atype in acts, bool(acts)

    def accepts(self, entity: Any, atype: str) -> bool:
        """The first of :meth:`answers` (whether :meth:`actions` lists ``atype`` for ``entity``),
        asked only where :meth:`has_actions` of ``entity`` is known true for this very state (the
        round's question after the skip stopped at this step, nothing moved since). Default:
        :meth:`answers`' own; a step whose "anything?" costs may answer without it. A subclass
        that overrides :meth:`answers` or :meth:`actions` without this gets the default back."""
        return self.answers(entity, atype)[0]

    def skip(self) -> None:
        self.pass_()

    def process_pass(self, action: dict[str, Any], entity: Any) -> None:
        self.pass_()

    def description(self) -> str:
        return self.DESCRIPTION or type(self).__name__

    def why_not(self, action: dict[str, Any], entity: Any) -> None:
        """A hook for a round that explains refusals: raise the GameError naming the rule
        ``action`` breaks when this step knows it better than the dispatcher (default: nothing)."""

    def action_label(self, entity: Any, action: dict[str, Any]) -> str | None:
        """Title hook: ``action`` (one this step lists or processes for ``entity``) in the
        step's own words, for people (the web's buttons); None leaves it to the generic
        labels. Default: a company's ``choose_ability`` in the words of its
        :meth:`ability_choices`, None for anything else."""
        if action.get("type") != "choose_ability":
            return None
        label = self.ability_choices(entity).get(action.get("choice"))
        return None if label is None else str(label)

    # --- a company's ability choices (the ``choose_ability`` action)
    def ability_choices(self, entity: Any) -> dict[Any, Any]:
        """Title hook: the choices ``entity`` (a company) may make now with ``choose_ability``,
        each with its words. Default: none."""
        return {}

    def ability_offers(self, entity: Any) -> list[dict[str, Any]]:
        """A ``choose_ability`` for each of :meth:`ability_choices`, when the step offers
        ``entity`` that action now (for :meth:`legal_actions`)."""
        if "choose_ability" not in self.actions(entity):
            return []
        return [{"type": "choose_ability", "choice": c} for c in self.ability_choices(entity)]

    def process_choose_ability(self, action: dict[str, Any], entity: Any) -> None:
        """One of :meth:`ability_choices` (else ``bad-choice``), made by :meth:`ability_chosen`."""
        choice = action.get("choice")
        if choice not in self.ability_choices(entity):
            raise GameError(f"{choice!r} is not a choice of {entity.name} now", rule="bad-choice")
        self.ability_chosen(entity, choice, action)

    def ability_chosen(self, entity: Any, choice: Any, action: dict[str, Any]) -> None:
        """Title hook: what a company's ability choice (checked one of :meth:`ability_choices`)
        does. Default: nothing."""

    def auto_actions(self, entity: Any) -> list[dict[str, Any]]:
        """What ``entity``'s programmed actions (:mod:`trackage.core.programs`) do now, in this
        step, as actions to process. Default: nothing."""
        return []

    def program_enabled(self, player: Any) -> None:
        """Title hook: ``player`` has just enabled a programmed action while this step is in the
        round (:mod:`trackage.core.programs`). Default: nothing."""

    def legal_actions(self, entity: Any) -> list[dict[str, Any]]:
        """Concrete legal actions for ``entity`` (for bots and the CLI)."""
        out: list[dict[str, Any]] = []
        if "pass" in self.actions(entity):
            out.append({"type": "pass"})
        return out


class Round(Tracked):
    # what an undo saves before each live action (trackage.core.rewind): the round's own
    # containers changed in place (its steps' round state is found by in_place_containers),
    # and the parts (bids per item) whose own containers are saved too
    IN_PLACE: ClassVar[tuple[str, ...]] = ("pass_order",)
    IN_PLACE_PARTS: ClassVar[tuple[str, ...]] = ("bids",)
    NAME = "Round"
    #: whether what :meth:`skip_steps` found answers the :meth:`active_step` asked right after it
    #: (in :meth:`process` and :meth:`skipped_active_step`); off, every question is asked afresh
    #: (the tests compare the two)
    KEEP_SKIP_ANSWER = True
    #: the round's kind as the site abbreviates it (a merger pass names its rounds so); "" when none
    SHORT_NAME = ""
    hinted: tuple[Step, Any, list[str] | None, tuple[Step, ...]] | None = None  # (see __init__)
    #: what the last :meth:`active_step` answered from a skip's settled answer carries: (the
    #: step, its entity, its :meth:`Step.actions` then or None, the steps the skip found
    #: inactive), for :meth:`answered` right after; None otherwise (a transient: cleared by
    #: every question, by :meth:`process` and the pipeline)
    listing: tuple[Step, Any, list[str] | None, tuple[Step, ...]] | None = None
    #: whether this class's :meth:`after_process` leaves :attr:`settled` only as an exact answer
    #: of :meth:`active_step` for the state it ends in: untouched with nothing written, or set
    #: again (:meth:`answered`) right before a return with nothing written after its question.
    #: :meth:`process` then hands that answer on (the pipeline's ``finished()``). A class that
    #: defines its own ``after_process`` is off unless it says so in its own body.
    AFTER_PROCESS_KEEPS_ANSWER: ClassVar[bool] = True
    #: whether this class keeps the base :meth:`current_entity_of_round` (set for each class when
    #: it is defined): the steps' and the round's own questions then read it inline
    PLAIN_OPERATOR: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.PLAIN_OPERATOR = cls.current_entity_of_round is Round.current_entity_of_round
        if "after_process" in cls.__dict__ and "AFTER_PROCESS_KEEPS_ANSWER" not in cls.__dict__:
            cls.AFTER_PROCESS_KEEPS_ANSWER = False

    def __init__(self, game: Any, step_classes: list[Any], round_num: int = 1) -> None:
        self.game = game
        self.round_num = round_num
        self.entity_index = 0
        self.entities = self.select_entities()
        self.last_to_act: Any = None
        self.pass_order: list[Any] = []
        self.steps: list[Step] = []
        # what :meth:`skip_steps` found, kept by :meth:`process` for the first "which step is
        # active?" of its ``after_process`` (nothing moves between them); None otherwise
        self.settled: tuple[Any, ...] | None = None
        # the step and entity whose "anything?" the pipeline knows true for the state the next
        # :meth:`process` starts in (a load's next action), taken at once by it; None otherwise
        # (an attribute of every round from the start: its writes add no key to the object)
        self.hinted: tuple[Step, Any, list[str] | None, tuple[Step, ...]] | None = None
        self.listing: tuple[Step, Any, list[str] | None, tuple[Step, ...]] | None = None
        state_keys: list[str] = []
        for sc in step_classes:
            if isinstance(sc, tuple):
                cls, opts = sc
            else:
                cls, opts = sc, {}
            step = cls(game, self, **opts)
            for k, v in step.round_state().items():
                setattr(self, k, v)
                if k not in state_keys:
                    state_keys.append(k)
            step.setup()
            self.steps.append(step)
        self.state_keys = tuple(state_keys)

    def in_place_containers(self) -> list[Any]:
        """The containers of the round's state (what its steps keep on it) as they are now:
        an undo journal saves them before each live action (a dict one level deep)."""
        out = []
        for k in self.state_keys:
            v = getattr(self, k, None)
            if type(v) in (list, dict, set):
                out.append(v)
        return out

    @property
    def name(self) -> str:
        return self.NAME

    def select_entities(self) -> list[Any]:
        return []

    def current_entity_of_round(self) -> Any:
        # (asked by every step question: the attributes read once)
        ents, i = self.entities, self.entity_index
        return ents[i] if ents and i < len(ents) else None

    def active_step(self, entity: Any = None) -> Step | None:
        if self.listing is not None:
            self.listing = None  # (the list of the question before: not this one's)
        settled = self.settled
        if settled is not None and entity is None:
            self.settled = None  # (asked once: whatever follows may move the state)
            n = len(settled)
            # (where :meth:`settled_step` answers at once, no steps found inactive or an answer
            # that stands, its answer read here: the first item)
            found = settled if n < 2 or settled[1] is None or (n > 3 and settled[3]) \
                else self.settled_step(*settled)
            if found is not None:
                step: Step | None = found[0]
                if n > 2 and settled[2] is not None and settled[2][0] is step:
                    # the list the skip worked out for the step it stopped at (and the steps it
                    # found inactive), nothing written since
                    self.listing = settled[2]
                return step
        if entity is not None:
            for s in self.steps:
                if s.active() and s.has_actions(entity) and (entity.is_company or s.blocking_for(entity, True)):
                    return s
            return None
        # (questions write nothing: the round's operator read once, for the steps that ask the
        # base "blocking?" of it)
        if self.PLAIN_OPERATOR:  # (the base :meth:`current_entity_of_round` inline)
            ents_, ix = self.entities, self.entity_index
            cur = ents_[ix] if ents_ and ix < len(ents_) else None
        else:
            cur = self.current_entity_of_round()
        open_ = cur is not None and not getattr(cur, "closed", False)
        for s in self.steps:
            t = type(s)
            if s.passed if t.PLAIN_ACTIVE else not s.active():  # (the base "active?" inline)
                continue
            if t.PLAIN_BLOCKING:
                if t.PLAIN_BLOCKS:
                    opts = s.opts
                    blocks = opts.get("blocks", s.BLOCKS) if opts else s.BLOCKS
                else:
                    blocks = s.blocks()
                if blocks and open_ and s.has_actions(cur):
                    return s
            elif s.blocking():
                return s
        return None

    @property
    def current_entity(self) -> Any:
        s = self.active_step()
        if s is None:
            return None
        ents = s.active_entities()
        return ents[0] if ents else None

    def active_entities(self) -> list[Any]:
        s = self.active_step()
        return s.active_entities() if s else []

    def finished(self) -> bool:
        return self.active_step() is None

    def actions_for(self, entity: Any) -> list[str]:
        out: list[str] = []
        for s in self.steps:
            if not s.active():
                continue
            for a in s.actions(entity):
                if a not in out:
                    out.append(a)
            if s.blocking():
                break
        return out

    def process(self, action: dict[str, Any], entity: Any) -> tuple[Any, ...] | None:
        """``action`` by ``entity`` through the step that takes it, the skip of the steps with
        nothing to do, then :meth:`after_process`. Returns what :meth:`active_step` would answer
        now (first in a tuple; a third item: the list carried with it, see :meth:`answered`) where
        the round knows it exactly (nothing written since it was asked), else None."""
        atype = action["type"]
        chosen = None
        # the step the round's answer named after the action before, and its current entity,
        # whose "anything?" was true then, handed by the pipeline where nothing has moved since (a
        # load's next action: see ``Pipeline.process_single``); taken at once, whatever follows
        hint = self.hinted
        known: Step | None = None
        listed: list[str] | None = None
        idle: tuple[Step, ...] = ()
        if hint is not None:
            self.hinted = None
            known, listed, idle = hint[0], hint[2], hint[3]
        # (the questions write nothing: the round's operator read once, for every step with the
        # base "blocking?", whose answer for ``entity`` when it is that operator is ``has``)
        if self.PLAIN_OPERATOR:  # (the base :meth:`current_entity_of_round` inline)
            ents_, ix = self.entities, self.entity_index
            cur = ents_[ix] if ents_ and ix < len(ents_) else None
        else:
            cur = self.current_entity_of_round()
        open_ = cur is not None and not getattr(cur, "closed", False)
        for s in self.steps:
            t = type(s)
            # (the base "active?" read inline, first: most steps' own; a step the skip found
            # inactive, nothing moved since, is inactive still and not asked: with the base
            # "active?" that is its ``passed``, read first)
            if s.passed if t.PLAIN_ACTIVE else ((idle and s in idle) or not s.active()):
                continue
            if s is known and entity is hint[1]:  # type: ignore[index]
                # (its list, where the skip worked it out for that entity: the list of this state)
                accepts = atype in listed if listed is not None else s.accepts(entity, atype)
                has = True
            else:
                accepts, has = s.answers(entity, atype)
            if t.PLAIN_BLOCKING:
                if t.PLAIN_BLOCKS:
                    opts = s.opts
                    blocks = opts.get("blocks", s.BLOCKS) if opts else s.BLOCKS
                else:
                    blocks = s.blocks()
                if not blocks or not open_:
                    blocking = False
                elif cur is entity:
                    blocking = has
                else:
                    blocking = s.has_actions(cur)
            else:
                blocking = s.blocking_for(entity, has)
            if blocking and not accepts:
                cur = self.current_entity
                if cur is not None and cur is not entity and atype in s.actions(cur):
                    name = self.game.index.name
                    raise OutOfTurnError(f"it is {name(cur)}'s turn, not {name(entity)}'s")
                raise GameError(f"{s.description()} cannot process {atype} by {self.game.index.name(entity)}",
                                rule="no-such-action-now")
            if blocking or accepts:
                chosen = s
                break
        if chosen is None:
            raise GameError(f"no step accepts {atype} now", rule="no-such-action-now")
        handler = chosen.DISPATCH.get(atype)
        if handler is None:
            raise GameError(f"{chosen.description()} has no handler for {atype}", rule="no-such-action-now")
        chosen.acted = True
        if atype == "pass":  # (the pass is told before what it causes: the next round's header)
            self.game.journal.record("pass", entity=getattr(entity, "id", None), step=chosen.description())
        handler(chosen, action, entity)
        if type(self).after_process_before_skip is not Round.after_process_before_skip:  # (the base's: nothing)
            self.after_process_before_skip(action)
        settled = self.skip_steps()
        keep = self.KEEP_SKIP_ANSWER
        self.settled = settled if keep else None
        try:
            self.after_process(action, entity)
            left = self.settled
        finally:
            self.settled = None
            if self.listing is not None:
                self.listing = None
        return left if keep and self.AFTER_PROCESS_KEEPS_ANSWER else None

    def answered(self, found: Step | None) -> None:
        """Note ``found``, what :meth:`active_step` has just answered, as the answer of the next
        one (:attr:`settled`): only where nothing is written between the two (an
        ``after_process`` returning at once, see :attr:`AFTER_PROCESS_KEEPS_ANSWER`)."""
        if self.KEEP_SKIP_ANSWER:  # (:meth:`answer_of` inline: asked after most actions)
            listing = self.listing
            if listing is not None:
                self.listing = None
                if listing[0] is found:  # (the question was answered from a skip's list: carried)
                    self.settled = (found, None, listing)
                    return
            self.settled = (found,)

    def answer_of(self, found: Step | None) -> tuple[Any, ...] | None:
        """What :meth:`answered` keeps for ``found``, :meth:`active_step`'s last answer (with the
        skip's list where the question was answered from one: carried), the transient list
        cleared; None where the answers are not kept."""
        if not self.KEEP_SKIP_ANSWER:
            return None
        listing = self.listing
        if listing is not None:
            self.listing = None
            if listing[0] is found:  # (the question was answered from a skip's list: carried)
                return (found, None, listing)
        return (found,)

    def set_up(self) -> tuple[Any, ...] | None:
        """:meth:`setup`, returning the answer of :meth:`active_step` for the state it ends in
        (as :meth:`answer_of` keeps it) where the setup's last question was that very one with
        nothing written after it, else None (the pipeline's ``finished()`` then asks afresh).
        Default: the setup alone (None)."""
        self.setup()
        return None

    def _started_answer(self) -> tuple[Any, ...] | None:
        """:meth:`set_up` for a round whose setup is its ``start_round`` (which returns the
        active step it found last, nothing written after it): that answer, kept."""
        found = self.start_round()  # type: ignore[attr-defined]
        kept = self.answer_of(found) if found is not None else None
        if self.listing is not None:
            self.listing = None
        return kept

    def after_process_before_skip(self, action: dict[str, Any]) -> None:
        pass

    def after_process(self, action: dict[str, Any], entity: Any) -> None:
        pass

    # look the operator up again before each step: set where a skipped step can hand the turn
    # to the next operator (a bankruptcy or nationalisation inside the skip), whose remaining
    # steps this same pass then skips or stops at, as the reference does
    OPERATOR_PER_STEP = False

    def skip_steps(self) -> tuple[Any, ...] | None:
        """Skip the steps with nothing to do, up to the first that blocks; returns that step (in
        a tuple; None in it: no step blocks) where :meth:`settled_step` may use it, else None.
        The tuple's second item: the steps found inactive whose answer nothing run since may
        have moved (no skip but the base's, which writes only its own step's ``passed``), but
        for those passed with the base "active?" (each reader reads their ``passed`` first); the
        third: the list worked out for the step stopped at (or None); the fourth: whether every
        step before the one stopped at is known settled (the answer stands)."""
        per_step = self.OPERATOR_PER_STEP
        if self.PLAIN_OPERATOR:  # (the base :meth:`current_entity_of_round` inline)
            ents_, ix = self.entities, self.entity_index
            first = cur = ents_[ix] if ents_ and ix < len(ents_) else None
        else:
            first = cur = self.current_entity_of_round()
        closed = cur is not None and getattr(cur, "closed", False)
        moved = False
        # a skip of a class's own has run since ``cur`` was read (it may have handed the turn on;
        # the base skip writes only its step's ``passed``, and the questions write nothing)
        stale = False
        idle: list[Step] = []
        acts: list[str] | None = None
        # every step before the one stopped at is known not to be :meth:`active_step`'s answer
        # now: inactive (and nothing since wrote what it reads), not blocking with the base
        # "blocking?", or passed by the base skip with the base "active?" (inactive for sure);
        # then the settled answer stands without :meth:`settled_step` asking again
        exact = not closed
        owned = False  # (a skip of a class's own ran: see the end)
        idle_from = 0  # (the steps found inactive since the last such skip: from this index on)
        base_skip, base_pass, base_active = Step.skip, Step.pass_, Step.active
        base_blocking, base_actions = Step.blocking, Step.has_actions
        for s in self.steps:
            if stale and per_step:
                cur = self.current_entity_of_round()
                moved = moved or cur is not first
                closed = cur is not None and getattr(cur, "closed", False)
                stale = False
            t = type(s)
            # (the base "active?" and "blocks?" read inline: asked of every step after every action;
            # a step passed with the base "active?" is not listed among those found inactive: every
            # reader of the list reads its ``passed`` first)
            if t.PLAIN_ACTIVE:
                if s.passed:
                    continue
            elif not s.active():
                idle.append(s)
                continue
            if t.PLAIN_BLOCKS:
                opts = s.opts
                blocks = opts.get("blocks", s.BLOCKS) if opts else s.BLOCKS
            else:
                blocks = s.blocks()
            if not blocks or closed:
                if t.blocking is not base_blocking:
                    exact = False  # (a "blocking?" of its own may block without blocks())
                continue
            if not stale and t.PLAIN_BLOCKING:
                # the base "blocking?" (it blocks, its operator is the round's, open): asked of
                # the operator read here; with the base "anything?", the list itself (kept for the
                # step stopped at, the list of the state the skip ends in)
                if cur is None:
                    blocking = False
                elif t.has_actions is base_actions:
                    acts = s.actions(cur)
                    blocking = bool(acts)
                else:
                    acts = None
                    blocking = s.has_actions(cur)
            else:
                acts = None
                blocking = s.blocking()
            if blocking:
                stopped: Step | None = s
                break
            if (t.skip is not base_skip or t.pass_ is not base_pass) and not t.SKIP_WRITES_UNREAD:
                # (a skip of its own may write what a step's "active?" reads: what was found
                # before it is looked at again once the skip is over)
                owned = True
                stale = True
                idle_from = len(idle)
            elif t.active is not base_active:
                exact = False  # (passed, it may still be active)
            s.skip()
        else:
            stopped = None
            acts = None
        if stale and per_step:
            # the operator looked up once more (the last skip may have handed the turn on): the
            # same one, open, all along, the pass was the one-operator pass and its answer stands
            cur = self.current_entity_of_round()
            moved = moved or cur is not first
            closed = cur is not None and getattr(cur, "closed", False)
        if moved or closed:
            return None
        if owned:
            # after a skip of a class's own, every step before the one stopped at looked at once
            # more, by plain reads: passed with the base "active?" (inactive whatever was
            # written), found inactive after the last such skip (only the base skip since), or
            # never blocking (the base "blocks?" and "blocking?", not blocking by the step's
            # options); any other step is asked again by :meth:`settled_step`
            tail = idle[idle_from:]
            idle = []
            for s in self.steps:
                if s is stopped:
                    break
                t = type(s)
                if t.active is base_active and s.passed:
                    continue
                if s in tail:
                    idle.append(s)
                    continue
                if exact and (t.blocking is not base_blocking or not t.PLAIN_BLOCKS
                              or (s.opts.get("blocks", s.BLOCKS) if s.opts else s.BLOCKS)):
                    exact = False
        # (exact: the answer stands as it is, see :meth:`settled_step`)
        found = tuple(idle)
        if stopped is None or (acts is None and not found):
            return (stopped, found, None, exact)
        return (stopped, found, (stopped, cur if acts is not None else None, acts, found), exact)

    def skipped_active_step(self) -> Step | None:
        """:meth:`skip_steps`, then :meth:`active_step` at once: its first question answered
        from what the skip found (nothing runs between the two)."""
        settled = self.skip_steps()
        if not self.KEEP_SKIP_ANSWER:
            return self.active_step()
        self.settled = settled
        try:
            return self.active_step()
        finally:
            self.settled = None

    def settled_step(self, stopped: Step | None, idle: tuple[Step, ...] | None = None,
                     listing: tuple[Step, Any, list[str] | None, tuple[Step, ...]] | None = None,
                     stands: bool = False) -> tuple[Step | None] | None:
        """:meth:`active_step` right after :meth:`skip_steps` stopped at ``stopped`` (None: at
        no step), with nothing moved since: that step, in a 1-tuple, unless a step before it is
        still active and might block (a skip that left it active, a ``blocking`` of its own):
        None (ask again). A step that does not block, with the base ``blocking``, never does;
        a step of ``idle`` (the skip found it inactive, nothing since moved that) is not asked.
        No ``idle`` at all, or ``stands`` (kept by :meth:`answered`, or a skip that found every
        step before ``stopped`` settled: see :meth:`skip_steps`): ``stopped`` is what
        :meth:`active_step` would answer, nothing written since, so it stands."""
        if idle is None or stands:
            return (stopped,)
        base_blocking, base_active = Step.blocking, Step.active
        for s in self.steps:
            if s is stopped:
                return (s,)
            # (a step passed with the base "active?" is inactive, listed or not; the others found
            # inactive: a few steps, compared by identity, steps define no __eq__)
            if (s.passed and type(s).active is base_active) or s in idle:
                continue
            if (type(s).blocking is not base_blocking or s.blocks()) and s.active():
                return None
        return (None,)

    def setup(self) -> None:
        pass

    def next_entity_index(self) -> None:
        if self.entities:
            self.entity_index = (self.entity_index + 1) % len(self.entities)

    def is_stock(self) -> bool:
        return False

    def is_operating(self) -> bool:
        return False

    def is_merger(self) -> bool:
        """Whether this is a merger round (where a programmed merger pass lives). Default: no."""
        return False


class StockRound(Round):
    NAME = "Stock Round"

    def select_entities(self) -> list[Any]:
        return [p for p in self.game.players if not p.bankrupt]

    def is_stock(self) -> bool:
        return True

    def setup(self) -> None:
        self.start_round()
        if self.listing is not None:  # (a transient of the questions: the setup hands no answer on)
            self.listing = None

    def start_round(self) -> Step | None:
        """The first player's turn set up (or the next one's, through :meth:`next_entity`):
        the active step found last, nothing written after it (None: none, or the round
        finished)."""
        found = self.skipped_active_step()
        if not found:
            found = self.next_entity()
        return found

    def set_up(self) -> tuple[Any, ...] | None:
        cls = type(self)
        if cls.setup is not StockRound.setup or cls.start_round is not StockRound.start_round \
                or cls.next_entity is not StockRound.next_entity:
            return super().set_up()  # (a title's own: asked afresh)
        return self._started_answer()

    def after_process(self, action: dict[str, Any], entity: Any) -> None:
        found = self.active_step()
        if found:
            self.answered(found)
            return
        found = self.next_entity()
        if found is not None:  # (the next player's first answer, nothing written since)
            self.answered(found)

    AFTER_PROCESS_KEEPS_ANSWER = True

    def finished(self) -> bool:
        return self.game.finished or all(p.passed for p in self.entities)

    def next_entity(self) -> Step | None:
        """Hand the turn on to the next entity with something to do, or finish the round.
        Returns the active step it found for that entity, the last thing asked (None: none, or
        the round finished)."""
        while True:
            if self.finished():
                self.next_entity_index()
                self.finish_round()
                return None
            if type(self).start_next_entity is StockRound.start_next_entity:
                self.hand_turn()
                found = self.skipped_active_step()
            else:  # (a title's own start: asked afresh)
                self.start_next_entity()
                found = self.active_step()
            if found:
                return found

    def start_next_entity(self) -> None:
        """Hand the turn to the next entity and set its steps up (skipping what it cannot do)."""
        self.hand_turn()
        self.skip_steps()

    def hand_turn(self) -> None:
        """Hand the turn to the next entity and set its steps up (no step skipped yet)."""
        self.next_entity_index()
        for s in self.steps:
            s.unpass()
        for s in self.steps:
            s.setup()

    def finish_round(self) -> None:
        self.game.stock_round_finished(self)


class OperatingRound(Round):
    NAME = "Operating Round"

    def select_entities(self) -> list[Any]:
        order: list[Any] = self.game.operating_order()
        return order

    def is_operating(self) -> bool:
        return True

    def setup(self) -> None:
        self.start_round()
        if self.listing is not None:  # (a transient of the questions: the setup hands no answer on)
            self.listing = None

    def start_round(self) -> Step | None:
        """The round's state set, then the first operator's turn begun (or, through
        :meth:`next_entity`, the next one's): the active step found last, nothing written after
        it (None: none found, or a title's own start)."""
        self.current_operator = None
        self.game.payout_companies()
        if self.game.HOME_TOKEN_TIMING == "operating_round":
            for c in self.entities:
                self.game.place_home_token(c)
        for e in self.entities:
            for t in e.trains:
                t.operated = False
        if not self.any_to_act():
            return None
        cls = type(self)
        if cls.start_operating is not OperatingRound.start_operating \
                or cls.next_entity is not OperatingRound.next_entity:
            self.start_operating()
            return None
        # (:meth:`start_operating`'s chain, the answer kept: the same calls in the same order)
        found = self.operator_started(chain=False)
        if found is None:
            found = self.next_entity()
        return found

    def set_up(self) -> tuple[Any, ...] | None:
        cls = type(self)
        if cls.setup is not OperatingRound.setup or cls.start_round is not OperatingRound.start_round:
            return super().set_up()  # (a title's own: asked afresh)
        return self._started_answer()

    def any_to_act(self) -> bool:
        # (asked by every finished(): a plain loop, the first operator not skipped answers)
        skip = self.skip_entity
        for e in self.entities:
            if not skip(e):
                return True
        return False

    def skip_entity(self, entity: Any) -> bool:
        closed: bool = entity.closed
        return closed

    def finished(self) -> bool:
        return self.game.finished or self.active_step() is None or not self.any_to_act()

    def after_process(self, action: dict[str, Any], entity: Any) -> None:
        if action["type"] == "message":
            return
        found = self.active_step()
        if found is not None:
            e = self.entities[self.entity_index]
            if (e.owner is not None and e.owner.is_player) or e.receivership():
                self.answered(found)
                return
        self.game.after_end_of_operating_turn(self.current_operator)
        if not self.game.finished:
            found = self.next_entity()
            if found is not None:  # (the next operator's first answer, nothing written since)
                self.answered(found)

    AFTER_PROCESS_KEEPS_ANSWER = True

    def force_next_entity(self) -> None:
        """The current operator left mid-turn (it closed): its steps end, the next one operates."""
        for s in self.steps:
            s.pass_()
        self.next_entity()

    def next_entity(self) -> Step | None:
        """Hand the turn on to the next operator with something to do. Returns the active step
        its start found, the last thing asked (None: none operates)."""
        while True:
            if self.entity_index == len(self.entities) - 1:
                return None
            self.next_entity_index()
            if self.skip_entity(self.entities[self.entity_index]):
                continue
            for s in self.steps:
                s.unpass()
            for s in self.steps:
                s.setup()
            if type(self).start_operating is not OperatingRound.start_operating:  # (a title's own start)
                if self.start_operating(chain=False):
                    return None
                continue
            found = self.operator_started(chain=False)
            if found is not None:
                return found

    def start_operating(self, chain: bool = True) -> bool:
        """Begin the current entity's turn; returns True if it has something to do."""
        return self.operator_started(chain) is not None

    def operator_started(self, chain: bool = True) -> Step | None:
        """:meth:`start_operating`, returning the active step it found (the last thing asked),
        or None when the entity has nothing to do."""
        entity = self.entities[self.entity_index]
        if self.skip_entity(entity):
            if chain:
                self.next_entity()
            return None
        self.current_operator = entity
        self.game.start_operating_hook(self, entity)
        found = self.skipped_active_step()
        if found is None:
            self.game.after_end_of_operating_turn(entity)
            if chain:
                self.next_entity()
            return None
        return found
