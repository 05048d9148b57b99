"""Routes chosen by hand in a real browser, in every title (shared logs cut before a run of
2 stops or more; 1822's is GWR's P train and 3-train together, 1861's passes a town it is
not paid for): a train picked, its stops clicked on the map in the order travelled, the
route drawn in the train's colour with the engine's revenue beside the train; a stop too
many refused with the reason; Best routes filled in; the run made of the clicked stops
posted, and the log's last action is that run_routes with those stops. Screenshots go to
test-artifacts/browser/."""

from __future__ import annotations

import httpx
import pytest

from . import test_browser as tb
from .test_browser import act, import_cut, shot, step

server, web_browser, page = tb.server, tb.web_browser, tb.page  # the browser tests' fixtures

# title -> a shared log and the id of the logged run to cut before (None: its first run)
# (1822's first runs are L-trains on one stop: its GWR run of a 2P and a 3-train is taken)
LOGS = {"1822": ("discard_trains_after_sr_export.json", 373), "1825": ("1825_game_end_bank.json", None),
        "1858": ("1858-quick-start-b.json", None), "1858India": ("hotseat_qs_b.json", None),
        "1861": ("29683.json", None), "1867": ("21268.json", 125), "1893": ("1893_game_end_bank.json", None)}


def click_stop(pg, ref: str) -> None:
    node = pg.query_selector(f"#map [data-node='{ref}']")
    if node is not None:
        node.click()
    else:
        pg.click(f"#map g.hex[data-hex='{ref.rsplit('-', 1)[0]}']")


def visited(checked: dict) -> list[str]:
    """The stops a checked route visits, in the order travelled: the ones it is paid for and
    the ones it only passes (1861's and 1867's towns, paid 0 by most trains), each named by
    its node where the engine names one."""
    nodes: dict[str, list[str]] = {}
    for n in checked["route"]["nodes"]:
        nodes.setdefault(n.rsplit("-", 1)[0], []).append(n)
    return [nodes[h].pop(0) if nodes.get(h) else h for h in checked["route"]["hexes"]]


def revenue_of(pg, train: str) -> str:
    return pg.inner_text(f"#route-builder .train-route[data-train='{train}'] .route-revenue").strip()


@pytest.mark.parametrize("title", list(LOGS))
def test_a_route_chosen_by_clicking_stops_is_priced_and_run(page, server, tmp_path, title):
    name, aid = LOGS[title]
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    acts, k = import_cut(page, server, tmp_path, title, name, lambda acts: next(
        i for i, a in enumerate(acts)
        if a["type"] == "run_routes" and a.get("routes") and (aid is None or a["id"] == aid)))
    assert not errors, errors
    step(page, lambda: page.click("#hist-now"), past="0")
    run = acts[k]
    gid = page.get_attribute("#game", "data-gid")
    token = page.get_attribute("#game", "data-token")
    # the logged run's stops, as the engine names them
    checked = httpx.post(f"{server.url}/api/games/{gid}/routes/check", timeout=60,
                         headers={"Authorization": f"Bearer {token}"},
                         json={"routes": [{"train": r["train"], "connections": r["connections"]}
                                          for r in run["routes"]]}).json()
    assert checked["ok"], checked
    page.wait_for_selector("#route-builder")
    # the best run is drawn on the map; Best routes fills it in beside the trains
    page.wait_for_selector("#map g.routes polyline", state="attached")  # the router's run, asked after the page shows
    page.click("#route-best")
    page.wait_for_function("() => /Total \\d+/.test(document.getElementById('route-total').textContent)")
    assert page.query_selector("#map g.hand-routes polyline")
    shot(page, f"routes-{title}-best")
    page.click("#route-clear")
    assert not page.query_selector("#map g.hand-routes")
    # each train: its stops clicked in order, its revenue shown
    for r, c in zip(run["routes"], checked["routes"], strict=True):
        page.check(f"#route-builder input[name=route-train][value='{r['train']}']")
        for ref in visited(c):
            click_stop(page, ref)
        page.wait_for_function(
            f"() => document.querySelector(\"#route-builder .train-route[data-train='{r['train']}'] "
            f".route-revenue\").textContent.trim() === '{c['revenue']}'")
    assert page.query_selector("#map g.hand-routes polyline")
    # a stop too many (the last again): refused, with the reason in words; then taken back
    last_train, last_stop = run["routes"][-1]["train"], visited(checked["routes"][-1])[-1]
    click_stop(page, last_stop)
    reason = f"#route-builder .train-route[data-train='{last_train}'] .route-reason"
    page.wait_for_function(f"() => document.querySelector(\"{reason}\").textContent.includes('refused')")
    assert "twice" in page.inner_text(reason)
    assert page.is_disabled("#route-run")
    shot(page, f"routes-{title}-refused")
    page.click("#route-undo-stop")
    page.wait_for_function(f"() => document.querySelector(\"{reason}\").textContent === ''")
    page.wait_for_function("() => !document.getElementById('route-run').disabled")
    assert revenue_of(page, last_train) == str(checked["routes"][-1]["revenue"])
    assert f"Total {checked['total']}" in page.inner_text("#route-total")
    shot(page, f"routes-{title}-by-hand")
    act(page, lambda: page.click("#route-run"))
    log = httpx.get(f"{server.url}/api/games/{gid}/log", timeout=30).json()
    last = log["actions"][-1]
    assert last["type"] == "run_routes" and last["entity"] == run["entity"]
    # the page posts the trains in the company's order, the log may have them in another
    posted = {x["train"]: (x["nodes"], x["revenue"]) for x in last["routes"]}
    assert len(posted) == len(last["routes"])
    assert posted == {r["train"]: (visited(c), r["revenue"])
                      for r, c in zip(run["routes"], checked["routes"], strict=True)}
    assert not page.query_selector("#route-builder")
    # the history list words the run as its button did
    assert "Run for " in page.query_selector_all("#log li")[-1].inner_text()
    shot(page, f"routes-{title}-after-run")
    assert not errors, errors


def test_a_town_between_two_clicked_stops_is_named_and_added(page, server, tmp_path):
    """1861: Moscow then St Petersburg clicked for N's 2-train, Tver between them on the track:
    the refusal says to click Tver; its Add button puts it in the route, which runs as logged."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    acts, k = import_cut(page, server, tmp_path, "1861", "167259.json",
                         lambda acts: next(i for i, a in enumerate(acts) if a.get("id") == 70))
    step(page, lambda: page.click("#hist-now"), past="0")
    [logged] = acts[k]["routes"]
    page.wait_for_selector("#route-builder")
    page.check(f"#route-builder input[name=route-train][value='{logged['train']}']")
    for ref in ("H8-1", "E1-1"):
        click_stop(page, ref)
    reason = f"#route-builder .train-route[data-train='{logged['train']}'] .route-reason"
    page.wait_for_selector(f"{reason} button.route-add-between")
    said = page.inner_text(reason)
    assert "click Tver (G5) between Moscow (H8) and St. Petersburg (E1)" in said, said
    assert "no track" not in said
    shot(page, "routes-1861-town-between")
    page.click(f"{reason} button.route-add-between")
    page.wait_for_function("() => !document.getElementById('route-run').disabled")
    assert revenue_of(page, logged["train"]) == str(logged["revenue"])
    act(page, lambda: page.click("#route-run"))
    gid = page.get_attribute("#game", "data-gid")
    last = httpx.get(f"{server.url}/api/games/{gid}/log", timeout=30).json()["actions"][-1]
    assert last["type"] == "run_routes" and [x["nodes"] for x in last["routes"]] == [logged["nodes"]]
    assert not errors, errors
