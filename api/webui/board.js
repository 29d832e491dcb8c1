// The web board's one script: asks the server for the drawing of the seat viewed and sends
// clicks and moves. Every text shown is set with textContent; the drawing is SVG made and
// escaped by the server (api/draw.py).
"use strict";

const cfg = JSON.parse(document.getElementById("cfg").textContent);
const boardEl = document.getElementById("board");
const statusEl = document.getElementById("status");
const messageEl = document.getElementById("message");
const viewerEl = document.getElementById("viewer");
let agentTimer = null;
let lastPlay = null;  // the last answer drawn in play
let busy = false;

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

async function getJSON(url) {
  const r = await fetch(url, {headers: {"Accept": "application/json"}});
  return r.json();
}

async function postJSON(url, body) {
  // the server's token (in the page's cfg): a request without it changes nothing
  const r = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json",
                                                        "X-Rulewright-Token": cfg.token},
                              body: JSON.stringify(body)});
  return r.json();
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

function drawBoard(data) {
  boardEl.innerHTML = data.svg;
  let text;
  if (data.terminal) {
    text = "Game over" + (data.winners && data.winners.length ? ": won by " + data.winners.map(p => "P" + p).join(", ") : "");
    if (data.returns) {  // (a rule set declaring `returns:`: each seat's, and a draw when nobody wins)
      text += (data.winners.length ? "" : ": a draw") + "; returns " +
        data.returns.map((r, i) => "P" + (i + 1) + " " + (r > 0 ? "+" : "") + r).join(", ");
    }
  } else {
    const together = data.choosing || [];
    text = "Turn " + data.turn + ", phase " + data.phase + ": "
      + (together.length > 1 ? together.map(p => "P" + p).join(", ") + " choose at once" : "P" + data.to_act + " to act")
      + (data.chosen ? " (you chose " + data.chosen + ")" : "");
  }
  statusEl.textContent = text + " — seen as " + (typeof data.seat === "number" ? "P" + data.seat : data.seat);
}

// -- play ------------------------------------------------------------------------------------------
function seatParam() { return encodeURIComponent(viewerEl.value); }

function renderPlay(data) {
  if (data.error) { showError(data.error); return; }
  drawBoard(data);
  const list = document.getElementById("moves");
  list.replaceChildren();
  for (const m of data.moves) {
    const li = el("li");
    const b = el("button", m, "move");
    b.type = "button";
    b.dataset.move = m;
    b.addEventListener("click", () => playMove(m));
    li.appendChild(b);
    list.appendChild(li);
  }
  if (data.moves_total > data.moves.length) list.appendChild(el("li", "... " + (data.moves_total - data.moves.length) + " more: click a spot"));
  const hist = document.getElementById("history");
  hist.replaceChildren();
  for (const h of data.history) hist.appendChild(el("li", h));
  hist.scrollTop = hist.scrollHeight;
  lastPlay = data;
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
  if (data.agent_to_act && !data.agent_error && agentTimer === null && document.getElementById("agents-play").checked) {
    agentTimer = setTimeout(stepAgent, 200);
  }
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
    showMessage([el("div", "played " + text)]);
    renderPlay(data);
  } finally {
    busy = false;
  }
}

async function clickSpot(spot) {
  const data = await postJSON("/api/game/" + cfg.key + "/click", {seat: viewerEl.value, spot: spot});
  if (data.illegal) {
    showIllegal([{why: "No move of yours names " + spot + " now:", rule: "", where: ""}].concat(data.illegal));
    return;
  }
  if (data.error) { showError(data.error); return; }
  if (data.moves.length === 1) { await playMove(data.moves[0]); return; }
  showMessage([el("div", data.moves.length + " moves name " + spot + ": choose one")]);
  renderPlay(data);
}

function setupPlay() {
  setViewerOptions(cfg.viewable);
  viewerEl.addEventListener("change", refreshPlay);
  document.getElementById("show-all").addEventListener("click", () => { showMessage([]); refreshPlay(); });
  document.getElementById("typed").addEventListener("submit", (e) => {
    e.preventDefault();
    const t = document.getElementById("move-text").value;
    if (t.trim()) playMove(t);
  });
  document.getElementById("log-link").href = "/api/game/" + cfg.key + "/log";
  document.getElementById("agents-play").addEventListener("change", () => { if (lastPlay) renderPlay(lastPlay); });
  boardEl.addEventListener("click", (e) => {
    const g = e.target.closest("[data-spot]");
    if (g) clickSpot(g.dataset.spot);
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
  document.getElementById("last").addEventListener("click", () => showReplay(cfg.total));
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
