// The web board's one script: asks the server for the drawing of the seat viewed and sends
// clicks and moves. Every text shown is set with textContent; the drawing is SVG made and
// escaped by the server (api/draw.py).
"use strict";

const cfg = JSON.parse(document.getElementById("cfg").textContent);
const boardEl = document.getElementById("board");
const statusEl = document.getElementById("status");
const turnEl = document.getElementById("turninfo");
const lastEl = document.getElementById("last");
const messageEl = document.getElementById("message");
const viewerEl = document.getElementById("viewer");
const mineEl = document.getElementById("mine");
const SVGNS = "http://www.w3.org/2000/svg";
const LAST_MOVES = 3;  // the history lines the status bar repeats
// the agents' pace: a move every PACE ms at most (`?pace=MS` in the address: 0 to 5000)
const PACE = (() => {
  const n = parseInt(new URLSearchParams(location.search).get("pace") || "", 10);
  return Number.isNaN(n) ? 200 : Math.max(0, Math.min(5000, n));
})();
let agentTimer = null;
let lastPlay = null;  // the last answer drawn in play
let busy = false;

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

// the page's requests under way: live.js does not ask for the game again meanwhile (their answer
// brings the page up to date; a second answer for the same position drew the board again under a
// player's click)
let inFlight = 0;

async function getJSON(url) {
  inFlight++;
  try {
    const r = await fetch(url, {headers: {"Accept": "application/json"}});
    return await r.json();
  } finally {
    inFlight--;
  }
}

async function postJSON(url, body) {
  // the server's token (in the page's cfg): a request without it changes nothing
  inFlight++;
  try {
    const r = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json",
                                                          "X-Rulewright-Token": cfg.token},
                                body: JSON.stringify(body)});
    return await r.json();
  } finally {
    inFlight--;
  }
}

function setViewerOptions(values) {
  const before = viewerEl.value;
  viewerEl.replaceChildren();
  for (const v of values) {
    const o = el("option", v === "referee" ? "referee (sees all)" : v === "spectator" ? "spectator" : "P" + v);
    o.value = String(v);
    viewerEl.appendChild(o);
  }
  if (values.map(String).includes(before)) viewerEl.value = before;
}

function showMessage(parts) {
  messageEl.replaceChildren();
  for (const p of parts) messageEl.appendChild(p);
}

function showError(text) {
  showMessage([el("div", text, "why")]);
}

function showIllegal(reasons) {
  const parts = [];
  for (const r of reasons) {
    const d = el("div", null, "illegal");
    d.appendChild(el("span", r.why, "why"));
    if (r.rule) d.appendChild(el("span", "  (" + r.rule + (r.where ? ", " + r.where : "") + ")", "rule"));
    parts.push(d);
  }
  showMessage(parts);
}

// The status bar: whose turn it is and the prompt of the decision (the rule set's words, or the
// names of the actions), the turn and phase, and the last few moves.
function statusText(data) {
  if (data.terminal) {
    let text = "Game over" + (data.winners && data.winners.length ? " — won by " + data.winners.map(p => "P" + p).join(", ") : "");
    if (data.returns) {  // (a rule set declaring `returns:`: each seat's, and a draw when nobody wins)
      text += (data.winners.length ? "" : " — a draw") + "; returns " +
        data.returns.map((r, i) => "P" + (i + 1) + " " + (r > 0 ? "+" : "") + r).join(", ");
    }
    return text;
  }
  const me = String(data.seat);
  const together = data.choosing || [];
  let text;
  if (together.length > 1) {
    text = together.map(p => "P" + p).join(", ") + " choose at once" + (together.map(String).includes(me) ? ", you too" : "");
  } else {
    text = "P" + data.to_act + " to act" + (String(data.to_act) === me ? " (you)" : "");
  }
  if (data.chosen) text += " (you chose " + data.chosen + ")";
  return text + (data.prompt ? ": " + data.prompt : "");
}

function myDecision(data) {
  const me = String(data.seat);
  return !data.terminal && (String(data.to_act) === me || (data.choosing || []).map(String).includes(me));
}

function drawBoard(data) {
  boardEl.innerHTML = data.svg;
  statusEl.textContent = statusText(data);
  statusEl.classList.toggle("mine-turn", myDecision(data) && (data.moves || []).length > 0);
  turnEl.textContent = "turn " + data.turn + " · phase " + data.phase.replace(/_/g, " ") + " · seen as "
    + (typeof data.seat === "number" ? "P" + data.seat : data.seat);  // (the referee, a spectator)
}

