"""The web app in a real browser (Playwright driving Debian's chromium): a new hotseat game of
every title played by clicking through its first stock round and first operating round (a
tile lay on the map, a token by clicking a city, a run, a dividend where offered), and an
imported log stepped through its history, then played on (a run and a dividend). Screenshots
go to test-artifacts/browser/."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from .webkit import ARTIFACTS, Server, fixture

CHROMIUM = os.environ.get("TRACKAGE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-dev-shm-usage"]
SHOTS = ARTIFACTS / "browser"

pw = pytest.importorskip("playwright.sync_api", reason="NO PLAYWRIGHT: pip install -e '.[test]'")
if not Path(CHROMIUM).exists():
    pytest.skip(f"NO CHROMIUM: {CHROMIUM} is absent (apt-get install chromium; bash .ci/run does)",
                allow_module_level=True)

# title -> (players, options)
GAMES = {"1825": (3, ["unit_1"]), "1867": (3, []), "1861": (3, []), "1893": (3, []), "1822": (3, []),
         "1858": (4, []), "1858India": (4, [])}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    d = tmp_path_factory.mktemp("browser")
    srv = Server(f"sqlite:///{d / 'browser.db'}", d / "server.log")
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def web_browser():
    with pw.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(web_browser):
    ctx = web_browser.new_context(viewport={"width": 1500, "height": 1000})
    pg = ctx.new_page()
    pg.set_default_timeout(30_000)
    yield pg
    ctx.close()


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def last(page) -> int:
    return int(page.get_attribute("#game", "data-last"))


def round_label(page) -> str:
    return page.inner_text("#round").strip()


def act(page, click) -> None:
    """Click something that posts an action and wait for the page after it."""
    n = last(page)
    click()
    try:
        page.wait_for_function(f"() => document.querySelector('#game') && "
                               f"parseInt(document.querySelector('#game').dataset.last) > {n}", timeout=30_000)
    except Exception:  # noqa: BLE001 - any wait failure is reported with the page's error
        err = page.inner_text("#action-error") if page.query_selector("#action-error") else "?"
        raise AssertionError(f"the action after {n} did not land: {err}") from None
    page.wait_for_selector("#game")


def watch_loads(page) -> list:
    """From now on: every navigation of the page's main frame (a reload, a new document) goes
    to the list returned, and a marker is left on the window that only a new document loses."""
    navs: list = []
    page.on("framenavigated", lambda f: navs.append(f.url) if f == page.main_frame else None)
    page.evaluate("window.trackageSameDocument = true")
    return navs


def same_document(page) -> bool:
    """The marker of watch_loads is still there: no new document since."""
    return page.evaluate("window.trackageSameDocument === true")


def step(page, click, **want) -> None:
    """Click a history control and wait for #game's data attributes ``want`` (at, past)."""
    click()
    cond = " && ".join(f"document.querySelector('#game').dataset.{k} === '{v}'" for k, v in want.items())
    page.wait_for_function(f"() => {cond}")


def button(page, type_: str, text: str | None = None):
    sel = f"#actions form.action button[data-type='{type_}']"
    for b in page.query_selector_all(sel):
        if text is None or text in b.inner_text():
            return b
    return None


def lay_tile(page) -> bool:
    hexes = page.query_selector_all("#map g.hex.layable")
    for hx in hexes[:6]:
        hx.click()
        page.wait_for_selector("#tile-choices .tile-choices")
        opt = page.query_selector("#tile-choices .tile-option")
        if opt is None:
            continue
        opt.click()  # the tile on the hex, in its first legal rotation; Confirm lays it
        page.wait_for_selector("#map .lay-preview")
        act(page, lambda: page.click("#tile-confirm"))
        return True
    return False


def preview_token(page, city) -> str:
    """Click a highlighted city: its token previewed in a slot, with the price said; the words."""
    n = last(page)
    city.click()
    page.wait_for_selector("#map .token-preview")
    page.wait_for_selector("#token-controls:not([hidden])")
    assert last(page) == n, "a click on a city only previews its token"
    return page.inner_text("#token-said")


def place_token(page, city) -> None:
    """A token by clicking a highlighted city, then Confirm."""
    preview_token(page, city)
    act(page, lambda: page.click("#token-confirm"))


