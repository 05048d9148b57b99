"""legal_actions() and process() agree, both directions, over random games of every title.

At every checked state each listed action type is accepted on a copy, unlisted variants
(another entity, a price out of range, another hex/rotation/city) are refused with the state
unchanged, and nothing is listed twice. ``scripts/legalcheck`` runs the same check longer.
"""

from __future__ import annotations

import pytest

from trackage.legalcheck import check_game, is_listed

# titles whose legal actions do not yet match what process() accepts (issue 7 is in progress)
PENDING: set[str] = set()
TITLES = [pytest.param(t, marks=pytest.mark.xfail(reason="issue 7: legal_actions() and process() still disagree",
                                                  strict=False)) if t in PENDING else t
          for t in ["1825", "1867", "1861", "1893", "1822", "1858", "1858India"]]


@pytest.mark.parametrize("title", TITLES)
@pytest.mark.parametrize("seed", [3])
def test_listed_actions_are_accepted_and_unlisted_refused(title, seed):
    r = check_game(title, seed, every=15, max_actions=240)
    assert r.checked_states >= 5
    assert r.accepted > 0 and r.refused > 0
    assert not r.problems, "\n".join(r.problems)


def test_is_listed_reads_price_ranges():
    legal = [{"type": "bid", "entity": 1, "entity_type": "player", "company": "X", "price": 100,
              "price_range": [100, 200], "price_step": 5}]
    base = {"type": "bid", "entity": 1, "entity_type": "player", "company": "X"}
    assert is_listed({**base, "price": 150}, legal)
    assert not is_listed({**base, "price": 152}, legal)
    assert not is_listed({**base, "price": 205}, legal)
    assert not is_listed({**base, "price": 150, "entity": 2}, legal)
    assert not is_listed({**base, "price": 150, "company": "Y"}, legal)
