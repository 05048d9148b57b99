"""The core's shared handlers (discard a train, buy a company, choose) and their title hooks."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from types import SimpleNamespace
from typing import Any, ClassVar

import pytest

from trackage.core.errors import GameError
from trackage.core.journal import Journal
from trackage.core.round import Step
from trackage.core.steps.buy_company import BuyCompanyMixin
from trackage.core.steps.choose import ChooseMixin
from trackage.core.steps.operating import DiscardTrain


def holder(name: str, cash: int = 0) -> SimpleNamespace:
    """A stand-in cash holder (what ``pay`` reads of one: its id and kind)."""
    return SimpleNamespace(id=name, name=name, cash=cash, companies=(), trains=(), is_bank=name == "bank",
                           is_player=False, is_minor=False, is_corporation=False)


# ---------------------------------------------------------------- discard_train
class FakeDiscardGame:
    def __init__(self, trains: list) -> None:
        self.trains = {t.id: t for t in trains}
        self.depot = SimpleNamespace(train_by_id=self.trains.get)
        self.discarded: list = []

    def discard_train(self, train) -> None:
        self.discarded.append(train)
        train.owner.trains = tuple(t for t in train.owner.trains if t is not train)
        train.owner = None


def discard_setup(step_cls: type[DiscardTrain]) -> tuple[Any, SimpleNamespace, list]:
    corp = holder("C")
    trains = [SimpleNamespace(id=f"{n}-{i}", name=n, obsolete=(n == "2"), owner=corp)
              for i, n in enumerate(["2", "3", "3", "P"])]
    corp.trains = tuple(trains)
    other = SimpleNamespace(id="4-0", name="4", obsolete=False, owner=holder("D"))
    game = FakeDiscardGame(trains + [other])
    return step_cls(game, SimpleNamespace()), corp, trains


class NoPullmanDiscard(DiscardTrain):
    UNDISCARDABLE_RULE = "no-pullman"

    def discardable(self, entity) -> list:
        return [t for t in entity.trains if t.name != "P"]

    def current_entity(self):
        return self.entity


def test_discard_train_checks_owner_and_discardable_then_discards():
    step, corp, trains = discard_setup(NoPullmanDiscard)
    step.entity = corp
    with pytest.raises(GameError) as e:
        step.process_discard_train({"train": "4-0"}, corp)
    assert e.value.rule == "not-owner"
    with pytest.raises(GameError) as e:
        step.process_discard_train({"train": "nope"}, corp)
    assert e.value.rule == "not-owner"
    with pytest.raises(GameError) as e:
        step.process_discard_train({"train": "P-3"}, corp)
    assert e.value.rule == "no-pullman"
    assert step.game.discarded == []
    # one choice per name, the undiscardable Pullman not offered
    assert step.legal_actions(corp) == [{"type": "discard_train", "train": "2-0"},
                                        {"type": "discard_train", "train": "3-1"}]
    step.process_discard_train({"train": "3-2"}, corp)
    assert step.game.discarded == [trains[2]]
    assert [t.id for t in corp.trains] == ["2-0", "3-1", "P-3"]


def test_discard_hook_and_key():
    class KeyedDiscard(DiscardTrain):
        def discard_key(self, train):
            return train.id

        def discard(self, entity, train) -> None:
            super().discard(entity, train)
            entity.cash += 1

        def current_entity(self):
            return self.entity

    step, corp, _ = discard_setup(KeyedDiscard)
    step.entity = corp
    assert len(step.legal_actions(corp)) == 4
    step.process_discard_train({"train": "P-3"}, corp)
    assert corp.cash == 1 and len(corp.trains) == 3


# ---------------------------------------------------------------- buy_company
class FixedPriceBuy(BuyCompanyMixin, Step):
    HANDLERS: ClassVar[dict] = {"buy_company": "process_buy_company"}

    def company_price(self, entity, company, action: dict) -> int:
        if company is None:
            raise GameError("unknown", rule="company-not-for-sale")
        return 30


def buy_setup() -> tuple[FixedPriceBuy, SimpleNamespace, SimpleNamespace, SimpleNamespace]:
    bank = holder("bank", 1000)
    seller = holder("seller", 0)
    company = SimpleNamespace(sym="P1", name="P1", owner=seller)
    seller.companies = (company,)
    loose = SimpleNamespace(sym="P2", name="P2", owner=None)
    comps = {"P1": company, "P2": loose}
    game = SimpleNamespace(bank=bank, index=SimpleNamespace(company=comps.get), journal=Journal(), turn=1)
    return FixedPriceBuy(game, SimpleNamespace()), bank, seller, company


def test_buy_company_from_an_owner_and_from_the_bank():
    step, bank, seller, company = buy_setup()
    buyer = holder("buyer", 100)
    step.process_buy_company({"company": "P1", "price": 30}, buyer)
    assert company.owner is buyer and buyer.companies == (company,) and seller.companies == ()
    assert (buyer.cash, seller.cash) == (70, 30)
    step.process_buy_company({"company": "P2", "price": 30}, buyer)
    assert [c.sym for c in buyer.companies] == ["P1", "P2"]
    assert (buyer.cash, bank.cash) == (40, 1030)
    paid = [(e["payer"], e["receiver"], e["amount"], e["why"]) for e in step.game.journal]
    assert paid == [("buyer", "seller", 30, "company_purchase"), ("buyer", "bank", 30, "company_purchase")]
    with pytest.raises(GameError) as e:
        step.process_buy_company({"company": "P9"}, buyer)
    assert e.value.rule == "company-not-for-sale"


def test_buy_company_hooks_buyer_transfer_and_after():
    events: list = []
    president = holder("president", 50)

    class ForPresident(FixedPriceBuy):
        def company_buyer(self, entity):
            return president

        def after_company_purchase(self, entity, company, action: dict) -> None:
            events.append((entity.name, company.sym, action["company"]))

    step, _, seller, company = buy_setup()
    step.__class__ = ForPresident
    corp = holder("corp", 0)
    step.process_buy_company({"company": "P1"}, corp)
    assert company.owner is president and president.cash == 20 and seller.cash == 30
    assert events == [("corp", "P1", "P1")]


# ---------------------------------------------------------------- choose
class YesNo(ChooseMixin, Step):
    HANDLERS: ClassVar[dict] = {"choose": "process_choose"}

    def choices(self, entity) -> list[str]:
        return ["yes", "no"]

    def choose(self, entity, choice) -> None:
        entity.chosen = choice


def test_choose_checks_the_offered_choices():
    step = YesNo(SimpleNamespace(), SimpleNamespace())
    who = SimpleNamespace(chosen=None)
    for bad in ("maybe", None, ["yes"]):
        with pytest.raises(GameError) as e:
            step.process_choose({"choice": bad}, who)
        assert e.value.rule == "bad-choice"
    assert who.chosen is None
    step.process_choose({"choice": "no"}, who)
    assert who.chosen == "no"


# ---------------------------------------------------------------- the titles use the core's handlers
def title_step_classes() -> list[type]:
    import trackage.titles as titles

    out = []
    for info in pkgutil.walk_packages(titles.__path__, "trackage.titles."):
        mod = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(mod, inspect.isclass):
            if cls.__module__ == mod.__name__ and issubclass(cls, Step):
                out.append(cls)
    return out


@pytest.mark.parametrize("handler", ["process_discard_train", "process_buy_company"])
def test_no_title_writes_the_shared_handler(handler):
    assert [c.__name__ for c in title_step_classes() if handler in c.__dict__] == []


def test_token_and_choose_handlers_left_in_at_most_two_families():
    for handler in ("process_place_token", "process_choose"):
        families = {c.__module__.split(".")[2].replace("india", "").replace("t1861", "t1867")
                    for c in title_step_classes() if handler in c.__dict__}
        assert len(families) <= 2, (handler, families)
