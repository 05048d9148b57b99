"""t1822 steps: choose."""

from __future__ import annotations

from typing import ClassVar

from ....core.round import Step
from ....core.steps.choose import ChooseMixin


class Choose(ChooseMixin, Step):
    """The owner of P9 may double his cash for the player order."""

    HANDLERS: ClassVar[dict] = {"choose": "process_choose", "pass": "process_pass"}

    def description(self):
        return "Choose"

    def company(self, entity):
        c = self.game.index.company("P9")
        return c if c is not None and c.owner is entity else None

    def actions(self, entity):
        if entity is not self.current_entity() or self.company(entity) is None:
            return []
        return ["choose", "pass"]

    def choices(self, entity):
        c = self.company(entity)
        return self.game.company_choices(c, "choose") if c else {}

    def choose(self, entity, choice) -> None:
        """The P9 choice is made and the step is done."""
        self.game.company_made_choice(self.company(entity), choice, "choose")
        self.pass_()


class SpecialChoose(ChooseMixin, Step):
    HANDLERS: ClassVar[dict] = {"choose": "process_choose"}

    def description(self):
        return "Choose"

    def company(self, entity):
        return next((c for c in self.round.acquired_companies
                     if c.owner is entity and self.game.company_choices(c, "special_choose")), None)

    def actions(self, entity):
        if entity is not self.current_entity() or self.company(entity) is None:
            return []
        return ["choose"]

    def choices(self, entity):
        return self.game.company_choices(self.company(entity), "special_choose")

    def choose(self, entity, choice) -> None:
        """The acquired company's choice is made."""
        self.game.company_made_choice(self.company(entity), choice, "special_choose")
