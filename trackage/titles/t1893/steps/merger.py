"""t1893 steps: merger."""

from __future__ import annotations

from typing import ClassVar

from ....core.errors import GameError
from ....core.round import Step
from ....core.steps.choose import ChooseMixin
from ....core.steps.operating import DiscardTrain


# ============================================================== merger round
class MergerVote(ChooseMixin, Step):
    """Holders of the exchange certificates and of bought shares vote on forming the company:
    a ``special_buy`` whose ``description`` is the vote, at no cost."""

    HANDLERS: ClassVar[dict] = {"special_buy": "process_choose"}
    CHOICE_ACTION: ClassVar[str] = "special_buy"
    CHOICE_FIELD: ClassVar[str] = "description"
    CHOICE_FIXED: ClassVar[dict] = {"cost": 0}
    BAD_CHOICE_RULE: ClassVar[str] = "bad-vote"

    def active(self):
        return bool(self.round.offering)

    def description(self):
        target = self.round.merge_target
        return f"Merge of {target.name}" if target else "Merge"

    def actions(self, entity):
        ok = self.active() and entity is self.current_entity() and self.round.has_say(entity)
        return ["special_buy"] if ok else []

    def skip(self):
        if self.active():
            self.round.next_voter()

    def why_not(self, action, entity) -> None:
        if action.get("type") == "special_buy" and entity.is_player and not self.round.has_say(entity):
            target = self.round.merge_target
            raise GameError(f"{entity.name} holds nothing of {target.name if target else 'the merger'} and "
                            "has no vote", rule="no-say-in-merger")

    def choices(self, entity):
        r = self.round
        if r.yes + r.votes.get(entity, 0) >= 50 and self.game.founding_fails(r.merge_target):
            return ("no",)  # this yes would form it, which the reference fails to do (Game1893.founding_fails)
        return ("yes", "no")

    def choice_question(self, entity) -> str:
        target = self.round.merge_target
        return f"Form {target.name}" if target is not None else "Merge"

    def choice_label(self, entity, choice) -> str:
        return f"vote {choice}"

    def choose(self, entity, choice) -> None:
        """The vote is counted; while the company is still offered the next voter with a say is up."""
        self.round.handle_vote(entity, choice)
        if self.round.offering:
            self.round.next_voter()
            for _ in range(len(self.round.entities)):
                if self.round.has_say(self.current_entity()):
                    break
                self.round.next_voter()


class PotentialDiscardTrainsAfterMerge(DiscardTrain):
    """The president of a newly formed company may discard any of its trains."""

    HANDLERS: ClassVar[dict] = {"discard_train": "process_discard_train", "pass": "process_pass"}

    DESCRIPTION: ClassVar[str] = "Optional Discard of Any Trains"

    def current_entity(self):
        p = self.game.potential_discard_trains
        return p[0] if p else None

    def active(self):
        return bool(self.game.potential_discard_trains)

    def actions(self, entity):
        if entity is not self.current_entity():
            return []
        return ["discard_train"] + ([] if len(entity.trains) > self.game.train_limit(entity) else ["pass"])

    def discard(self, entity, train) -> None:
        """Once the company has no train left its president is done."""
        super().discard(entity, train)
        if not entity.trains:
            self.game.potential_discard_trains.pop(0)

    def process_pass(self, action, entity):
        self.game.potential_discard_trains.pop(0)  # offered only within the train limit

    def legal_actions(self, entity):
        return super().legal_actions(entity) + [{"type": a} for a in self.actions(entity) if a == "pass"]