def new_game(page, server, title):
    n, opts = GAMES[title]
    page.goto(server.url + "/")
    page.select_option("#title", title)
    page.fill("#players", "\n".join(["Ann", "Bob", "Cid", "Dee", "Eve"][:n]))
    page.dispatch_event("#players", "input")
    for o in opts:
        page.check(f"#options input[value='{o}']")
    page.fill("#seed", "5")
    page.click("#create")
    page.wait_for_selector("#game")
    assert page.inner_text("#seat").startswith("hotseat")


LIMITS = {"par": 3, "buy_shares": 9, "buy_company": 4, "choose": 4}


def offered(page) -> list:
    """(action, button) of every action control on the page."""
    out = []
    for f in page.query_selector_all("#actions form.action"):
        out.append((json.loads(f.get_attribute("data-action")), f.query_selector("button")))
    return out


def _target(a):
    return a.get("company") or a.get("corporation") or a.get("minor")


def play_stock_round(page, title, done) -> None:
    """Click through the first stock (and auction) rounds: par, buy, one bid per company, else pass."""
    counts: dict = {}
    bid_on: set = set()
    for _ in range(90):
        if re.match(r"OR\b", round_label(page)):
            return
        acts = offered(page)
        assert acts, f"{title}: no action offered in {round_label(page)}"
        chosen = None
        for t in ("par", "buy_shares", "buy_company", "bid", "choose"):
            cands = [(a, b) for a, b in acts if a["type"] == t]
            if t == "bid":
                cands = [(a, b) for a, b in cands if _target(a) not in bid_on]
                if cands and len(bid_on) < 10:
                    chosen = cands[0]
                    break
                continue
            if cands and counts.get(t, 0) < LIMITS[t]:
                chosen = cands[0]
                break
        if chosen is None:
            chosen = next(((a, b) for a, b in acts if a["type"] == "pass"), acts[0])
        a, b = chosen
        counts[a["type"]] = counts.get(a["type"], 0) + 1
        if a["type"] == "bid":
            bid_on.add(_target(a))
        done.add(a["type"])
        act(page, b.click)
    raise AssertionError(f"{title}: the stock round did not end ({round_label(page)})")


def play_operating_round(page, title, done) -> None:
    """Click through the first operating round: a tile on the map, a token on a city, a run,
    a dividend, a train, else pass."""
    start = round_label(page)
    assert start.startswith("OR"), start
    acting = None
    for _ in range(80):
        if round_label(page) != start or page.query_selector("#finished"):
            return
        now = page.inner_text("#acting")
        if now != acting:
            acting, done["turn"] = now, set()
        if page.query_selector("#map g.hex.layable") and "lay_tile" not in done["turn"] and lay_tile(page):
            done["all"].add("lay_tile")
            done["turn"].add("lay_tile")
            continue
        city = page.query_selector("#map g.city.tokenable")
        if city is not None:
            place_token(page, city)
            done["all"].add("place_token")
            continue
        acts = offered(page)
        chosen = None
        for t, pred in (("run_routes", lambda a: a.get("routes")), ("dividend", lambda a: a.get("kind") == "payout"),
                        ("dividend", lambda a: True), ("buy_train", lambda a: "buy_train" not in done["turn"]),
                        ("run_routes", lambda a: True)):
            chosen = next(((a, b) for a, b in acts if a["type"] == t and pred(a)), None)
            if chosen:
                break
        if chosen is None:
            chosen = next(((a, b) for a, b in acts if a["type"] == "pass"), acts[0] if acts else None)
        assert chosen is not None, f"{title}: nothing to click in {round_label(page)}"
        a, b = chosen
        act(page, b.click)
        done["all"].add(a["type"])
        done["turn"].add(a["type"])
    raise AssertionError(f"{title}: the operating round did not end")


