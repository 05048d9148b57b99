"""A tour of the game page in every title, in a real browser: one shared log each, imported
through the lobby and cut in the middle of the game, before a company runs its trains in an
operating round (a map full of tiles). A full-page screenshot per title goes to
test-artifacts/tour/<title>.png and a phone's to <title>-phone.png; on each: no page error,
the map has its tiles and the company about to run, the cards show every company that
runs in the rest of the operating rounds, and on the phone nothing scrolls sideways."""

from __future__ import annotations

import json

import pytest

from . import test_browser as tb
from .test_browser import import_cut, step
from .webkit import ARTIFACTS

server, web_browser = tb.server, tb.web_browser  # the browser tests' fixtures

TOUR = ARTIFACTS / "tour"
PHONE = {"width": 390, "height": 844}

# title -> a shared log (the longest game of the title the fixtures hold)
LOGS = {"1822": "discard_trains_after_sr_export.json", "1825": "1825_game_end_bank.json",
        "1858": "1858_game_end_bank.json", "1858India": "hotseat_qs_b.json", "1861": "29683.json",
        "1867": "21268.json", "1893": "1893_game_end_bank.json"}


def mid_game_run(acts: list[dict]) -> int:
    """The first run of trains past the middle of the log."""
    return next(i for i, a in enumerate(acts) if i >= len(acts) // 2 and a["type"] == "run_routes" and a.get("routes"))


STOCK = {"par", "buy_shares", "sell_shares", "bid"}


def runners(acts: list[dict], k: int) -> set[str]:
    """The companies running trains from the cut on until the next stock round (they exist at the cut)."""
    out: set[str] = set()
    for a in acts[k:]:
        if a["type"] in STOCK:
            break
        if a["type"] == "run_routes" and a.get("routes"):
            out.add(str(a["entity"]))
    return out


def card_ids(pg) -> set[str]:
    return {e.get_attribute("data-company") or e.get_attribute("data-minor")
            for e in pg.query_selector_all("#cards .company-card, #cards .minor-card")}


def laid(pg) -> int:
    """Hexes showing a green or brown tile (laid: no board prints them)."""
    return len(pg.query_selector_all("#map g.hex[data-color='green'], #map g.hex[data-color='brown']"))


@pytest.mark.parametrize("title", list(LOGS))
def test_a_tour_of_the_game_page_mid_game(web_browser, server, tmp_path, title):
    TOUR.mkdir(parents=True, exist_ok=True)
    for name, viewport, extra in (("", {"width": 1500, "height": 1000}, {}),
                                  ("-phone", PHONE, {"is_mobile": True, "has_touch": True})):
        ctx = web_browser.new_context(viewport=viewport, **extra)
        pg = ctx.new_page()
        pg.set_default_timeout(30_000)
        errors: list[str] = []
        pg.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        try:
            acts, k = import_cut(pg, server, tmp_path, title, LOGS[title], mid_game_run)
            step(pg, lambda pg=pg: pg.click("#hist-now"), past="0")
            pg.wait_for_selector("#map")
            assert pg.inner_text("#round").strip().startswith("OR"), (title, pg.inner_text("#round"))
            assert laid(pg) >= 3, f"{title}: {laid(pg)} green or brown tiles on the map"
            pg.wait_for_selector("#map g.routes polyline", state="attached")  # the best run, asked after the page shows
            missing = runners(acts, k) - card_ids(pg)
            assert not missing, f"{title}: no card for {sorted(missing)}"
            assert json.loads(pg.get_attribute("#game", "data-last") or "0") > 0
            if name:
                width = int(pg.evaluate("document.documentElement.scrollWidth"))
                assert width <= PHONE["width"], f"{title}: the page is {width}px wide on a phone"
            pg.screenshot(path=str(TOUR / f"{title}{name}.png"), full_page=True)
            assert not errors, errors
        finally:
            ctx.close()
