// trackage: small progressive JavaScript for the lobby and the game page.
"use strict";

// player counts as the lobby says them: "2", "2-5", "2, 4-6"
function spanText(counts) {
  const parts = [];
  for (let i = 0; i < counts.length; i++) {
    let j = i;
    while (j + 1 < counts.length && counts[j + 1] === counts[j] + 1) j++;
    parts.push(i === j ? `${counts[i]}` : `${counts[i]}-${counts[j]}`);
    i = j;
  }
  return parts.join(", ");
}

// text for the page, escaped
function esc(text) {
  return String(text).replace(/[&<>"']/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"})[c]);
}

function trackageLobby() {
  const titles = window.TRACKAGE_TITLES || {};
  const sel = document.getElementById("title");
  const players = document.getElementById("players");
  const box = document.getElementById("options");
  const range = document.getElementById("player-range");
  const note = document.getElementById("players-note");
  // the options checked when the page came (the form kept after an error)
  let kept = null;
  try { kept = new Set(JSON.parse((box.dataset && box.dataset.checked) || "[]")); } catch (e) { kept = new Set(); }
  function count() { return players.value.split(/\n|,/).map(s => s.trim()).filter(Boolean).length; }
  function refresh() {
    const info = titles[sel.value]; if (!info) return;
    const n = count();
    const [lo, hi] = info.players;
    const checked = kept || new Set([...box.querySelectorAll("input:checked")].map(i => i.value));
    kept = null;
    // the counts the checked options allow together
    let allowed = null;
    for (const opt of checked) {
      const counts = (info.options || {})[opt];
      if (!counts) continue;
      allowed = allowed === null ? counts : allowed.filter(c => counts.includes(c));
    }
    const texts = info.option_text || {};
    const names = [...checked].filter(o => o in info.options).map(o => (texts[o] || {}).name || o);
    range.textContent = `${info.name}: ${lo}-${hi} players (now ${n})` +
      (allowed !== null && allowed.length < hi - lo + 1
        ? `; with ${names.join(", ")}: ${allowed.length ? spanText(allowed) : "no count"} players` : "");
    const bad = n < lo || n > hi || (allowed !== null && !allowed.includes(n));
    range.className = bad ? "hint error" : "hint";
    if (note) note.textContent = info.players_note || "";
    box.querySelectorAll("label").forEach(l => l.remove());
    for (const [opt, counts] of Object.entries(info.options)) {
      // counts: the player counts the option allows (null: any); said when it is not every count
      const ok = counts === null || counts.includes(n);
      const limited = counts !== null && counts.length < hi - lo + 1;
      const text = texts[opt] || {name: opt, desc: ""};
      const l = document.createElement("label");
      l.className = "opt" + (ok ? "" : " disabled");
      l.title = limited ? `${text.name}: ${spanText(counts)} players` : "";
      l.innerHTML = `<input type="checkbox" name="options" value="${esc(opt)}" ${ok ? "" : "disabled"} ${ok && checked.has(opt) ? "checked" : ""}> ` +
        `<span class="opt-name">${esc(text.name)}</span>` +
        (limited ? ` <small class="counts">(${spanText(counts)} players${ok ? "" : `, not ${n}`})</small>` : "") +
        (text.desc ? ` <small class="desc">${esc(text.desc)}</small>` : "");
      box.appendChild(l);
    }
    document.getElementById("create").disabled = n < lo || n > hi;
  }
  box.addEventListener("change", (ev) => {
    // mutually exclusive options: checking one unchecks the others of its group
    const info = titles[sel.value]; const t = ev.target;
    if (!info || !t.checked) return;
    for (const group of info.exclusive) {
      if (!group.includes(t.value)) continue;
      box.querySelectorAll("input").forEach(i => { if (i !== t && group.includes(i.value)) i.checked = false; });
    }
  });
  box.addEventListener("change", refresh);
  sel.addEventListener("change", refresh);
  players.addEventListener("input", refresh);
  refresh();
}