@pytest.mark.parametrize("title", list(GAMES))
def test_first_rounds_by_clicking(page, server, title):
    new_game(page, server, title)
    navs = watch_loads(page)  # every action after the first page load changes the page in place
    shot(page, f"{title}-start")
    sr_done: set = set()
    play_stock_round(page, title, sr_done)
    shot(page, f"{title}-sr1-done")
    assert sr_done & {"par", "buy_shares", "bid", "buy_company"}, sr_done
    done = {"all": set(), "turn": set()}
    play_operating_round(page, title, done)
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, f"{title}-or1-done")
    assert "lay_tile" in done["all"], done
    assert navs == [] and same_document(page), f"{title}: {len(navs)} page loads after the first: {navs[:3]}"
    # the game's log has what was clicked, and it replays
    gid = page.get_attribute("#game", "data-gid")
    import httpx

    log = httpx.get(f"{server.url}/api/games/{gid}/log", timeout=30).json()
    types = {a["type"] for a in log["actions"]}
    assert "lay_tile" in types and types & {"par", "buy_shares", "bid", "buy_company"}
    from trackage.replay import replay_data

    assert replay_data(log).error is None
    (SHOTS / f"{title}-clicked.json").write_text(json.dumps(sorted(done["all"] | sr_done)))


# a shared log of each title (1867: test_imported_log_history_and_play_on) cut before its first
# run with a route followed by a dividend: the new games above have no trains in their first
# operating round yet
FIRST_RUNS = {"1825": "1825_game_end_bank.json", "1861": "29683.json", "1893": "1893_game_end_bank.json",
              "1822": "discard_trains_after_sr_export.json", "1858": "1858-quick-start-b.json",
              "1858India": "hotseat_qs_b.json"}


def import_cut(page, server, tmp_path, title, name, keep):
    """Import a shared log of ``title`` through the lobby, keeping the actions before the
    index ``keep(actions)``; the page shows its end."""
    data = json.loads(fixture(title, name).read_text())
    acts = data["actions"]
    i = keep(acts)
    data["actions"] = acts[:i]
    data.pop("result", None)
    f = tmp_path / f"{title}-shared-log.json"
    f.write_text(json.dumps(data))
    page.goto(server.url + "/")
    page.set_input_files("#import-file", str(f))
    page.click("#import")
    page.wait_for_selector("#game")
    return acts, i


def first_run_with_dividend(acts):
    return next(k for k, a in enumerate(acts) if a["type"] == "run_routes" and a.get("routes")
                and k + 1 < len(acts) and acts[k + 1]["type"] == "dividend"
                and acts[k + 1].get("entity") == a.get("entity"))


@pytest.mark.parametrize("title", list(FIRST_RUNS))
def test_first_run_and_dividend_by_clicking(page, server, tmp_path, title):
    import_cut(page, server, tmp_path, title, FIRST_RUNS[title], first_run_with_dividend)
    step(page, lambda: page.click("#hist-now"), past="0")
    page.wait_for_selector("#map .routes polyline", state="attached")  # the router's run, asked after the page shows
    run = button(page, "run_routes", "Run for")
    assert run is not None, f"{title}: no run offered"
    act(page, run.click)
    b = button(page, "dividend", "Pay") or button(page, "dividend")
    assert b is not None, f"{title}: no dividend offered after the run"
    act(page, b.click)
    shot(page, f"{title}-run-and-dividend")
    gid = page.get_attribute("#game", "data-gid")
    import httpx

    log = httpx.get(f"{server.url}/api/games/{gid}/log", timeout=30).json()
    assert [a["type"] for a in log["actions"][-2:]] == ["run_routes", "dividend"]
    assert sum(r["revenue"] for r in log["actions"][-2]["routes"]) > 0


