"""Routes chosen by hand in a real browser (1893, 1867, shared logs cut before a run): a train
picked, its stops clicked on the map, the route drawn in the train's colour with the engine's
revenue beside the train; a stop too many refused with the reason; Best routes filled in; the
run made of the clicked stops posted, and the log's last action is that run_routes with those
stops. Screenshots go to test-artifacts/browser/."""

from __future__ import annotations

import httpx
import pytest

from . import test_browser as tb
from .test_browser import act, import_cut, shot, step

server, web_browser, page = tb.server, tb.web_browser, tb.page  # the browser tests' fixtures

# title -> a shared log and the id of the logged run to cut before (None: its first run)
LOGS = {"1893": ("1893_game_end_bank.json", None), "1867": ("21268.json", 125)}


def click_stop(pg, ref: str) -> None:
    node = pg.query_selector(f"#map [data-node='{ref}']")
    if node is not None:
        node.click()
    else:
        pg.click(f"#map g.hex[data-hex='{ref.rsplit('-', 1)[0]}']")


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
    assert page.query_selector("#map g.routes polyline")
    page.click("#route-best")
    page.wait_for_function("() => /Total \\d+/.test(document.getElementById('route-total').textContent)")
    assert page.query_selector("#map g.hand-routes polyline")
    shot(page, f"routes-{title}-best")
    page.click("#route-clear")
    assert not page.query_selector("#map g.hand-routes")
    # each train: its stops clicked in order, its revenue shown
    for r, c in zip(run["routes"], checked["routes"], strict=True):
        page.check(f"#route-builder input[name=route-train][value='{r['train']}']")
        for s in c["stops"]:
            click_stop(page, s["node"])
        page.wait_for_function(
            f"() => document.querySelector(\"#route-builder .train-route[data-train='{r['train']}'] "
            f".route-revenue\").textContent.trim() === '{c['revenue']}'")
    assert page.query_selector("#map g.hand-routes polyline")
    # a stop too many (the last again): refused, with the reason in words; then taken back
    last_train, last_stop = run["routes"][-1]["train"], checked["routes"][-1]["stops"][-1]["node"]
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
    assert [x["train"] for x in last["routes"]] == [x["train"] for x in run["routes"]]
    assert [x["nodes"] for x in last["routes"]] == [[s["node"] for s in c["stops"]] for c in checked["routes"]]
    assert [x["revenue"] for x in last["routes"]] == [x["revenue"] for x in run["routes"]]
    assert not page.query_selector("#route-builder")
    shot(page, f"routes-{title}-after-run")
    assert not errors, errors