function showLast(lines) {
  lastEl.replaceChildren();
  if (!lines.length) return;
  lastEl.appendChild(el("b", "Last: "));
  for (const line of lines) lastEl.appendChild(el("span", line));
}

// The seat's own area (its hand, its screen), copied from the drawing into the side panel (a
// laptop) or a bar at the bottom (a phone), so that it is in view without scrolling.
function showMine(seat) {
  if (!mineEl) return;
  mineEl.replaceChildren();
  const area = seat === "referee" ? null : boardEl.querySelector('g.player[data-seat="' + seat + '"]');
  const box = area ? area.getBBox() : null;
  if (!area || !box || box.width <= 0) {
    mineEl.hidden = true;
    document.body.classList.remove("has-mine");
    return;
  }
  const svg = document.createElementNS(SVGNS, "svg");
  const pad = 4;
  svg.setAttribute("viewBox", [box.x - pad, box.y - pad, box.width + 2 * pad, box.height + 2 * pad].join(" "));
  svg.setAttribute("class", "board-svg mine-svg");
  svg.style.width = Math.round((box.width + 2 * pad) * 1.25) + "px";
  const copy = area.cloneNode(true);
  for (const e of [copy, ...copy.querySelectorAll("[id]")]) e.removeAttribute("id");  // (ids stay unique)
  svg.appendChild(copy);
  mineEl.appendChild(el("h2", "Your area (P" + seat + ")"));
  mineEl.appendChild(svg);
  mineEl.hidden = false;
  document.body.classList.add("has-mine");
}

// -- play ------------------------------------------------------------------------------------------
function seatParam() { return encodeURIComponent(viewerEl.value); }

// What the seat may play now, as the last answer sent it: each move's words (the names a click on
// a piece or a spot is matched with), the move list shown (all, or those a click picked), the
// piece picked up (its names) waiting for a spot.
let words = [];
let picked = null;  // {names, element}
let shownHistory = 0;

function wordsOf(text) { return text.replace(/[-/,]/g, " ").split(/\s+/).filter(Boolean); }

function namesOf(item) { return (item.getAttribute("data-names") || "").split(/\s+/).filter(Boolean); }

function allMoves() { return lastPlay ? lastPlay.moves.map((_, k) => k) : []; }

function naming(names, among) {
  return among.filter(k => words[k].some(w => names.includes(w)));
}

function spotMoves(spot) {
  const found = lastPlay && lastPlay.spot_moves ? lastPlay.spot_moves[spot] : undefined;
  return found === undefined ? null : found;
}

// every move is in the answer (the server sends at most a few thousand): the page can filter itself
function complete() { return lastPlay && lastPlay.moves_total <= lastPlay.moves.length; }

function listMoves(indices) {
  const list = document.getElementById("moves");
  list.replaceChildren();
  const data = lastPlay;
  const most = data.moves_listed || 400;
  for (const k of indices.slice(0, most)) {
    const text = data.moves[k];
    const label = (data.labels || {})[String(k)];
    const li = el("li");
    const b = el("button", label || text, "move");
    b.type = "button";
    b.dataset.move = text;
    b.addEventListener("click", () => playMove(text));
    li.appendChild(b);
    list.appendChild(li);
  }
  const total = indices.length === data.moves.length ? data.moves_total : indices.length;
  if (total > Math.min(indices.length, most)) {
    list.appendChild(el("li", "... " + (total - Math.min(indices.length, most)) + " more: click a spot or a piece"));
  }
  document.getElementById("moves-count").textContent = data.moves_total ? "(" + total + ")" : "";
}

function markPickable() {
  for (const item of document.querySelectorAll("#board [data-names], #mine [data-names]")) {
    item.classList.toggle("can", words.length > 0 && naming(namesOf(item), allMoves()).length > 0);
  }
}

function clearPicked() {
  picked = null;
  for (const e of document.querySelectorAll(".selected")) e.classList.remove("selected");
  for (const e of document.querySelectorAll("#board .spot.picked")) e.classList.remove("picked");
  lightSpots(null);
}

// The spots lit as legal: those naming one of the moves `indices` (a piece picked up: where it can
// go), or any of the seat's moves (null).
function lightSpots(indices) {
  if (!lastPlay) return;
  const named = lastPlay.spot_moves || {};
  const among = indices === null ? null : new Set(indices);
  for (const g of boardEl.querySelectorAll(".spot[data-spot]")) {
    const ks = named[g.dataset.spot];
    g.classList.toggle("legal", !!ks && (among === null || ks.some(k => among.has(k))));
  }
}