@pytest.mark.parametrize("title", list(FIRST_RUNS))
def test_a_token_by_clicking_a_city(page, server, tmp_path, title):
    """The shared log cut before its first token placement: a highlighted city clicked shows
    the token in its slot with the price (nothing posted), Cancel takes it away, clicked
    again and confirmed it is placed; no page load on the way."""
    import_cut(page, server, tmp_path, title, FIRST_RUNS[title],
               lambda acts: next(k for k, a in enumerate(acts) if a["type"] == "place_token"))
    step(page, lambda: page.click("#hist-now"), past="0")
    navs = watch_loads(page)
    n = last(page)
    city = page.query_selector("#map g.city.tokenable")
    assert city is not None, f"{title}: no city to token"
    cid = city.get_attribute("data-city")
    said = preview_token(page, city)
    offers = json.loads(page.inner_text("#token-actions") or "[]")
    offer = next(o for o in offers if o["city"] == cid)
    assert offer["label"] in said and offer["where"] in said and (offer["cost_text"] or "?") in said, said
    assert page.get_attribute("#map .token-preview", "data-corp") == offer["label"]
    shot(page, f"{title}-token-preview")
    page.click("#token-cancel")
    page.wait_for_selector("#map .token-preview", state="detached")
    assert page.is_hidden("#token-controls") and last(page) == n
    # every highlighted city of the hex (OO cities ...) previews its own token
    hx = page.eval_on_selector(f"#map g.city[data-city='{cid}']", "c => c.closest('g.hex').dataset.hex")
    for other in page.query_selector_all(f"#map g.hex[data-hex='{hx}'] g.city.tokenable"):
        preview_token(page, other)
        want = other.get_attribute("data-city")
        assert page.get_attribute("#map .token-preview", "data-city") == want
    city = page.query_selector(f"#map g.city[data-city='{cid}']")
    preview_token(page, city)
    act(page, lambda: page.click("#token-confirm"))
    shot(page, f"{title}-token")
    assert navs == [] and same_document(page), f"{title}: {len(navs)} page loads: {navs[:3]}"
    gid = page.get_attribute("#game", "data-gid")
    import httpx

    log = httpx.get(f"{server.url}/api/games/{gid}/log", timeout=30).json()
    assert log["actions"][-1]["type"] == "place_token" and log["actions"][-1]["city"] == cid
    assert page.query_selector("#map .token-preview") is None


def test_imported_log_history_and_play_on(page, server, tmp_path):
    data = json.loads(fixture("1867", "21268.json").read_text())
    acts = data["actions"]
    i = next(k for k, a in enumerate(acts) if a["type"] == "run_routes" and a.get("routes")
             and acts[k + 1]["type"] == "dividend")
    data["actions"] = acts[:i]
    data.pop("result", None)
    f = tmp_path / "shared-log.json"
    f.write_text(json.dumps(data))
    page.goto(server.url + "/")
    page.set_input_files("#import-file", str(f))
    page.click("#import")
    page.wait_for_selector("#game")
    assert page.get_attribute("#game", "data-at") == "0"
    total = last(page)
    assert total == acts[i - 1]["id"]
    shot(page, "import-at-0")
    # step forward twice, back once, with the buttons
    navs = watch_loads(page)  # history steps change the page in place too
    for n in (1, 2):
        step(page, lambda: page.click("#hist-next"), at=str(n))
    step(page, lambda: page.click("#hist-prev"), at="1")
    assert page.url.endswith("?action=1")
    assert page.get_attribute("#game", "data-at") == "1"
    # the slider jumps anywhere
    target = total // 2
    step(page, lambda: page.eval_on_selector(
        "#history", f"(el) => {{ el.value = {target}; el.dispatchEvent(new Event('change', {{bubbles: true}})); }}"),
        at=str(target))
    assert page.get_attribute("#game", "data-at") == str(target)
    assert page.query_selector("#log li.current") is not None
    shot(page, "import-middle")
    # where the money went: this round's and the game's flows, in dollars (1867)
    game_rows = page.query_selector_all("#money table.money-game tbody tr")
    assert len(game_rows) >= 3
    money_text = page.inner_text("#money")
    assert "starting cash" in money_text and "$" in money_text
    caption = page.inner_text("#money table.money-round caption").strip()
    assert re.fullmatch(r"SR \d+|OR \d+\.\d+|[A-Za-z ]+ \d+", caption), caption
    # the picture: an arrow from the bank to the players (their starting cash at least), labelled in dollars
    arrow = page.query_selector("#money-flow g.flow[data-from='bank'][data-to='players']")
    assert arrow is not None and arrow.text_content().startswith("$")
    page.query_selector("#money").screenshot(path=str(SHOTS / "import-middle-money.png"))
    # the story: round headers, names (never a player's id), dollars, and lines linking to their action
    headers = [h.inner_text() for h in page.query_selector_all("#story li.header")]
    assert any("Stock Round 1" in h for h in headers) and any("Operating Round" in h for h in headers)
    story_text = page.inner_text("#story")
    assert "$" in story_text and " floats" in story_text and " runs a " in story_text
    assert not re.search(r"\b(949|4661)\b", story_text)  # player ids of this log: names are shown instead
    assert page.query_selector(f"#story li.current[data-action='{target}']") is not None or \
        page.query_selector_all(f"#story li[data-action='{target}']") == []
    page.query_selector("#story").screenshot(path=str(SHOTS / "import-middle-story.png"))
    # a log line links to its action
    step(page, lambda: page.click(f"#log li[value='{target + 3}'] a"), at=str(target + 3))
    assert page.get_attribute("#game", "data-at") == str(target + 3)
    # back to now and play on: the run (drawn on the map) and the dividend
    step(page, lambda: page.click("#hist-now"), past="0")
    assert page.get_attribute("#game", "data-past") == "0"
    page.wait_for_selector("#map .routes polyline", state="attached")  # the router's run, asked after the page shows
    shot(page, "import-run-drawn")
    act(page, button(page, "run_routes", "Run for").click)
    b = button(page, "dividend", "Pay dividends") or button(page, "dividend")
    assert b is not None
    act(page, b.click)
    shot(page, "import-after-dividend")
    assert page.query_selector("#charts svg#chart-values polyline")
    # undo my last action (the hotseat token owns every seat): the history names what it took back
    act(page, lambda: page.click("#undo"))
    assert button(page, "dividend") is not None
    assert "undo: dividend" in page.inner_text("#log li:last-child")
    # a word to the table: in the history and in the story, by name
    page.fill("#chat input[name=message]", "Nice run, Kalle")
    act(page, lambda: page.click("#chat button"))
    assert "Nice run, Kalle" in page.inner_text("#log li:last-child")
    assert "says: “Nice run, Kalle”" in page.inner_text("#story")
    # viewing now, the story opens at its end: the last line is in view
    assert page.evaluate("(() => { const ol = document.querySelector('ol.story'); "
                         "return ol.scrollTop + ol.clientHeight >= ol.scrollHeight - 2; })()")
    # the browser's back button: the history view before, still in place
    page.go_back()
    page.wait_for_function("() => document.querySelector('#game').dataset.past === '1'")
    gid = page.get_attribute("#game", "data-gid")
    assert same_document(page) and all("?action=" in u or u.endswith(f"/games/{gid}") for u in navs), navs


