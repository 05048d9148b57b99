// trackage: the game page's map: zoom (buttons, wheel, pinch), pan (drag), fit, centre on the
// acting company or on a hex; the view (the SVG's viewBox) kept per game in sessionStorage and
// put back after every swap in place; a hex's details on hover or tap; a tile previewed on its
// hex, turned through its legal rotations by clicking the hex (or Rotate), laid by Confirm; a
// token previewed in the city slot (or on the hex) clicked, with its price, placed by Confirm.
"use strict";

function trackageMap(gid, post) {
  const key = `trackage-map-view-${gid}`;
  let lay = null;  // the tile previewed: {hex, actions (one a legal rotation), svgs, i}
  let tok = null;  // the token previewed: an offer of #token-actions (its action, where, colours, price)
  const svg = () => document.getElementById("map");
  const full = s => (s.dataset.full || (s.dataset.full = s.getAttribute("viewBox"))).split(/\s+/).map(Number);
  const box = () => svg().viewBox.baseVal;

  function setView(x, y, w, h) {
    const s = svg(); if (!s) return;
    const [fx, fy, fw, fh] = full(s);
    // no smaller than a hex and a half, no larger than four maps
    const minW = 150, maxW = Math.max(fw, fh) * 4;
    const k = Math.min(Math.max(w, minW), maxW) / w;
    const cx = x + w / 2, cy = y + h / 2;
    w *= k; h *= k;
    x = Math.min(Math.max(cx - w / 2, fx - w / 2), fx + fw - w / 2);
    y = Math.min(Math.max(cy - h / 2, fy - h / 2), fy + fh - h / 2);
    const v = [x, y, w, h].map(n => Math.round(n * 10) / 10).join(" ");
    s.setAttribute("viewBox", v);
    const wrap = document.getElementById("map-wrap");
    if (wrap) wrap.dataset.view = v;
    try { sessionStorage.setItem(key, v); } catch (e) { /* private mode: the box keeps it */ }
  }
  function fit() { const s = svg(); if (s) { const f = full(s); setView(f[0], f[1], f[2], f[3]); } }
  // zoom by ``k`` (>1: in) around the map point (px, py), the view's centre by default
  function zoom(k, px, py) {
    const b = box();
    if (px === undefined) { px = b.x + b.width / 2; py = b.y + b.height / 2; }
    setView(px - (px - b.x) / k, py - (py - b.y) / k, b.width / k, b.height / k);
  }
  function toMap(clientX, clientY) {
    const s = svg(); const p = s.createSVGPoint(); p.x = clientX; p.y = clientY;
    return p.matrixTransform(s.getScreenCTM().inverse());
  }
  // centre on hexes: their bounds, at least a few hexes wide; ``keep``: the zoom stays
  function centre(hexes, keep) {
    const s = svg(); if (!s || !hexes.length) return;
    const pts = hexes.map(h => s.querySelector(`g.hex[data-hex="${CSS.escape(h)}"]`)).filter(Boolean)
      .map(g => [parseFloat(g.dataset.cx), parseFloat(g.dataset.cy)]);
    if (!pts.length) return;
    const xs = pts.map(p => p[0]), ys = pts.map(p => p[1]);
    const x0 = Math.min(...xs) - 90, x1 = Math.max(...xs) + 90, y0 = Math.min(...ys) - 90, y1 = Math.max(...ys) + 90;
    const b = box();
    let w = keep ? b.width : Math.max(x1 - x0, 600), h = keep ? b.height : Math.max(y1 - y0, 450);
    if (!keep) {  // the box's shape
      const r = s.clientWidth / Math.max(1, s.clientHeight);
      if (w / h < r) w = h * r; else h = w / r;
    }
    setView((x0 + x1) / 2 - w / 2, (y0 + y1) / 2 - h / 2, w, h);
    hexes.forEach(h => {
      const g = s.querySelector(`g.hex[data-hex="${CSS.escape(h)}"]`);
      if (g && hexes.length === 1) { g.classList.add("focus"); setTimeout(() => g.classList.remove("focus"), 1500); }
    });
  }

  // the tile preview on its hex
  function drawLay() {
    const s = svg(); if (!s) return;
    s.querySelectorAll(".lay-preview").forEach(x => x.remove());
    if (!lay) return;
    const g = s.querySelector(`g.hex.layable[data-hex="${CSS.escape(lay.hex)}"]`);
    if (!g) { lay = null; showControls(); return; }
    const a = lay.actions[lay.i];
    const p = document.createElementNS("http://www.w3.org/2000/svg", "g");
    p.setAttribute("class", "lay-preview");
    p.setAttribute("transform", `translate(${g.dataset.cx},${g.dataset.cy})`);
    p.dataset.hex = lay.hex; p.dataset.tile = a.tile; p.dataset.rotation = a.rotation;
    const src = lay.svgs[lay.i];
    // the tile's own group, no hex of the map (its class and id go)
    if (src) for (const c of src.children) {
      const n = c.cloneNode(true);
      n.classList.remove("hex"); n.removeAttribute("data-hex"); n.classList.add("preview-tile");
      p.appendChild(n);
    }
    s.appendChild(p);
    showControls();
  }
  function showControls() {
    const c = document.getElementById("lay-controls");
    if (!c) return;
    c.hidden = !lay;
    const said = document.getElementById("lay-rotation");
    if (lay && said) {
      const a = lay.actions[lay.i];
      said.textContent = `${a.tile} on ${lay.hex}, rotation ${a.rotation} (${lay.i + 1} of ${lay.actions.length})`;
    }
    document.querySelectorAll("#tile-choices .tile-option").forEach(o =>
      o.classList.toggle("chosen", !!lay && o.dataset.tile === lay.tile));
  }
  function choose(option) {
    const actions = JSON.parse(option.dataset.actions);
    lay = {hex: option.dataset.hex, tile: option.dataset.tile, actions, i: 0,
           svgs: [...option.querySelectorAll("svg.tile-preview")]};
    drawLay();
  }
  function rotate() { if (lay) { lay.i = (lay.i + 1) % lay.actions.length; drawLay(); } }

  // the token preview: the listed token actions with their placer's colours and price
  function offers() {
    const el = document.getElementById("token-actions");
    try { return JSON.parse((el && el.textContent) || "[]"); } catch (e) { return []; }
  }
  const same = (a, b) => JSON.stringify(a.action) === JSON.stringify(b.action);
  // preview the token offered where ``pick`` says (a city's, a hex's); false: none there
  // the page lists the offers unpriced (a price is the action tried on a copy of the game, a
  // few ms each): the first preview asks for them all (GET /api/games/{id}/tokens); the
  // token shows at once, its Confirm with the price once it comes
  let pricing = null;
  function price() {
    const g = document.getElementById("game");
    const at = g ? g.dataset.last : null;
    if (pricing && pricing.at === at) return pricing.done;
    const done = (async () => {
      try {
        const res = await fetch(`/api/games/${gid}/tokens`, {headers: {"Authorization": `Bearer ${g ? g.dataset.token : ""}`}});
        if (!res.ok) return null;
        const body = await res.json();
        const now = document.getElementById("game");
        if (!now || now.dataset.last !== at || String(body.action_count) !== at) return null;  // another state shows
        const el = document.getElementById("token-actions");
        if (el) el.textContent = JSON.stringify(body.offers);
        return body.offers;
      } catch (e) { return null; }
    })();
    pricing = {at, done};
    return done;
  }
  function preview(pick) {
    const mine = offers().find(pick);
    if (!mine) return false;
    tok = mine;
    drawTok();
    if (mine.priced === false) {
      price().then(priced => {
        if (tok !== mine) return;  // another preview, or none, since
        tok = (priced || []).find(o => same(o, mine)) || Object.assign({}, mine, {priced: true});
        drawTok();
      });
    }
    return true;
  }
  function drawTok() {
    const s = svg(); if (!s) return;
    s.querySelectorAll(".token-preview").forEach(x => x.remove());
    const c = document.getElementById("token-controls");
    if (c) c.hidden = !tok || tok.priced === false;  // Confirm once the price is said
    if (!tok) return;
    const o = tok;
    let x, y, r;
    if (o.kind === "city") {
      const city = s.querySelector(`g.city.tokenable[data-city="${CSS.escape(o.city)}"]`);
      const slot = city && (city.querySelector(`circle.slot[data-slot="${o.slot}"]`) || city.querySelector("circle.slot"));
      if (!slot) { tok = null; drawTok(); return; }
      x = slot.getAttribute("cx"); y = slot.getAttribute("cy"); r = parseFloat(slot.getAttribute("r"));
    } else {
      const g = s.querySelector(`g.hex.hex-tokenable[data-hex="${CSS.escape(o.hex)}"]`);
      if (!g) { tok = null; drawTok(); return; }
      x = g.dataset.tx; y = g.dataset.ty; r = 9;
    }
    const ns = "http://www.w3.org/2000/svg";
    const p = document.createElementNS(ns, "g");
    p.setAttribute("class", "token-preview");
    p.setAttribute("pointer-events", "none");  // a click on it is a click on its city
    p.dataset.corp = o.label; p.dataset.city = o.city; p.dataset.hex = o.hex;
    const circle = document.createElementNS(ns, "circle");
    circle.setAttribute("cx", x); circle.setAttribute("cy", y); circle.setAttribute("r", r);
    circle.setAttribute("fill", o.fill);
    const text = document.createElementNS(ns, "text");
    const label = o.label.slice(0, 4);
    text.setAttribute("x", x); text.setAttribute("y", y);
    text.setAttribute("font-size", label.length > 2 ? Math.min(r * 0.85, 9) : r * 0.9);
    text.setAttribute("text-anchor", "middle"); text.setAttribute("dominant-baseline", "central");
    text.setAttribute("font-weight", "bold"); text.setAttribute("fill", o.text);
    text.textContent = label;
    p.append(circle, text);
    s.appendChild(p);
    const said = document.getElementById("token-said");
    if (said) {
      const cost = o.cost_text ? (o.cost === 0 ? " (free)" : ` for ${o.cost_text}`) : "";
      said.textContent = `${o.label} token in ${o.where}${cost}`;
    }
  }

  function info(g) {
    const out = document.getElementById("map-info");
    if (out && g) out.textContent = g.dataset.info || g.dataset.hex;
  }

  // after a swap in place: the view kept, the preview drawn again while its hex is layable
  function restore() {
    const s = svg(); if (!s) return;
    full(s);
    let v = null;
    try { v = sessionStorage.getItem(key); } catch (e) { v = null; }
    const wrap = document.getElementById("map-wrap");
    v = v || (wrap && wrap.dataset.view);
    if (v) { const [x, y, w, h] = v.split(/\s+/).map(Number); setView(x, y, w, h); }
    if (lay && !document.querySelector(`#tile-choices .tile-option[data-hex="${CSS.escape(lay.hex)}"]`)) lay = null;
    drawLay();
    if (tok) tok = offers().find(o => same(o, tok)) || null;  // still offered, else gone
    drawTok();
  }

  // pan by dragging, pinch with two fingers; a drag is no click
  const pointers = new Map();
  let dragged = false, pinch = null;
  document.addEventListener("pointerdown", ev => {
    const s = svg(); if (!s || !s.contains(ev.target)) return;
    pointers.set(ev.pointerId, {x: ev.clientX, y: ev.clientY, x0: ev.clientX, y0: ev.clientY});
    dragged = false; pinch = null;
  });
  document.addEventListener("pointermove", ev => {
    const p = pointers.get(ev.pointerId); if (!p) return;
    const s = svg(); if (!s) return;
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const d0 = Math.hypot(a.x - b.x, a.y - b.y);
      p.x = ev.clientX; p.y = ev.clientY;
      const d1 = Math.hypot(a.x - b.x, a.y - b.y);
      if (d0 > 0 && d1 > 0) { const m = toMap((a.x + b.x) / 2, (a.y + b.y) / 2); zoom(d1 / d0, m.x, m.y); }
      dragged = true; pinch = true;
      return;
    }
    if (!dragged && Math.hypot(ev.clientX - p.x0, ev.clientY - p.y0) < 5) return;
    dragged = true;
    const a = toMap(p.x, p.y), b = toMap(ev.clientX, ev.clientY);
    const v = box();
    setView(v.x - (b.x - a.x), v.y - (b.y - a.y), v.width, v.height);
    p.x = ev.clientX; p.y = ev.clientY;
  });
  const up = ev => { pointers.delete(ev.pointerId); };
  document.addEventListener("pointerup", up);
  document.addEventListener("pointercancel", up);
  document.addEventListener("click", ev => {
    if (dragged && svg() && svg().contains(ev.target)) { ev.stopImmediatePropagation(); ev.preventDefault(); dragged = false; }
  }, true);
  document.addEventListener("wheel", ev => {
    const s = svg(); if (!s || !s.contains(ev.target)) return;
    ev.preventDefault();
    const m = toMap(ev.clientX, ev.clientY);
    zoom(Math.pow(1.2, -ev.deltaY / 100), m.x, m.y);
  }, {passive: false});
  document.addEventListener("pointerover", ev => {
    if (!ev.target.closest) return;
    const p = ev.target.closest("#map .lay-preview");  // the tile previewed: its hex's details
    const g = p ? svg().querySelector(`g.hex[data-hex="${CSS.escape(p.dataset.hex)}"]`) : ev.target.closest("#map g.hex");
    if (g) info(g);
  });

  // the map's own clicks, before the page's: true when handled
  function click(ev) {
    const t = ev.target;
    const b = t.closest("button");
    if (b && b.id === "map-zoom-in") { zoom(1.4); return true; }
    if (b && b.id === "map-zoom-out") { zoom(1 / 1.4); return true; }
    if (b && b.id === "map-fit") { fit(); return true; }
    if (b && b.id === "map-centre") { centre(JSON.parse(b.dataset.hexes || "[]"), false); return true; }
    if (b && b.classList.contains("city-link")) { centre([b.dataset.hex], true); preview(o => o.kind === "city" && o.city === b.dataset.city); return true; }
    if (b && b.classList.contains("hex-token-link")) { centre([b.dataset.hex], true); preview(o => o.kind === "hex" && o.hex === b.dataset.hex); return true; }
    if (b && b.classList.contains("hex-link")) { centre([b.dataset.hex], true); return !b.classList.contains("lay-link"); }
    if (b && b.id === "token-cancel") { tok = null; drawTok(); return true; }
    if (b && b.id === "token-confirm") { if (tok) { const a = tok.action; tok = null; drawTok(); post(a); } return true; }
    if (b && b.id === "tile-rotate") { rotate(); return true; }
    if (b && b.id === "tile-cancel") { lay = null; drawLay(); return true; }
    if (b && b.id === "tile-confirm") { if (lay) { const a = lay.actions[lay.i]; lay = null; post(a); } return true; }
    const option = t.closest("#tile-choices .tile-option");
    if (option) { choose(option); return true; }
    if (t.closest("#map .lay-preview")) { rotate(); return true; }
    const city = t.closest("#map .city.tokenable");
    if (city && preview(o => o.kind === "city" && o.city === city.dataset.city)) return true;
    const spot = t.closest("#map g.hex.hex-tokenable:not(.layable)");
    if (spot && preview(o => o.kind === "hex" && o.hex === spot.dataset.hex)) { info(spot); return true; }
    if (tok && svg() && svg().contains(t)) { tok = null; drawTok(); }  // a click elsewhere on the map
    const g = t.closest("#map g.hex");
    if (g) info(g);
    if (g && lay && g.dataset.hex === lay.hex) { rotate(); return true; }
    if (g && lay && g.classList.contains("layable")) { lay = null; drawLay(); }
    return false;
  }
  return {restore, click, fit, centre};
}
