"""The pages on a phone (390x844, Playwright driving Debian's chromium): a new hotseat game of
every title opens without sideways scrolling and with its first action button in view; the
lobby fits; the lobby's form keeps its values after an error; an unknown game is an HTML page
for a browser and JSON for an API client. Screenshots go to test-artifacts/browser/."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from .webkit import ARTIFACTS, Server

CHROMIUM = os.environ.get("TRACKAGE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-dev-shm-usage"]
SHOTS = ARTIFACTS / "browser"
PHONE = {"width": 390, "height": 844}

pw = pytest.importorskip("playwright.sync_api", reason="NO PLAYWRIGHT: pip install -e '.[test]'")
if not Path(CHROMIUM).exists():
    pytest.skip(f"NO CHROMIUM: {CHROMIUM} is absent (apt-get install chromium; bash .ci/run does)",
                allow_module_level=True)

# title -> (players, options)
GAMES = {"1822": (3, []), "1825": (3, ["unit_1"]), "1858": (4, []), "1858India": (4, []), "1861": (3, []),
         "1867": (3, []), "1893": (3, [])}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    d = tmp_path_factory.mktemp("phone")
    srv = Server(f"sqlite:///{d / 'phone.db'}", d / "server.log")
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def web_browser():
    with pw.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def phone(web_browser):
    ctx = web_browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    pg = ctx.new_page()
    pg.set_default_timeout(30_000)
    yield pg
    ctx.close()


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def page_width(page) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


@pytest.mark.parametrize("title", sorted(GAMES))
def test_a_new_game_fits_a_phone_with_its_actions_in_view(phone, server, title):
    import httpx

    n, opts = GAMES[title]
    r = httpx.post(server.url + "/api/games", json={"title": title, "players": ["Ann", "Bob", "Cid", "Dee"][:n],
                                                    "options": opts, "seed": 5, "hotseat": True}, timeout=60)
    assert r.status_code == 201, r.text
    out = r.json()
    phone.goto(f"{server.url}/games/{out['id']}?token={out['seats'][0]['token']}")
    phone.wait_for_selector("#game")
    shot(phone, f"phone-{title}")
    assert page_width(phone) <= PHONE["width"], (title, page_width(phone))
    assert phone.evaluate("window.scrollY") == 0
    first = phone.query_selector("#actions form.action button")
    assert first is not None, title
    box = first.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (title, box)
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (title, box)
    # the map scrolls in its own box, wider than the page but not widening it
    wrap = phone.query_selector("#map-wrap")
    assert wrap is not None
    sizes = wrap.evaluate("e => [e.scrollWidth, e.clientWidth, getComputedStyle(e).overflowX, "
                          "getComputedStyle(e).touchAction]")
    # pan-x pan-y pinch-zoom, which chromium says as "manipulation"
    assert sizes[1] <= PHONE["width"] and sizes[2] == "auto", sizes
    assert sizes[3] == "manipulation" or "pinch-zoom" in sizes[3], sizes


def test_the_lobby_fits_a_phone(phone, server):
    phone.goto(server.url + "/")
    phone.select_option("#title", "1825")
    phone.dispatch_event("#players", "input")
    shot(phone, "phone-lobby")
    assert page_width(phone) <= PHONE["width"]
    label = phone.inner_text("#options label:has(input[value='k1'])")
    assert "K1" in label and "Extension Kit 1 - Supplementary Tiles" in label
    assert "2-5 players" in phone.inner_text("#options label:has(input[value='unit_1'])")
    phone.check("#options input[value='unit_2']")
    assert "with Unit 2: 2-4 players" in phone.inner_text("#player-range")


def test_the_lobby_form_keeps_its_values_after_an_error(phone, server):
    phone.goto(server.url + "/")
    phone.select_option("#title", "1825")
    phone.fill("#players", "Ann\nBob\nCid\nDee")
    phone.dispatch_event("#players", "input")
    phone.check("#options input[value='k1']")  # kits without a unit: refused
    phone.check("#options input[value='db1']")
    phone.fill("#seed", "77")
    phone.check("#mode-seats")
    phone.click("#create")
    phone.wait_for_selector("#error")
    shot(phone, "phone-lobby-error")
    assert "Unit" in phone.inner_text("#error")
    assert phone.input_value("#title") == "1825"
    assert phone.input_value("#players") == "Ann\nBob\nCid\nDee"
    assert phone.input_value("#seed") == "77"
    assert phone.is_checked("#mode-seats") and not phone.is_checked("#mode-hotseat")
    checked = [i.get_attribute("value") for i in phone.query_selector_all("#options input:checked")]
    assert checked == ["k1", "db1"]
    assert page_width(phone) <= PHONE["width"]


def test_an_unknown_game_is_a_page_for_a_browser_and_json_for_an_api_client(phone, server):
    import httpx

    res = phone.goto(server.url + "/games/99999")
    assert res is not None and res.status == 404 and "text/html" in res.headers["content-type"]
    assert phone.query_selector("#error-page") is not None and phone.query_selector("a#lobby-link") is not None
    shot(phone, "phone-unknown-game")
    assert page_width(phone) <= PHONE["width"]
    r = httpx.get(server.url + "/games/99999", headers={"Accept": "application/json"})
    assert r.status_code == 404 and r.json()["rule"] == "unknown-game"
    r = httpx.get(server.url + "/favicon.ico")
    assert r.status_code == 200 and "svg" in r.headers["content-type"]