def test_in_place_live_update_stale_click_scroll_and_redo(page, web_browser, server):
    """Two tabs on one hotseat game: an action in one reaches the other by its live update (one
    fetch of the parts, no page load); a tab without live updates clicks on a game that moved
    on and is told so, and updated; the map keeps its view (zoom) across an action; undo, then redo."""
    new_game(page, server, "1867")
    gid = page.get_attribute("#game", "data-gid")
    tok = next(c["value"] for c in page.context.cookies() if c["name"] == f"trackage_seat_{gid}")
    other_ctx = web_browser.new_context(viewport={"width": 1500, "height": 1000})
    other_ctx.route("**/api/games/*/events", lambda route: route.abort())  # this tab hears nothing
    other = other_ctx.new_page()
    other.set_default_timeout(30_000)
    try:
        other.goto(f"{server.url}/games/{gid}?token={tok}")
        other.wait_for_selector("#game")
        navs, other_navs = watch_loads(page), watch_loads(other)
        fetched: list = []
        page.on("request", lambda r: fetched.append(r.url) if "/panels" in r.url else None)
        # the map keeps its view (zoom and pan) across an action
        page.click("#map-zoom-in")
        page.click("#map-zoom-in")
        scroll = page.get_attribute("#map", "viewBox")
        assert scroll != page.get_attribute("#map", "data-full"), "the map does not zoom"
        act(page, button(page, "pass").click if button(page, "bid") is None else button(page, "bid").click)
        page.wait_for_timeout(2500)  # the live update of this action comes (interval 1 s): no second fetch
        assert len(fetched) == 1, fetched
        assert page.get_attribute("#map", "viewBox") == scroll
        # the other tab did not hear it: its click is stale, it is told so and updated
        assert last(other) == last(page) - 1
        other.query_selector("#actions form.action button").click()
        other.wait_for_function(f"() => document.querySelector('#game').dataset.last === '{last(page)}'")
        msg = other.inner_text("#action-error")
        assert msg.startswith("the game moved on: ") and msg.endswith("; the page is updated"), msg
        shot(other, "in-place-stale-click")
        # an action in the other tab reaches this one by its live update, in place
        n = last(page)
        act(other, lambda: other.query_selector("#actions form.action button").click())
        page.wait_for_function(f"() => document.querySelector('#game').dataset.last === '{n + 1}'")
        page.wait_for_timeout(1500)
        assert len(fetched) == 2, fetched
        # undo (this page's own action is the last), then redo
        act(page, button(page, "pass").click)
        act(page, lambda: page.click("#undo"))
        assert page.query_selector("#redo") is not None
        act(page, lambda: page.click("#redo"))
        assert page.query_selector("#redo") is None and "redo" in page.inner_text("#log li:last-child")
        shot(page, "in-place-after-redo")
        assert navs == [] and other_navs == [] and same_document(page) and same_document(other)
    finally:
        other_ctx.close()


