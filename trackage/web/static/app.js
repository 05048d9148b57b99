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

// the game page: actions, undo/redo, live updates and history steps change the page in place:
// the server renders the page's parts (/games/{id}/panels, the templates the page is made of)
// and each [data-part] is swapped for its new self (data-swap="inner": its content, so the map's
// box keeps its scroll); #game's data-last says the action count shown
function trackageGame() {
  const root = document.getElementById("game");
  const gid = root.dataset.gid;
  const token = root.dataset.token;
  const num = key => parseInt(root.dataset[key], 10);
  let viewing = root.dataset.past === "1" ? num("at") : null;  // the action viewed (null: now)
  let wanted = num("last");  // the newest action count asked for (shown, or its parts on the way)
  let seq = 0;               // the latest parts asked for: an older answer is dropped
  let posting = false;       // an action on its way: live updates wait for it
  let heard = 0;             // the newest count a live update told of while posting

  function showError(msg) {
    const box = document.getElementById("action-error");
    if (box) { box.hidden = false; box.textContent = msg; }
  }

  // the story and the history open at the action viewed (at the end when viewing now)
  function scrollLists() {
    document.querySelectorAll("ol.story, ol.log").forEach(ol => {
      const cur = ol.querySelector("li.current");
      ol.scrollTop = cur ? cur.offsetTop - ol.offsetTop - ol.clientHeight / 2 : ol.scrollHeight;
    });
  }

  function swap(html) {
    const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("game");
    if (!fresh) return false;
    const chatInput = document.querySelector("#chat input[name=message]");
    const typed = chatInput ? chatInput.value : "";
    const focused = chatInput !== null && document.activeElement === chatInput;
    fresh.querySelectorAll("[data-part]").forEach(part => {
      const old = root.querySelector(`[data-part="${part.dataset.part}"]`);
      if (!old) return;
      if (part.dataset.swap === "inner") {
        const left = old.scrollLeft, top = old.scrollTop;
        old.replaceChildren(...part.childNodes);
        old.scrollLeft = left; old.scrollTop = top;
      } else {
        old.replaceWith(part);
      }
    });
    const chat = document.querySelector("#chat input[name=message]");
    if (chat && typed) chat.value = typed;
    if (chat && focused) chat.focus();
    scrollLists();
    if (map) map.restore();
    if (routes) routes.restore();
    for (const key of ["at", "past", "token", "last"]) root.dataset[key] = fresh.dataset[key];
    if (suggest) suggest.refresh();
    return true;
  }

  // the parts after action ``action`` (null: now), swapped in; true when they were
  async function refresh(action) {
    const mine = ++seq;
    let res;
    try {
      res = await fetch(`/games/${gid}/panels` + (action === null ? "" : `?action=${action}`),
                        {credentials: "same-origin", headers: {"Accept": "text/html"}});
    } catch (e) { showError(`the page could not be updated: ${e}`); return false; }
    if (!res.ok) { showError(`the page could not be updated: ${res.status} ${res.statusText}`); return false; }
    const html = await res.text();
    if (mine !== seq) return false;
    return swap(html);
  }

  // who did what after action ``before``, in the story's words (names, amounts)
  function since(before) {
    let rows = [...document.querySelectorAll("#story li[data-action]")]
      .filter(li => parseInt(li.dataset.action, 10) > before).map(li => li.textContent.trim());
    if (!rows.length) {
      rows = [...document.querySelectorAll("#log li")].filter(li => li.value > before).map(li => li.textContent.trim());
    }
    return (rows.length > 3 ? ["…"] : []).concat(rows.slice(-3)).join("; ") || "another action";
  }

  async function post(action) {
    if (posting) return;
    action = Object.assign({}, action);
    delete action.price_range; delete action.price_step; delete action.canonical_prices;
    const before = num("last");
    action.id = before + 1;
    posting = true;
    document.body.classList.add("busy");
    try {
      let res;
      try {
        res = await fetch(`/api/games/${gid}/actions`, {
          method: "POST", headers: {"Content-Type": "application/json", "Authorization": `Bearer ${token}`},
          body: JSON.stringify(action)});
      } catch (e) { showError(String(e)); return; }
      let body = {}; try { body = await res.json(); } catch (e) { /* not JSON */ }
      if (res.ok || res.status === 409) {
        wanted = Math.max(wanted, body.action_count || 0, heard);
        viewing = null;
        const swapped = await refresh(null);
        if (res.status === 409 && swapped) {
          showError(`the game moved on: ${since(before)}; the page is updated`);
        }
        return;
      }
      showError(`${res.status}: ${body.error || res.statusText}${body.rule ? " [" + body.rule + "]" : ""}`);
    } finally {
      posting = false;
      document.body.classList.remove("busy");
      if (heard > num("last") && viewing === null) live(heard);
    }
  }
  window.trackagePost = post;
  const map = window.trackageMap ? window.trackageMap(gid, post) : null;
  if (map) map.restore();
  const routes = window.trackageRoutes ? window.trackageRoutes(gid, token, post, showError) : null;
  if (routes) routes.restore();
  const suggest = window.trackageSuggest ? window.trackageSuggest(gid, token, showError) : null;
  if (suggest) suggest.refresh();

  // live updates (server-sent events, keyed by the action count): the parts once per new count
  function live(n) {
    if (posting) { heard = Math.max(heard, n); return; }
    if (n <= wanted) return;  // shown already, or on the way (this page's own action)
    wanted = n;
    refresh(viewing);
  }
  if (window.EventSource) {
    const es = new EventSource(`/api/games/${gid}/events`);
    es.addEventListener("action", ev => live(JSON.parse(ev.data).action_count));
  }

  // history: the slider, the step buttons, the links to an action; the address follows
  async function go(n, push = true) {
    const target = n === null || n >= num("last") ? null : Math.max(0, n);
    if (target === viewing && push) return;
    viewing = target;
    if (await refresh(target) && push) {
      history.pushState({action: target}, "", `/games/${gid}` + (target === null ? "" : `?action=${target}`));
    }
  }
  window.addEventListener("popstate", () => {
    const a = new URLSearchParams(window.location.search).get("action");
    go(a === null ? null : parseInt(a, 10), false);
  });

  document.addEventListener("submit", ev => {
    const f = ev.target;
    if (f.matches("form.action")) {
      ev.preventDefault();
      const a = JSON.parse(f.dataset.action);
      const price = f.querySelector("input[name=price]");
      if (price) a.price = parseInt(price.value, 10);
      post(a);
    } else if (f.matches("form.program")) {
      // a programmed action: the listed shape, with the form's fields (checkboxes, counts)
      ev.preventDefault();
      const a = JSON.parse(f.dataset.action);
      f.querySelectorAll("[data-field]").forEach(i => {
        a[i.dataset.field] = i.type === "checkbox" ? i.checked : parseInt(i.value, 10);
      });
      post(a);
    } else if (f.matches("form.meta-action")) {
      ev.preventDefault(); post({type: f.dataset.meta});
    } else if (f.id === "chat") {
      ev.preventDefault();
      const input = f.querySelector("input[name=message]");
      const text = input.value.trim();
      if (!text) return;
      input.value = "";
      const pid = f.dataset.entity;
      post({type: "message", entity: /^\d+$/.test(pid) ? parseInt(pid, 10) : pid, entity_type: "player", message: text});
    } else if (f.id === "history-form") {
      ev.preventDefault();
    }
  });

  document.addEventListener("click", async ev => {
    const t = ev.target;
    const link = t.closest("a[href]");
    if (link && root.contains(link) && !ev.ctrlKey && !ev.metaKey && !ev.shiftKey && ev.button === 0) {
      const url = new URL(link.href, window.location.href);
      if (url.origin === window.location.origin && url.pathname === `/games/${gid}`) {
        ev.preventDefault();
        const a = url.searchParams.get("action");
        go(a === null ? null : parseInt(a, 10));
        return;
      }
    }
    const button = t.closest("button");
    if (button && button.id === "hist-first") { go(0); return; }
    if (button && button.id === "hist-prev") { go(num("at") - 1); return; }
    if (button && button.id === "hist-next") { go(num("at") + 1); return; }
    // the map's own: zoom, fit, centre, the hint's hexes, the tile preview and its rotations, the token preview
    if (map && map.click(ev)) return;
    // routes by hand: a stop clicked for the train picked, the builder's buttons
    if (routes && routes.click(ev)) return;
    // the map: a highlighted hex for its tiles (a highlighted city's token: the map's preview)
    const hex = t.closest("#map .hex.layable") || t.closest("#actions .lay-link");
    if (hex) await openHex(hex.dataset.hex);
  });

  // the tiles of a highlighted hex, in the actions' box (a tile chosen there is previewed on the hex)
  async function openHex(hid) {
    document.querySelectorAll("#map .hex.selected").forEach(x => x.classList.remove("selected"));
    const g = document.querySelector(`#map .hex.layable[data-hex="${CSS.escape(hid)}"]`);
    if (g) g.classList.add("selected");
    let res;
    try {
      res = await fetch(`/games/${gid}/hex/${encodeURIComponent(hid)}`, {credentials: "same-origin"});
    } catch (e) { showError(`the tiles of ${hid} could not be fetched: ${e}`); return; }
    const choices = document.getElementById("tile-choices");
    if (!choices) return;
    if (!res.ok) { showError(`the tiles of ${hid} could not be fetched: ${res.status} ${res.statusText}`); return; }
    choices.innerHTML = await res.text();
    choices.scrollIntoView({block: "nearest"});
  }

  document.addEventListener("input", ev => {
    if (ev.target.id === "history") document.getElementById("history-at").textContent = ev.target.value;
  });
  document.addEventListener("change", ev => {
    if (ev.target.id === "history") go(parseInt(ev.target.value, 10));
  });
  document.addEventListener("keydown", ev => {
    if (ev.target.tagName === "INPUT" || ev.target.tagName === "TEXTAREA") return;
    if (ev.key === "ArrowLeft") go(num("at") - 1);
    if (ev.key === "ArrowRight") go(num("at") + 1);
  });
  scrollLists();
  setInterval(tickClock, 1000);
}

// seconds as the clock shows them (trackage.clock.clock_time): 1:02:03, 2d 0:00:05, -0:01:40
function clockTime(seconds) {
  let s = Math.round(seconds);
  const sign = s < 0 ? "-" : "";
  s = Math.abs(s);
  const days = Math.floor(s / 86400); s %= 86400;
  const h = Math.floor(s / 3600); s %= 3600;
  const m = Math.floor(s / 60); s %= 60;
  return `${sign}${days ? days + "d " : ""}${h}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}`;
}

// the running players' clocks count on the page: their time as the server counted it at the
// last action (data-s) and the seconds since (#clock's data-since, a Unix time; pauses aside)
function tickClock() {
  const table = document.getElementById("clock");
  if (!table || !table.dataset.since) return;
  const ran = Math.max(0, Date.now() / 1000 - parseFloat(table.dataset.since));
  table.querySelectorAll("tr.running td[data-s]").forEach(td => {
    const base = parseFloat(td.dataset.s);
    td.textContent = clockTime(td.classList.contains("left") ? base - ran : base + ran);
  });
}
