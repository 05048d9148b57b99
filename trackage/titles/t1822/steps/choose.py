"""t1822 steps: choose."""

from __future__ import annotations

from typing import ClassVar

from ....core.round import Step
from ....core.steps.choose import ChooseMixin


class CompanyChoices(Step):
    """A step whose companies make their choices at :attr:`CHOICE_TIME` (``choose_ability``):
    the game's ``company_choices``, made by its ``company_made_choice``."""

    CHOICE_TIME: ClassVar[str] = ""

    def ability_choices(self, entity):
        return self.game.company_choices(entity, self.CHOICE_TIME)

    def ability_chosen(self, entity, choice, action) -> None:
        self.game.company_made_choice(entity, choice, self.CHOICE_TIME)


class Choose(ChooseMixin, Step):
    """The owner of P9 may double his cash for the player order (the company's ``choose``
    choices; its owner is then done)."""

    HANDLERS: ClassVar[dict] = {"choose": "process_choose", "pass": "process_pass"}
    #: Which of the company's choices the step offers.
    KIND: ClassVar[str] = "choose"
    DESCRIPTION: ClassVar[str] = "Choose"

    def company(self, entity):
        c = self.game.index.company("P9")
        return c if c is not None and c.owner is entity else None

    def actions(self, entity):
        if entity is not self.current_entity() or self.company(entity) is None:
            return []
        return list(self.HANDLERS)

    def choices(self, entity):
        c = self.company(entity)
        return self.game.company_choices(c, self.KIND) if c else {}

    def choose(self, entity, choice) -> None:
        self.game.company_made_choice(self.company(entity), choice, self.KIND)
        self.pass_()


class SpecialChoose(Choose):
    """The owner of a company acquired this turn makes its ``special_choose`` choice."""

    HANDLERS: ClassVar[dict] = {"choose": "process_choose"}
    KIND: ClassVar[str] = "special_choose"

    def company(self, entity):
        return next((c for c in self.round.acquired_companies
                     if c.owner is entity and self.game.company_choices(c, self.KIND)), None)

    def choose(self, entity, choice) -> None:
        self.game.company_made_choice(self.company(entity), choice, self.KIND)