def test_cards_trains_phases_rules_and_an_auction(page, server, tmp_path):
    """An imported 1822 log cut at its first run: the entity cards, the train roster, the phase
    table and the rules in effect; stepped back to the bid boxes: the bids, their leaders and
    the next bids, swapped in place; the whole log: the end in words and the bank broken."""
    import_cut(page, server, tmp_path, "1822", FIRST_RUNS["1822"], first_run_with_dividend)
    step(page, lambda: page.click("#hist-now"), past="0")
    assert page.query_selector_all("#player-cards .entity-card")
    assert page.query_selector_all("#company-cards .entity-card")
    assert "£" in page.inner_text("#player-cards") and len(page.query_selector_all("#phases tr.current-phase")) == 1
    privates = page.eval_on_selector_all("#privates tr[data-private]", "rs => rs.map(r => r.dataset.private)")
    assert privates and all(s[0] == "P" for s in privates)
    assert page.is_hidden("#auctions")
    page.query_selector("#cards").screenshot(path=str(SHOTS / "cards-1822-companies.png"))
    page.query_selector("#trains").screenshot(path=str(SHOTS / "cards-1822-trains-phases.png"))
    page.query_selector("#rules").screenshot(path=str(SHOTS / "cards-1822-rules.png"))
    gid = page.get_attribute("#game", "data-gid")
    page.goto(server.url + f"/games/{gid}?action=3")
    watch_loads(page)
    assert page.is_visible("#auction-table") and page.query_selector("#auctions tr.has-bid")
    page.query_selector("#auctions").screenshot(path=str(SHOTS / "cards-1822-bid-boxes.png"))
    step(page, lambda: page.click("#hist-next"), at="4")
    assert same_document(page) and page.is_visible("#auction-table")
    data = json.loads(fixture("1822", FIRST_RUNS["1822"]).read_text())
    f = tmp_path / "1822-whole.json"
    f.write_text(json.dumps(data))
    page.goto(server.url + "/")
    page.set_input_files("#import-file", str(f))
    page.click("#import")
    page.wait_for_selector("#game")
    step(page, lambda: page.click("#hist-now"), past="0")
    assert "the bank has broken" in page.inner_text("#finished") and page.inner_text("#bank") == "broken"
    assert "the bank has broken" in page.inner_text("#end-reason") and "£" in page.inner_text("#result")
    shot(page, "cards-1822-finished")


# ---------------------------------------------------------------- playing with friends over days
def api_game(server, **extra) -> tuple[int, dict]:
    """A 1825 game made through the API: its id and its seats' tokens by player name."""
    import httpx

    r = httpx.post(server.url + "/api/games", json={"title": "1825", "players": ["Ann", "Bob", "Cid"],
                                                    "options": ["unit_1"], "seed": 7, **extra}, timeout=60)
    assert r.status_code == 201, r.text
    return r.json()["id"], {s["player"]: s["token"] for s in r.json()["seats"]}


def seat_page(web_browser, server, gid: int, token: str):
    """A browser of its own (its own cookies) on a seat link: (context, page)."""
    ctx = web_browser.new_context(viewport={"width": 1500, "height": 1000})
    pg = ctx.new_page()
    pg.set_default_timeout(30_000)
    pg.goto(f"{server.url}/games/{gid}?token={token}")
    pg.wait_for_selector("#game")
    return ctx, pg


