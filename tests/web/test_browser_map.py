"""The game page's map in a real browser, in every title (a shared log each, cut before its
first tile lay, where some tile has more than one legal rotation): zoom in and out, fit,
centre on a hex the hint names; the view kept across an action swapped in place; a tile
previewed on its hex, turned by clicking the hex through its legal rotations only, laid by
Confirm. Screenshots go to test-artifacts/browser/."""

from __future__ import annotations

import httpx
import pytest

from . import test_browser as tb
from .test_browser import act, import_cut, shot, step

server, web_browser, page = tb.server, tb.web_browser, tb.page  # the browser tests' fixtures

# title -> a shared log cut before its first tile lay (every title)
LOGS = {"1822": "discard_trains_after_sr_export.json", "1825": "141331.json", "1858": "1858-quick-start-b.json",
        "1858India": "hotseat_qs_b.json", "1861": "29683.json", "1867": "21268.json",
        "1893": "1893_game_end_bank.json"}


def view(pg) -> list[float]:
    return [float(v) for v in pg.get_attribute("#map", "viewBox").split()]


@pytest.mark.parametrize("title", list(LOGS))
def test_map_zoom_fit_hint_and_a_tile_turned_on_its_hex(page, server, tmp_path, title):
    acts, k = import_cut(page, server, tmp_path, title, LOGS[title],
                         lambda acts: next(i for i, a in enumerate(acts) if a["type"] == "lay_tile"))
    step(page, lambda: page.click("#hist-now"), past="0")
    gid = page.get_attribute("#game", "data-gid")
    token = page.get_attribute("#game", "data-token")
    state = httpx.get(f"{server.url}/api/games/{gid}", headers={"Authorization": f"Bearer {token}"}, timeout=60).json()
    lays = [a for a in state["legal_actions"] if a["type"] == "lay_tile"]
    assert lays, f"{title}: no tile lay legal"
    # the hint names every hex a tile may go on (with its place name), each a button
    hint = page.inner_text("#lay-hint")
    named = [b.get_attribute("data-hex") for b in page.query_selector_all("#lay-hint .lay-link")]
    assert sorted(named) == sorted({a["hex"] for a in lays}), (named, hint)
    assert acts[k]["hex"] in hint
    assert "hexes" not in hint.split(":")[0] or str(len(named)) in hint
    # zoom in, out, fit: the viewBox changes; the whole map fits
    full = [float(v) for v in page.get_attribute("#map", "data-full").split()]
    assert view(page) == pytest.approx(full, abs=0.2)
    page.click("#map-zoom-in")
    zin = view(page)
    assert zin[2] < full[2] * 0.8, (zin, full)
    page.click("#map-zoom-out")
    assert view(page)[2] > zin[2]
    page.click("#map-fit")
    assert view(page) == pytest.approx(full, abs=0.2)
    page.click("#map-zoom-in")
    page.click("#map-zoom-in")
    # the wheel zooms too
    box = page.query_selector("#map").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    before = view(page)
    page.mouse.wheel(0, -200)
    page.wait_for_function(f"() => document.getElementById('map').viewBox.baseVal.width < {before[2] - 1}")
    # a hint's hex: the map centres on it (the zoom kept) and its tiles come
    target = next((a for a in lays if sum(1 for b in lays if b["hex"] == a["hex"] and b["tile"] == a["tile"]) > 1),
                  lays[0])
    hx = target["hex"]
    page.click(f"#lay-hint .lay-link[data-hex='{hx}']")
    page.wait_for_selector(f"#tile-choices .tile-choices[data-hex='{hx}']")
    v = view(page)
    cx, cy = (float(page.get_attribute(f"#map g.hex[data-hex='{hx}']", a)) for a in ("data-cx", "data-cy"))
    assert abs(v[0] + v[2] / 2 - cx) < v[2] * 0.3 and abs(v[1] + v[3] / 2 - cy) < v[3] * 0.3, (v, cx, cy)
    # the tile on the hex: its legal rotations only, in turn, by clicking the hex
    legal = sorted(a["rotation"] for a in lays if a["hex"] == hx and a["tile"] == target["tile"])
    assert len(legal) > 1, f"{title}: no tile with more than one legal rotation at this cut ({target})"
    page.click(f"#tile-choices .tile-option[data-tile='{target['tile']}']")
    page.wait_for_selector("#map .lay-preview")
    seen = [int(page.get_attribute("#map .lay-preview", "data-rotation"))]
    assert seen[0] == legal[0]
    shot(page, f"map-{title}-preview")
    for _ in range(len(legal)):
        page.click("#map .lay-preview")
        seen.append(int(page.get_attribute("#map .lay-preview", "data-rotation")))
    assert sorted(set(seen)) == legal and seen[-1] == seen[0], (seen, legal)
    assert seen[1] != seen[0]
    page.click("#tile-rotate")  # the button turns it too
    assert int(page.get_attribute("#map .lay-preview", "data-rotation")) == seen[1]
    chosen = int(page.get_attribute("#map .lay-preview", "data-rotation"))
    # hover: the hex's details
    page.hover(f"#map g.hex[data-hex='{hx}'] .hex-bg", force=True)
    assert page.inner_text("#map-info").startswith(hx)
    kept = page.get_attribute("#map", "viewBox")
    act(page, lambda: page.click("#tile-confirm"))
    # the view survives the swap in place; the lay is in the game's log
    assert page.get_attribute("#map", "viewBox") == kept
    assert page.query_selector("#map .lay-preview") is None
    shot(page, f"map-{title}-laid")
    log = httpx.get(f"{server.url}/api/games/{gid}/log", timeout=60).json()
    last = log["actions"][-1]
    assert (last["type"], last["hex"], last["tile"], last["rotation"]) == ("lay_tile", hx, target["tile"], chosen)
    # fit, then a reload of the page: the view of this game is kept for the tab
    page.click("#map-fit")
    page.reload()
    page.wait_for_selector("#map")
    assert view(page) == pytest.approx(full, abs=0.2)
    page.click("#map-zoom-in")
    page.reload()
    page.wait_for_selector("#map")
    assert view(page)[2] < full[2] * 0.8
    if page.query_selector("#map-centre"):
        page.click("#map-fit")
        page.click("#map-centre")
        assert view(page)[2] < full[2]
        shot(page, f"map-{title}-centred")