function agentsPlay(data) {
  return data.agent_to_act && !data.agent_error && document.getElementById("agents-play").checked;
}

function renderPlay(data) {
  if (data.error) { showError(data.error); return; }
  if (PACE === 0 && agentsPlay(data) && lastPlay !== null && !data.terminal) {
    // (`?pace=0`: the agents' moves one after the other, the board drawn when they stop)
    lastPlay = data;
    if (agentTimer === null) agentTimer = setTimeout(stepAgent, 0);
    return;
  }
  lastPlay = data;
  words = data.moves.map(wordsOf);
  picked = null;
  drawBoard(data);
  listMoves(allMoves());
  const hist = document.getElementById("history");
  hist.replaceChildren();
  for (const h of data.history) hist.appendChild(el("li", h));
  hist.scrollTop = hist.scrollHeight;
  showLast(data.history.slice(-LAST_MOVES));
  // a decision with one answer played at once for the person at the board (docs/web.md): say so
  const forced = data.history.slice(shownHistory).filter(h => / \(forced\)( — |$)/.test(h));
  if (shownHistory > 0 && forced.length) {
    showMessage(forced.map(h => el("div", "Played for you, your only choice: " + h.replace(" (forced)", ""), "forced")));
  }
  shownHistory = data.history.length;
  showMine(data.seat);
  markPickable();
  const seatToAct = data.to_act === null ? "" : String(data.to_act);
  if (!data.terminal && !data.agent_to_act && seatToAct !== viewerEl.value && cfg.viewable.map(String).includes(seatToAct)) {
    // several people at one screen: the next one takes it
    const b = el("button", "P" + seatToAct + " to act: see the board as P" + seatToAct, "handover");
    b.type = "button";
    b.id = "handover";
    b.addEventListener("click", () => { viewerEl.value = seatToAct; showMessage([]); refreshPlay(); });
    showMessage([b]);
  }
  if (data.agent_error) showError(data.agent_error);
  if (data.thinking) statusEl.textContent += " (P" + data.agent_to_act + " is thinking)";
  if (agentsPlay(data) && agentTimer === null) agentTimer = setTimeout(stepAgent, PACE);
}

async function refreshPlay() {
  renderPlay(await getJSON("/api/game/" + cfg.key + "?seat=" + seatParam()));
}

async function stepAgent() {
  agentTimer = null;
  renderPlay(await postJSON("/api/game/" + cfg.key + "/agent", {seat: viewerEl.value}));
}

async function playMove(text) {
  if (busy) return;
  busy = true;
  try {
    // the version (move count) this page drew: a move made on a board the game has left is refused
    const data = await postJSON("/api/game/" + cfg.key + "/move", {seat: viewerEl.value, text: text,
                                                                   version: lastPlay ? lastPlay.version : null});
    if (data.illegal) { showIllegal([data.illegal]); return; }
    showMessage([el("div", "played " + wordsFor(text))]);
    renderPlay(data);
  } finally {
    busy = false;
  }
}

// The moves a click picked: played at once when there is one, else listed to choose from.
function offer(indices, what) {
  if (indices.length === 1) { playMove(lastPlay.moves[indices[0]]); return; }
  listMoves(indices);
  showMessage([el("div", indices.length + " moves " + what + ": choose one"
    + (picked ? ", or a spot to put it on" : ""))]);
}

function wordsFor(text) {
  // a move as the list shows it: the rule set's words for it where it gives them
  const k = lastPlay ? lastPlay.moves.indexOf(text) : -1;
  return (k >= 0 && lastPlay.labels && lastPlay.labels[String(k)]) || text;
}

function shownName(names) {
  // the word the moves use for a piece (`soldier`, not the piece's own id when a name is given too)
  const used = names.filter(n => words.some(ws => ws.includes(n)));
  return used.length ? used[used.length - 1] : names[names.length - 1] || "this";
}

function pickItem(item) {
  const names = namesOf(item);
  const found = naming(names, allMoves());
  clearPicked();
  if (!found.length) {
    showError(words.length ? "No move of yours names this piece now" : "It is not your turn");
    return;
  }
  picked = {names: names};
  item.classList.add("selected");
  lightSpots(found);
  offer(found, "name " + shownName(names));
}

