// trackage: routes chosen by hand at a run. A train is picked, its stops clicked on the map in
// order (a city, a town, or a hex with one stop); the run is checked by the engine (POST
// /api/games/{id}/routes/check: the track between stops found, each route priced or refused with
// the rule and why; stops the track passes between two clicked named, one click adding them)
// and drawn in the trains' colours. Run posts the run_routes the check gave
// (the server prices it again); Best routes fills in the router's run; Clear empties the routes.
"use strict";

function trackageRoutes(gid, token, post, showError) {
  let state = null;  // {key, stops: {train: [refs]}, conns: {train: connections}, result, seq}
  const NS = "http://www.w3.org/2000/svg";
  const builder = () => document.getElementById("route-builder");
  const svg = () => document.getElementById("map");
  const trains = () => [...document.querySelectorAll("#route-builder .train-route")]
    .map(el => ({id: el.dataset.train, color: el.dataset.color, el}));
  const selected = () => {
    const r = document.querySelector("#route-builder input[name=route-train]:checked");
    return r ? r.value : null;
  };
  const keyOf = b => `${b.dataset.entity}|${trains().map(t => t.id).join(",")}`;
  const fresh = b => ({key: keyOf(b), stops: {}, conns: {}, result: null, seq: 0});

  function proposed() {
    return trains().map(t => t.id).filter(id => state.conns[id] || (state.stops[id] || []).length)
      .map(id => state.conns[id] ? {train: id, connections: state.conns[id]} : {train: id, stops: state.stops[id]});
  }

  async function check() {
    const routes = proposed();
    const mine = ++state.seq;
    if (!routes.length) { state.result = null; render(); return; }
    let res, body = {};
    try {
      res = await fetch(`/api/games/${gid}/routes/check`, {
        method: "POST", headers: {"Content-Type": "application/json", "Authorization": `Bearer ${token}`},
        body: JSON.stringify({routes})});
      body = await res.json();
    } catch (e) { showError(`the routes could not be checked: ${e}`); return; }
    if (!state || mine !== state.seq) return;  // an older answer
    if (!res.ok) { showError(`${res.status}: ${body.error || res.statusText}${body.rule ? " [" + body.rule + "]" : ""}`); return; }
    state.result = body;
    render();
  }

  // where a stop is on the map: its city or town, else its hex's centre
  function at(ref) {
    const s = svg(); if (!s) return null;
    const n = s.querySelector(`[data-node="${CSS.escape(ref)}"]`);
    if (n && n.getBBox) { const b = n.getBBox(); return [b.x + b.width / 2, b.y + b.height / 2]; }
    const hid = ref.replace(/-\d+$/, "");
    const g = s.querySelector(`g.hex[data-hex="${CSS.escape(ref)}"]`) || s.querySelector(`g.hex[data-hex="${CSS.escape(hid)}"]`);
    return g ? [parseFloat(g.dataset.cx), parseFloat(g.dataset.cy)] : null;
  }
  function centre(hid) {
    const g = svg().querySelector(`g.hex[data-hex="${CSS.escape(hid.split(" ")[0])}"]`);
    return g ? [parseFloat(g.dataset.cx), parseFloat(g.dataset.cy)] : null;
  }
  function line(layer, pts, color, dashed) {
    if (pts.length < 2) return;
    const p = document.createElementNS(NS, "polyline");
    p.setAttribute("points", pts.map(q => q.join(",")).join(" "));
    p.setAttribute("class", "hand-route");
    p.setAttribute("fill", "none"); p.setAttribute("stroke", color); p.setAttribute("stroke-width", "12");
    p.setAttribute("stroke-opacity", "0.75"); p.setAttribute("stroke-linecap", "round"); p.setAttribute("stroke-linejoin", "round");
    if (dashed) p.setAttribute("stroke-dasharray", "14 10");
    layer.appendChild(p);
  }

  function draw() {
    const s = svg(); if (!s) return;
    s.querySelectorAll("g.hand-routes").forEach(x => x.remove());
    const any = Object.values(state.stops).some(v => v.length) || Object.keys(state.conns).length;
    s.querySelectorAll("g.routes").forEach(g => { g.style.display = any ? "none" : ""; });
    if (!any) return;
    const layer = document.createElementNS(NS, "g");
    layer.setAttribute("class", "hand-routes");
    const byTrain = {};
    for (const r of (state.result && state.result.routes) || []) byTrain[r.train] = r;
    for (const t of trains()) {
      const r = byTrain[t.id];
      const refs = r && r.stops ? r.stops.map(x => x.node) : (state.stops[t.id] || []);
      if (r && r.route) {  // the engine's track: hex by hex, from stop to stop
        for (const conn of r.route.connections) line(layer, conn.map(centre).filter(Boolean), t.color, !r.ok);
      } else {
        line(layer, refs.map(at).filter(Boolean), t.color, true);
      }
      for (const ref of refs) {
        const q = at(ref); if (!q) continue;
        const c = document.createElementNS(NS, "circle");
        c.setAttribute("class", "hand-stop"); c.dataset.train = t.id; c.dataset.node = ref;
        c.setAttribute("cx", q[0]); c.setAttribute("cy", q[1]); c.setAttribute("r", "14");
        c.setAttribute("fill", "none"); c.setAttribute("stroke", t.color); c.setAttribute("stroke-width", "5");
        layer.appendChild(c);
      }
    }
    s.appendChild(layer);
  }

  function render() {
    const b = builder(); if (!b || !state) return;
    const byTrain = {};
    const res = state.result;
    for (const r of (res && res.routes) || []) byTrain[r.train] = r;
    for (const t of trains()) {
      const r = byTrain[t.id];
      const refs = state.stops[t.id] || [];
      const names = r && r.stops ? r.stops.map(x => x.name ? `${x.name} (${x.hex})` : x.hex) : refs;
      t.el.querySelector(".route-stops").textContent = names.length ? names.join(" – ") : (state.conns[t.id] ? "…" : "");
      t.el.querySelector(".route-revenue").textContent = r && r.ok ? `${r.revenue}` : "";
      const why = t.el.querySelector(".route-reason");
      why.textContent = r && !r.ok ? `refused: ${r.reason} [${r.rule}]` : "";
      if (r && !r.ok && r.between && r.between.length && !state.conns[t.id]) {
        // the stops the track passes between two clicked: one click adds them where they go
        const add = document.createElement("button");
        add.type = "button"; add.className = "route-add-between"; add.dataset.train = t.id;
        add.textContent = "Add " + r.between.map(x => x.name ? `${x.name} (${x.hex})` : x.hex).join(", ");
        why.append(" ", add);
      }
      t.el.classList.toggle("refused", !!(r && !r.ok));
    }
    const total = document.getElementById("route-total");
    if (total) {
      total.textContent = !res ? "" : res.ok ? `Total ${res.total}` : `Refused: ${res.reason || "a route is refused"}${res.rule ? " [" + res.rule + "]" : ""}`;
    }
    const run = document.getElementById("route-run");
    if (run) {
      run.disabled = !(res && res.ok && res.routes_action && res.routes_action.length);
      run.textContent = res && res.ok ? `Run for ${res.total}` : "Run";
    }
    draw();
  }

  function add(ref) {
    const id = selected(); if (!id) return;
    if (state.conns[id]) {  // a best route changed by hand: its stops, then the one clicked
      const r = state.result && state.result.routes.find(x => x.train === id);
      state.stops[id] = r && r.stops ? r.stops.map(x => x.node) : [];
      delete state.conns[id];
    }
    const list = state.stops[id] = state.stops[id] || [];
    list.push(ref);
    render(); check();
  }

  function restore() {
    const b = builder();
    if (!b) { state = null; const s = svg(); if (s) s.querySelectorAll("g.hand-routes").forEach(x => x.remove()); return; }
    if (!state || state.key !== keyOf(b)) state = fresh(b);
    render();
  }

  function click(ev) {
    const b = builder(); if (!b || !state) return false;
    const t = ev.target;
    const btn = t.closest("#route-builder button");
    if (btn && btn.id === "route-clear") { state = fresh(b); render(); return true; }
    if (btn && btn.id === "route-undo-stop") {
      const id = selected();
      if (id && state.conns[id]) { delete state.conns[id]; }
      else if (id && state.stops[id]) state.stops[id].pop();
      render(); check(); return true;
    }
    if (btn && btn.classList.contains("route-add-between")) {
      const r = state.result && state.result.routes.find(x => x.train === btn.dataset.train);
      const list = state.stops[btn.dataset.train];
      if (r && r.between && list) list.splice(r.insert_at, 0, ...r.between.map(x => x.node));
      render(); check(); return true;
    }
    if (btn && btn.id === "route-best") {
      const best = JSON.parse((document.getElementById("route-best-json") || {}).textContent || "[]");
      state = fresh(b);
      for (const r of best) state.conns[r.train] = r.connections;
      render(); check(); return true;
    }
    if (btn && btn.id === "route-run") {
      const res = state.result;
      if (res && res.ok && res.routes_action) {
        post({type: "run_routes", entity: b.dataset.entity, entity_type: b.dataset.entityType, routes: res.routes_action});
      }
      return true;
    }
    if (!t.closest("#map") || t.closest("#map .lay-preview")) return false;
    const n = t.closest("#map [data-node]");
    const g = t.closest("#map g.hex");
    const ref = n ? n.dataset.node : g ? g.dataset.hex : null;
    if (!ref) return false;
    add(ref);
    return true;
  }
  return {restore, click};
}