def to_act(page) -> str:
    return page.inner_text("#to-act").strip()


def test_turn_marker_in_hotseat_and_seat_link_games_moves_in_place(page, web_browser, server):
    """'your turn' is the seat's to act, not another's, and moves after an action, in place."""
    new_game(page, server, "1825")
    navs = watch_loads(page)
    assert to_act(page) == "Ann" and page.query_selector("#your-turn") is not None  # the hotseat plays every seat
    act(page, button(page, "pass").click)
    assert to_act(page) == "Bob" and page.query_selector("#your-turn") is not None
    shot(page, "turn-marker-hotseat")
    assert navs == [] and same_document(page)
    gid, tokens = api_game(server)
    (actx, ann), (bctx, bob) = (seat_page(web_browser, server, gid, tokens[n]) for n in ("Ann", "Bob"))
    try:
        navs, bob_navs = watch_loads(ann), watch_loads(bob)
        assert to_act(ann) == to_act(bob) == "Ann"
        assert ann.inner_text("#your-turn") == "your turn" and bob.query_selector("#your-turn") is None
        shot(ann, "turn-marker-seat-ann-to-act")
        shot(bob, "turn-marker-seat-bob-waits")
        act(ann, button(ann, "pass").click)
        bob.wait_for_selector("#your-turn")  # by the live update
        assert to_act(ann) == to_act(bob) == "Bob" and ann.query_selector("#your-turn") is None
        shot(bob, "turn-marker-seat-bob-to-act")
        assert navs == [] and bob_navs == [] and same_document(ann) and same_document(bob)
    finally:
        actx.close()
        bctx.close()


def clock_row(page, name: str) -> dict:
    for tr in page.query_selector_all("#clock tr"):
        cells = [c.inner_text().strip() for c in tr.query_selector_all("td")]
        if cells and cells[0].startswith(name):
            return {"used": cells[1], "left": cells[2], "running": "running" in (tr.get_attribute("class") or "")}
    raise AssertionError(f"no clock row for {name}")


def test_clock_shows_each_players_time_and_the_acting_players_runs(page, server):
    """A game made with a clock preset: each player's time; the acting player's counts on the
    page while the page is open, and is charged by the action; then the next player's counts."""
    gid, tokens = api_game(server, hotseat=True, clock={"preset": "blitz"})
    page.goto(f"{server.url}/games/{gid}?token={next(iter(tokens.values()))}")  # the hotseat's one token
    page.wait_for_selector("#clock")
    rows = {n: clock_row(page, n) for n in ("Ann", "Bob", "Cid")}
    assert [n for n, r in rows.items() if r["running"]] == ["Ann"]
    assert all(rows[n]["used"] == "0:00:00" and rows[n]["left"] == "0:15:00" for n in ("Bob", "Cid")), rows
    shot(page, "clock-start")
    running = ("() => [...document.querySelectorAll('#clock tr.running td.used')]"
               ".some(td => td.textContent.trim() >= '0:00:02')")
    page.wait_for_function(running, timeout=10_000)  # Ann's time counts on the page
    ann_left = clock_row(page, "Ann")["left"]
    assert ann_left < "0:15:00", ann_left
    act(page, button(page, "pass").click)
    ann, bob = clock_row(page, "Ann"), clock_row(page, "Bob")
    # (the server charges whole seconds between the stored timestamps, so 2 s counted on the
    # page may be charged as 1)
    assert ann["used"] >= "0:00:01" and not ann["running"] and bob["running"], (ann, bob)
    assert ann["left"] > ann_left  # (the stock round turn's increment)
    page.wait_for_function(running, timeout=10_000)  # now Bob's counts
    assert clock_row(page, "Ann")["used"] == ann["used"]  # Ann's stands
    shot(page, "clock-after-a-turn")