async function pickSpot(spot) {
  const named = spotMoves(spot);
  if (named === null || !named.length || !complete()) {  // none names it (the server says why), or it has them all
    clearPicked();
    await clickSpot(spot);
    return;
  }
  const found = picked ? named.filter(k => words[k].some(w => picked.names.includes(w))) : named;
  if (!found.length) {
    showError("No move of yours names both this piece and " + spot);
    return;
  }
  for (const e of document.querySelectorAll("#board .spot.picked")) e.classList.remove("picked");
  const g = boardEl.querySelector('[data-spot="' + CSS.escape(spot) + '"]');
  if (g) g.classList.add("picked");
  offer(found, "name " + (picked ? shownName(picked.names) + " and " : "") + spot);
}

async function clickSpot(spot) {
  const data = await postJSON("/api/game/" + cfg.key + "/click", {seat: viewerEl.value, spot: spot});
  if (data.illegal) {
    showIllegal([{why: "No move of yours names " + spot + " now:", rule: "", where: ""}].concat(data.illegal));
    return;
  }
  if (data.error) { showError(data.error); return; }
  if (data.moves.length === 1) { await playMove(data.moves[0]); return; }
  renderPlay(data);
  showMessage([el("div", data.moves.length + " moves name " + spot + ": choose one")]);
}

function onBoardClick(e) {
  if (dragged) { dragged = false; return; }
  const item = e.target.closest("[data-names]");
  const spot = e.target.closest("[data-spot]");
  // a piece on a spot: the spot, unless only the piece is named by a move (a piece to pick up)
  if (spot && (!item || !spot.contains(item) || spotMoves(spot.dataset.spot) !== null
               || !item.classList.contains("can"))) {
    pickSpot(spot.dataset.spot);
  } else if (item) {
    pickItem(item);
  }
}

// A piece dragged onto a spot plays the move naming both (pointer events: a mouse, a finger, a pen).
let drag = null;  // {item, names, x, y, ghost}
let dragged = false;

function onPointerDown(e) {
  const item = e.target.closest("[data-names]");
  if (!item || !item.classList.contains("can") || e.button > 0) return;
  drag = {item: item, names: namesOf(item), x: e.clientX, y: e.clientY, ghost: null};
  e.preventDefault();  // (no text selected, no native drag of the drawing)
}

function onPointerMove(e) {
  if (!drag) return;
  if (!drag.ghost) {
    if (Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 8) return;
    drag.ghost = el("div", shownName(drag.names), "ghost");
    document.body.appendChild(drag.ghost);
  }
  drag.ghost.style.left = e.clientX + "px";
  drag.ghost.style.top = e.clientY + "px";
  e.preventDefault();
}

function onPointerUp(e) {
  const d = drag;
  drag = null;
  if (!d || !d.ghost) return;
  d.ghost.remove();
  dragged = true;  // (the click that follows the drop is not a click)
  setTimeout(() => { dragged = false; }, 0);
  const under = document.elementFromPoint(e.clientX, e.clientY);
  const spot = under ? under.closest("#board [data-spot]") : null;
  clearPicked();
  if (!spot) return;
  picked = {names: d.names};
  d.item.classList.add("selected");
  pickSpot(spot.dataset.spot);
}

function setupPlay() {
  setViewerOptions(cfg.viewable);
  viewerEl.addEventListener("change", refreshPlay);
  document.getElementById("show-all").addEventListener("click", () => {
    showMessage([]);
    clearPicked();
    refreshPlay();  // (the last answer may hold only the moves a click on a spot named)
  });
  document.getElementById("typed").addEventListener("submit", (e) => {
    e.preventDefault();
    const t = document.getElementById("move-text").value;
    if (t.trim()) playMove(t);
  });
  document.getElementById("log-link").href = "/api/game/" + cfg.key + "/log";
  document.getElementById("agents-play").addEventListener("change", () => { if (lastPlay) renderPlay(lastPlay); });
  for (const area of [boardEl, mineEl]) {
    area.addEventListener("click", onBoardClick);
    area.addEventListener("pointerdown", onPointerDown);
  }
  document.addEventListener("pointermove", onPointerMove);
  document.addEventListener("pointerup", onPointerUp);
  document.addEventListener("pointercancel", () => { if (drag && drag.ghost) drag.ghost.remove(); drag = null; });
  document.addEventListener("keydown", (e) => {  // Escape: the piece picked up put back, every move listed
    if (e.key !== "Escape" || !lastPlay || e.target.tagName === "INPUT") return;
    clearPicked();
    showMessage([]);
    refreshPlay();
  });
  refreshPlay();
}

// -- replay ----------------------------------------------------------------------------------------
let move = 0;