// the router's run for the seat's run now, asked after the page (or its parts) shows: the page
// lists the run without it (the route search can take a while late in a game), so the "Run for"
// button, the map's run and Best routes say "finding the best run…" until it comes
// (GET /api/games/{id}/routes/suggested); an answer for a state no longer shown is dropped
function trackageSuggest(gid, token, showError) {
  const NS = "http://www.w3.org/2000/svg";
  const PALETTE = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#9a6324"];
  let seq = 0;
  const root = () => document.getElementById("game");

  function drawRun(routes) {
    const s = document.getElementById("map"); if (!s) return;
    s.querySelectorAll("g.routes").forEach(x => x.remove());
    if (!routes.length) return;
    const r = parseFloat(s.dataset.r) || 40;
    const centre = hid => {
      const g = typeof hid === "string" ? s.querySelector(`g.hex[data-hex="${CSS.escape(hid)}"]`) : null;
      return g ? [g.dataset.cx, g.dataset.cy] : null;
    };
    const layer = document.createElementNS(NS, "g");
    layer.setAttribute("class", "routes"); layer.setAttribute("pointer-events", "none");
    if (s.querySelector("g.hand-routes")) layer.style.display = "none";  // routes chosen by hand show instead
    routes.forEach((rt, i) => {
      const col = PALETTE[i % PALETTE.length];
      for (const conn of rt.connections || []) {
        const pts = conn.map(centre).filter(Boolean);
        if (pts.length < 2) continue;
        const p = document.createElementNS(NS, "polyline");
        p.setAttribute("class", "route"); p.setAttribute("points", pts.map(q => q.join(",")).join(" "));
        p.setAttribute("fill", "none"); p.setAttribute("stroke", col); p.setAttribute("stroke-width", String(r * 0.22));
        p.setAttribute("stroke-opacity", "0.7"); p.setAttribute("stroke-linecap", "round"); p.setAttribute("stroke-linejoin", "round");
        layer.appendChild(p);
      }
      const hexes = rt.hexes || [];
      if (hexes.length === 1 && centre(hexes[0])) {  // a run within one hex: a ring on it
        const [x, y] = centre(hexes[0]);
        const c = document.createElementNS(NS, "circle");
        c.setAttribute("class", "route"); c.setAttribute("cx", x); c.setAttribute("cy", y); c.setAttribute("r", String(r * 0.35));
        c.setAttribute("fill", "none"); c.setAttribute("stroke", col); c.setAttribute("stroke-width", String(r * 0.15));
        c.setAttribute("stroke-opacity", "0.7");
        layer.appendChild(c);
      }
    });
    const hand = s.querySelector("g.hand-routes");
    s.insertBefore(layer, hand);
  }

  function fill(body) {
    for (const b of document.querySelectorAll("#actions button.act[data-suggest]")) {
      const form = b.closest("form.action");
      if (form) form.dataset.action = JSON.stringify(body.action);
      b.textContent = `${b.dataset.entity}: ${body.label}`;
      b.disabled = false;
    }
    const best = document.getElementById("route-best");
    if (best) {
      best.textContent = body.routes.length ? `Best routes (${body.total})` : "Best routes";
      best.disabled = false;
    }
    const json = document.getElementById("route-best-json");
    if (json) json.textContent = JSON.stringify(body.routes);
    drawRun(body.routes);
  }

  function unfound(why) {
    for (const b of document.querySelectorAll("#actions button.act[data-suggest]")) {
      b.textContent = `${b.dataset.entity}: no run found (${why})`;
    }
    const best = document.getElementById("route-best");
    if (best) best.textContent = "Best routes (none found)";
  }

  async function refresh() {
    const g = root();
    const waiting = document.querySelector("#actions button.act[data-suggest]") ||
      document.querySelector("#route-best:disabled");
    if (!g || !waiting || g.dataset.past === "1") return;
    const mine = ++seq, at = g.dataset.last;
    let res, body = {};
    try {
      res = await fetch(`/api/games/${gid}/routes/suggested`, {headers: {"Authorization": `Bearer ${token}`}});
      body = await res.json();
    } catch (e) { if (mine === seq) { unfound("not reached"); showError(`the best run could not be found: ${e}`); } return; }
    const now = root();
    if (mine !== seq || !now || now.dataset.last !== at || now.dataset.past === "1") return;  // another state shows
    if (!res.ok) { unfound(body.error || res.statusText); return; }
    fill(body);
  }
  return {refresh};
}
