# ruff: noqa: F401, F811 - the fixtures imported from test_browser are used as arguments
"""Bot seats in a real browser: a hotseat game of one human and three rule bots created from
the lobby form, played through the first operating round by clicking the human's actions while
the page follows the bots' moves in place (no page load after the first)."""

from __future__ import annotations

import re
import time

import httpx

from .test_browser import (  # the browser fixtures (page, server, web_browser) are shared
    act,
    lay_tile,
    offered,
    page,
    place_token,
    round_label,
    same_document,
    server,
    shot,
    watch_loads,
    web_browser,
)


def settle(page, server, gid, timeout=60.0) -> dict:
    """The game's state once no bot is to act, with the page showing it (updated in place)."""
    deadline = time.monotonic() + timeout
    while True:
        s = httpx.get(f"{server.url}/api/games/{gid}", timeout=30).json()
        assert s["bot_error"] is None, s["bot_error"]
        if s["bot_to_act"] is None:
            break
        assert time.monotonic() < deadline, f"the bots kept the turn: {s['to_act']}"
        time.sleep(0.1)
    page.wait_for_function(f"() => document.querySelector('#game') && "
                           f"parseInt(document.querySelector('#game').dataset.last) === {s['action_count']}")
    return s


CHOICES = ("lay", "token", "run_routes", "dividend", "bid", "par", "buy_shares", "buy_company", "buy_train", "pass")


def test_one_human_and_three_bots_from_the_lobby(page, server):
    page.goto(server.url + "/")
    page.select_option("#title", "1893")
    page.fill("#players", "Ann\nBot B\nBot C\nBot D")
    page.dispatch_event("#players", "input")
    page.fill("#bots", "2=rule 3=rule 4=rule")
    page.fill("#seed", "11")
    page.click("#create")
    page.wait_for_selector("#game")
    navs = watch_loads(page)
    gid = page.get_attribute("#game", "data-gid")
    assert "🤖 rule" in page.inner_text("#player-cards")
    shot(page, "bots-start")
    clicks: list[str] = []
    seen_or = False
    laid_in: set = set()
    for _ in range(120):
        s = settle(page, server, gid)
        label = round_label(page)
        if re.match(r"OR\b", label):
            seen_or = True
        elif seen_or or s["finished"]:
            break
        acts = offered(page)
        assert acts, f"the human has nothing to click in {label}"
        # every action offered is for the human's own entities or the human (never a bot's)
        bots = {str(p["id"]) for p in s["players"] if p["bot"]}
        assert all(str(a.get("entity")) not in bots for a, _b in acts if a.get("entity_type") == "player")
        acting = page.inner_text("#acting")
        if page.query_selector("#map g.hex.layable") and (acting, label) not in laid_in and lay_tile(page):
            laid_in.add((acting, label))
            clicks.append("lay_tile")
            continue
        city = page.query_selector("#map g.city.tokenable")
        if city is not None:
            place_token(page, city)
            clicks.append("place_token")
            continue
        chosen = None
        for t in CHOICES:
            chosen = next(((a, b) for a, b in acts if a["type"] == t and (t != "buy_shares" or
                                                                           clicks.count(t) < 4)), None)
            if chosen:
                break
        a, b = chosen or acts[0]
        act(page, b.click)
        clicks.append(a["type"])
    assert seen_or, clicks
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "bots-or1-done")
    assert navs == [] and same_document(page), f"{len(navs)} page loads after the first: {navs[:3]}"
    log = httpx.get(f"{server.url}/api/games/{gid}/log", timeout=30).json()
    ids = [x["id"] for x in log["actions"]]
    assert ids == list(range(1, len(ids) + 1)) and len(ids) > len(clicks)  # the bots moved too
    from trackage.replay import replay_data

    assert replay_data(log).error is None