async function showReplay(n) {
  move = Math.max(0, Math.min(cfg.total, n));
  const data = await getJSON("/api/replay/" + cfg.key + "?move=" + move + "&seat=" + seatParam());
  if (data.error) { showError(data.error); return; }
  drawBoard(data);
  showLast(data.history.slice(Math.max(0, move - LAST_MOVES), move));
  document.getElementById("where").textContent = " move " + move + " of " + cfg.total + " ";
  const hist = document.getElementById("history");  // the moves as this seat reads them
  hist.replaceChildren();
  data.history.forEach((m, i) => {
    const li = el("li", m);
    li.addEventListener("click", () => showReplay(i + 1));
    li.classList.toggle("current", i === move - 1);
    hist.appendChild(li);
  });
}

function setupReplay() {
  setViewerOptions(cfg.viewable);
  viewerEl.value = "referee";
  viewerEl.addEventListener("change", () => showReplay(move));
  if (cfg.problem) showError(cfg.problem);
  document.getElementById("first").addEventListener("click", () => showReplay(0));
  document.getElementById("prev").addEventListener("click", () => showReplay(move - 1));
  document.getElementById("next").addEventListener("click", () => showReplay(move + 1));
  document.getElementById("last-move").addEventListener("click", () => showReplay(cfg.total));
  document.getElementById("jump").addEventListener("submit", (e) => {
    e.preventDefault();
    const n = parseInt(document.getElementById("jump-to").value, 10);
    if (!Number.isNaN(n)) showReplay(n);
  });
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT") return;
    if (e.key === "ArrowRight") showReplay(move + 1);
    if (e.key === "ArrowLeft") showReplay(move - 1);
  });
  showReplay(0);
}

// -- scenarios -------------------------------------------------------------------------------------
let scenario = 0;
let step = 0;

async function showStep(n) {
  const s = cfg.scenarios[scenario];
  step = Math.max(0, Math.min(s.steps.length, n));
  const data = await getJSON("/api/scenario/" + cfg.key + "?k=" + scenario + "&step=" + step + "&seat=" + seatParam());
  document.getElementById("where").textContent = " step " + step + " of " + s.steps.length + " ";
  const items = document.getElementById("steps").children;
  for (let i = 0; i < items.length; i++) items[i].classList.toggle("current", i === step);
  if (data.error) { boardEl.replaceChildren(); showError(data.error); return; }
  showMessage(data.stopped ? [el("div", data.stopped, "why")] : []);
  drawBoard(data);
}

function showScenario(k) {
  scenario = k;
  const s = cfg.scenarios[k];
  const values = [];
  for (let p = 1; p <= s.players; p++) values.push(p);
  values.push("referee");
  setViewerOptions(values);
  viewerEl.value = "referee";
  document.getElementById("scenario-doc").textContent = s.ruleset + " — " + s.where + (s.doc ? "\n" + s.doc : "");
  const steps = document.getElementById("steps");
  steps.replaceChildren();
  const start = el("li", "the position");
  start.addEventListener("click", () => showStep(0));
  steps.appendChild(start);
  s.steps.forEach((t, i) => {
    const li = el("li", t);
    li.addEventListener("click", () => showStep(i + 1));
    steps.appendChild(li);
  });
  const body = document.querySelector("#checks tbody");
  body.replaceChildren();
  if (s.problem) {
    const tr = el("tr", null, "bad");
    tr.appendChild(el("td", "step failed"));
    const td = el("td", s.problem);
    td.colSpan = 3;
    tr.appendChild(td);
    body.appendChild(tr);
  }
  for (const c of s.checks) {
    const tr = el("tr", null, c.ok ? "ok" : "bad");
    tr.appendChild(el("td", c.what));
    tr.appendChild(el("td", JSON.stringify(c.expected)));
    tr.appendChild(el("td", JSON.stringify(c.actual)));
    tr.appendChild(el("td", c.ok ? "ok" : "FAILS"));
    body.appendChild(tr);
  }
  showStep(s.steps.length);
}

function setupScenario() {
  const select = document.getElementById("scenario");
  cfg.scenarios.forEach((s, i) => {
    const o = el("option", (s.passed ? "PASS " : "FAIL ") + s.name);
    o.value = String(i);
    select.appendChild(o);
  });
  select.addEventListener("change", () => showScenario(parseInt(select.value, 10)));
  viewerEl.addEventListener("change", () => showStep(step));
  document.getElementById("prev").addEventListener("click", () => showStep(step - 1));
  document.getElementById("next").addEventListener("click", () => showStep(step + 1));
  if (cfg.scenarios.length) showScenario(0);
}

if (cfg.mode === "play") setupPlay();
else if (cfg.mode === "replay") setupReplay();
else setupScenario();