function trackageGame() {
  const root = document.getElementById("game");
  const gid = root.dataset.gid;
  const last = parseInt(root.dataset.last, 10);
  const at = parseInt(root.dataset.at, 10);
  const token = root.dataset.token;
  const past = root.dataset.past === "1";
  const errBox = document.getElementById("action-error");

  function showError(msg) { errBox.hidden = false; errBox.textContent = msg; }

  async function post(action) {
    action = Object.assign({}, action);
    delete action.price_range; delete action.price_step; delete action.canonical_prices;
    action.id = last + 1;
    document.body.classList.add("busy");
    let res;
    try {
      res = await fetch(`/api/games/${gid}/actions`, {
        method: "POST", headers: {"Content-Type": "application/json", "Authorization": `Bearer ${token}`},
        body: JSON.stringify(action)});
    } catch (e) { document.body.classList.remove("busy"); showError(String(e)); return; }
    if (res.ok) { window.location.href = `/games/${gid}`; return; }
    document.body.classList.remove("busy");
    let body = {}; try { body = await res.json(); } catch (e) { /* not JSON */ }
    if (res.status === 409) { window.location.href = `/games/${gid}`; return; }
    showError(`${res.status}: ${body.error || res.statusText}${body.rule ? " [" + body.rule + "]" : ""}`);
  }
  window.trackagePost = post;

  document.querySelectorAll("form.action").forEach(f => f.addEventListener("submit", ev => {
    ev.preventDefault();
    const a = JSON.parse(f.dataset.action);
    const price = f.querySelector("input[name=price]");
    if (price) a.price = parseInt(price.value, 10);
    post(a);
  }));
  // the story and the history open at the action viewed (at the end when viewing now)
  document.querySelectorAll("ol.story, ol.log").forEach(ol => {
    const cur = ol.querySelector("li.current");
    ol.scrollTop = cur ? cur.offsetTop - ol.offsetTop - ol.clientHeight / 2 : ol.scrollHeight;
  });
  const chat = document.getElementById("chat");
  if (chat) chat.addEventListener("submit", ev => {
    ev.preventDefault();
    const text = chat.querySelector("input[name=message]").value.trim();
    if (!text) return;
    const pid = chat.dataset.entity;
    post({type: "message", entity: /^\d+$/.test(pid) ? parseInt(pid, 10) : pid, entity_type: "player", message: text});
  });
  document.querySelectorAll("form.meta-action").forEach(f => f.addEventListener("submit", ev => {
    ev.preventDefault(); post({type: f.dataset.meta});
  }));

  // the map: click a highlighted hex for its tiles, a highlighted city for a token
  const tokenActions = JSON.parse((document.getElementById("token-actions") || {}).textContent || "[]");
  const choices = document.getElementById("tile-choices");
  document.querySelectorAll("#map .city.tokenable").forEach(c => c.addEventListener("click", ev => {
    ev.stopPropagation();
    const acts = tokenActions.filter(a => a.city === c.dataset.city);
    if (acts.length) post(acts[0]);
  }));
  document.querySelectorAll("#map .hex.layable").forEach(h => h.addEventListener("click", async ev => {
    document.querySelectorAll("#map .hex.selected").forEach(x => x.classList.remove("selected"));
    h.classList.add("selected");
    const res = await fetch(`/games/${gid}/hex/${encodeURIComponent(h.dataset.hex)}`, {credentials: "same-origin"});
    choices.innerHTML = await res.text();
    choices.querySelectorAll(".tile-option").forEach(b => b.addEventListener("click", () => post(JSON.parse(b.dataset.action))));
    choices.scrollIntoView({block: "nearest"});
  }));

  // history: the slider and the step buttons
  const slider = document.getElementById("history");
  const go = n => { window.location.href = `/games/${gid}?action=${Math.max(0, Math.min(last, n))}`; };
  if (slider) {
    slider.addEventListener("input", () => { document.getElementById("history-at").textContent = slider.value; });
    slider.addEventListener("change", () => go(parseInt(slider.value, 10)));
    document.getElementById("hist-first").addEventListener("click", () => go(0));
    document.getElementById("hist-prev").addEventListener("click", () => go(at - 1));
    document.getElementById("hist-next").addEventListener("click", () => go(at + 1));
  }
  document.addEventListener("keydown", ev => {
    if (ev.target.tagName === "INPUT" || ev.target.tagName === "TEXTAREA") return;
    if (ev.key === "ArrowLeft") go(at - 1);
    if (ev.key === "ArrowRight") go(at + 1);
  });

  // live updates (server-sent events): reload when someone else acts
  if (!past && window.EventSource) {
    const es = new EventSource(`/api/games/${gid}/events`);
    es.addEventListener("action", ev => {
      const n = JSON.parse(ev.data).action_count;
      if (n !== last) window.location.reload();
    });
  }
}