def test_programmed_auto_pass_plays_for_a_seat_and_is_cancelled(page, web_browser, server):
    """Bob sets an auto-pass in SR1 on his page; Ann passes; Bob's pass is made for him (the
    story tells it, the turn goes on to Cid); Bob cancels his program."""
    gid, tokens = api_game(server)
    (actx, ann), (bctx, bob) = (seat_page(web_browser, server, gid, tokens[n]) for n in ("Ann", "Bob"))
    try:
        card = "#programs details.program-player"
        assert bob.inner_text(f"{card} .program-active") == "no program"
        act(bob, lambda: bob.click("#programs .program-set-pass"))
        assert bob.inner_text(f"{card} .program-active") == "Pass in stock rounds"
        bob.query_selector("#programs").screenshot(path=str(SHOTS / "program-auto-pass-set.png"))
        ann.wait_for_function("() => document.querySelector('#game').dataset.last === '1'")
        act(ann, button(ann, "pass").click)
        story = ann.inner_text("#story")
        assert "Ann passes" in story and "Bob passes" in story, story
        assert to_act(ann) == "Cid"
        bob.wait_for_function("() => document.getElementById('to-act').textContent.trim() === 'Cid'")
        assert bob.query_selector("#your-turn") is None and "Bob passes" in bob.inner_text("#story")
        shot(ann, "program-auto-pass-made")
        act(bob, lambda: bob.click("#programs .program-cancel"))
        assert bob.inner_text(f"{card} .program-active") == "no program"
        assert bob.query_selector("#programs .program-cancel") is None
        bob.query_selector("#programs").screenshot(path=str(SHOTS / "program-cancelled.png"))
    finally:
        actx.close()
        bctx.close()


def test_an_imported_logs_clock_counts_from_the_import(page, server, tmp_path):
    """A log of 1825 imported long after its last action: each player's time is the time the
    log shows, and the player to act counts from the import (not the days since the log
    stood still); the running mark is words, not a glyph a font may lack."""
    import_cut(page, server, tmp_path, "1825", "141331.json", lambda acts: len(acts) // 2)
    step(page, lambda: page.click("#hist-now"), past="0")
    page.wait_for_selector("#clock tr.running")
    page.wait_for_timeout(1500)  # the page's tick has run
    times = [td.inner_text().strip() for td in page.query_selector_all("#clock td.used")]
    assert times and not any("d " in t for t in times), times
    assert all(re.fullmatch(r"\d+:\d\d:\d\d", t) for t in times), times
    since = float(page.get_attribute("#clock", "data-since"))
    import time

    assert time.time() - since < 120, since  # the clock runs from the import
    assert page.inner_text("#clock tr.running .clock-runs") == "to act"
    assert "⏱" not in page.inner_text("#clock")
    shot(page, "clock-imported-1825")


def test_a_hex_token_previewed_then_confirmed(page, server, tmp_path):
    """1822's destination token (a ``hex_token``): the highlighted hex clicked shows the token
    on it, with its price; Confirm places it."""
    import_cut(page, server, tmp_path, "1822", "discard_trains_after_sr_export.json",
               lambda acts: next(k for k, a in enumerate(acts) if a["type"] == "hex_token"))
    step(page, lambda: page.click("#hist-now"), past="0")
    navs = watch_loads(page)
    link = page.query_selector("#hex-token-hint button.hex-token-link")
    assert link is not None, "no hex token offered"
    hx = link.get_attribute("data-hex")
    assert page.query_selector(f"#map g.hex.hex-tokenable[data-hex='{hx}']") is not None
    link.click()  # the hint's link previews it too
    page.wait_for_selector("#map .token-preview")
    assert page.get_attribute("#map .token-preview", "data-hex") == hx
    page.click("#token-cancel")
    page.wait_for_selector("#map .token-preview", state="detached")
    page.click(f"#map g.hex.hex-tokenable[data-hex='{hx}']")
    page.wait_for_selector("#map .token-preview")
    said = page.inner_text("#token-said")
    assert hx in said, said
    shot(page, "1822-hex-token-preview")
    act(page, lambda: page.click("#token-confirm"))
    assert navs == [] and same_document(page)
    gid = page.get_attribute("#game", "data-gid")
    import httpx

    log = httpx.get(f"{server.url}/api/games/{gid}/log", timeout=30).json()
    assert log["actions"][-1]["type"] == "hex_token" and log["actions"][-1]["hex"] == hx
