"""The lobby's script (static/app.js) run by node on a small stand-in for the page: options
the chosen player count does not allow are disabled and say their counts (the counts come
from /api/titles). Skipped without node."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

NODE = shutil.which("node")
APP_JS = Path(__file__).parents[2] / "trackage" / "web" / "static" / "app.js"

# a page with the lobby's elements: enough DOM for trackageLobby()
HARNESS = r"""
const fs = require("fs"), vm = require("vm");
const [appJs, titles, cases] = JSON.parse(fs.readFileSync(0, "utf8"));
function element(id) {
  return {id, value: "", className: "", textContent: "", disabled: false, title: "", children: [], listeners: {},
          innerHTML: "",
          addEventListener(type, f) { (this.listeners[type] = this.listeners[type] || []).push(f); },
          fire(type) { (this.listeners[type] || []).forEach(f => f({target: this})); },
          appendChild(c) { c.parent = this; this.children.push(c); },
          remove() { const s = this.parent.children; s.splice(s.indexOf(this), 1); },
          querySelectorAll(sel) {
            if (sel === "label") return [...this.children];
            const inputs = this.children.map(l => ({value: /value="([^"]*)"/.exec(l.innerHTML)[1],
                                                    checked: / checked>/.test(l.innerHTML)}));
            return sel === "input:checked" ? inputs.filter(i => i.checked) : inputs;
          }};
}
const ids = {};
for (const id of ["title", "players", "options", "player-range", "create"]) ids[id] = element(id);
const document = {getElementById: id => ids[id], createElement: () => element(null),
                  body: {classList: {add() {}, remove() {}}}};
const ctx = {window: {TRACKAGE_TITLES: titles}, document, console};
vm.createContext(ctx);
vm.runInContext(appJs, ctx);
ids.title.value = cases[0][0];
vm.runInContext("trackageLobby()", ctx);
const out = [];
for (const [title, players] of cases) {
  ids.title.value = title; ids.players.value = players;
  ids.players.fire("input");
  out.push({range: ids["player-range"].textContent, create_disabled: ids.create.disabled,
            options: ids.options.children.map(l => ({
              value: /value="([^"]*)"/.exec(l.innerHTML)[1], disabled: / disabled /.test(l.innerHTML),
              note: (/<small class="counts">(.*?)<\/small>/.exec(l.innerHTML) || [null, null])[1]}))});
}
process.stdout.write(JSON.stringify(out));
"""


@pytest.mark.skipif(NODE is None, reason="NO NODE: the lobby script is run by node")
def test_lobby_disables_and_annotates_options_the_player_count_does_not_allow(sqlite_url):
    from fastapi.testclient import TestClient

    from trackage.web.app import create_app

    app = create_app(sqlite_url)
    with TestClient(app) as c:
        titles = c.get("/api/titles").json()
    app.state.storage.close()
    cases = [("1825", "Ann\nBob\nCid"), ("1825", "Ann\nBob"), ("1858", "Ann\nBob"), ("1858", "Ann, Bob, Cid"),
             ("1867", "Ann\nBob")]
    run = subprocess.run([NODE, "-e", HARNESS], input=json.dumps([APP_JS.read_text(), titles, cases]),
                         capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    by = [{o["value"]: o for o in case["options"]} for case in out]
    three, two = by[0], by[1]
    assert three["unit_3"] == {"value": "unit_3", "disabled": True, "note": "(2 players, not 3)"}
    assert three["unit_1"] == {"value": "unit_1", "disabled": False, "note": "(2-5 players)"}
    assert three["unit_123"]["disabled"] and three["unit_123"]["note"] == "(4-9 players, not 3)"
    assert not three["k1"]["disabled"] and three["k1"]["note"] is None  # any count: nothing to say
    assert not two["unit_3"]["disabled"] and two["unit_12"]["disabled"]
    assert by[2]["quick_start_a"]["disabled"] and by[2]["quick_start_a"]["note"] == "(3-6 players, not 2)"
    assert not by[3]["quick_start_a"]["disabled"]
    assert not by[4]["grid_market"]["disabled"] and by[4]["grid_market"]["note"] is None
    # the options the title allows for each count are exactly the ones enabled
    for (title, players), case in zip(cases, out):
        n = len([p for p in players.replace(",", "\n").splitlines() if p.strip()])
        enabled = {o["value"] for o in case["options"] if not o["disabled"]}
        assert enabled == {o for o, counts in titles[title]["options"].items() if n in counts}, title
