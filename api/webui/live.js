// Live updates of a game's page (docs/web.md, "Playing together"): the server's stream of the game
// (server-sent events) says only "the game moved to version N" (its move count); when that is not
// the version this page drew, the page asks for its own view again, with its own link, as board.js
// does (`refreshPlay`). Once the game is over, what it offers: its log, its replay, and the
// `rulewright compare` command that shows how its rule set plays. Every text is set as text.
"use strict";

const live = (() => {
  const liveCfg = JSON.parse(document.getElementById("cfg").textContent);
  const base = "/api/game/" + encodeURIComponent(liveCfg.key);
  let source = null;
  let offered = false;

  function drawn() {  // the version this page drew (board.js's last answer), -1 before any
    return typeof lastPlay !== "undefined" && lastPlay && typeof lastPlay.version === "number" ? lastPlay.version : -1;
  }

  function note(text) {  // a line under the status bar, when the stream is not live
    let line = document.getElementById("live");
    const status = document.getElementById("status");
    if (!line && status) {
      line = document.createElement("div");
      line.id = "live";
      line.className = "live";
      status.after(line);
    }
    if (line) line.textContent = text;
  }

  async function offerEnd() {
    if (offered || !(typeof lastPlay !== "undefined" && lastPlay && lastPlay.terminal)) return;
    offered = true;
    const r = await fetch(base + "/finished", {headers: {"Accept": "application/json"}});
    if (!r.ok) { offered = false; return; }
    const data = await r.json();
    const box = document.createElement("div");
    box.id = "finished";
    box.className = "finished";
    const head = document.createElement("h3");
    head.textContent = "The game is over";
    box.appendChild(head);
    for (const [href, text, id] of [[data.log, "its log (rulewright replay reads it)", "finished-log"],
                                    [data.replay, "its replay, move by move", "finished-replay"]]) {
      const p = document.createElement("p");
      const a = document.createElement("a");
      a.href = href;
      a.id = id;
      a.textContent = text;
      p.appendChild(a);
      box.appendChild(p);
    }
    const why = document.createElement("p");
    why.textContent = "How the rule set plays: " + data.compare_why + (data.compare ? ":" : ".");
    box.appendChild(why);
    if (data.compare) {
      const code = document.createElement("code");
      code.id = "finished-compare";
      code.textContent = data.compare;
      box.appendChild(code);
    }
    if (data.compare_here) {  // a small comparison the server plays (api/webcompare.py), then its verdicts
      const button = document.createElement("button");
      button.id = "finished-compare-here";
      button.textContent = "play " + data.compare_games + " paired games of each here now";
      const out = document.createElement("div");
      out.id = "finished-compared";
      button.addEventListener("click", () => { button.disabled = true; compareHere(data.compare_here, out); });
      box.appendChild(button);
      box.appendChild(out);
    }
    const side = document.getElementById("side") || document.body;
    side.appendChild(box);
  }

  async function compareHere(url, out) {
    let data = await postJSON(url, {});
    for (let k = 0; k < 900 && (data.state === "playing" || data.state === "waiting"); k++) {
      out.textContent = data.state === "waiting" ? data.why
        : "playing " + data.what + ": " + data.played + " of " + data.of + " games";
      await new Promise(done => setTimeout(done, 1000));
      data = data.state === "waiting" ? await postJSON(url, {}) : await getJSON(url);
    }
    out.replaceChildren();
    if (data.error) { out.textContent = "could not compare: " + data.error; return; }
    const list = document.createElement("ul");
    for (const line of data.lines || []) {
      const item = document.createElement("li");
      item.textContent = line;
      list.appendChild(item);
    }
    const more = document.createElement("p");
    more.textContent = "So few games give wide intervals; for more, run the command above.";
    out.appendChild(list);
    out.appendChild(more);
  }

  let latest = -1;
  let refreshing = false;

  async function moved(version) {
    latest = Math.max(latest, version);
    if (refreshing) return;  // (the refresh under way looks again when it ends)
    if (typeof inFlight !== "undefined" && inFlight > 0) {  // (the page's own request answers first)
      setTimeout(() => moved(latest), 250);
      return;
    }
    refreshing = true;
    try {
      // a few times at most: answers to two refreshes may arrive in either order. Only a page
      // behind the game asks: an event late for a version the page drew already (it got there
      // through its own move or an agent's) must not draw the board again under a click.
      for (let k = 0; k < 3 && drawn() < latest && !(typeof busy !== "undefined" && busy); k++) {
        await refreshPlay();
      }
    } finally {
      refreshing = false;
    }
    offerEnd();
  }

  function open() {
    if (source) return;
    source = new EventSource(base + "/events");
    source.addEventListener("version", (e) => {
      note("");
      moved(parseInt(e.data, 10));
    });
    source.addEventListener("gone", (e) => {
      if (e.data === "the server stopped") {  // (the browser reconnects by itself: a saved game comes back)
        note("the server stopped: this page goes on when it starts again");
        return;
      }
      close();
      note("the server let this game go, as it was not played for a while: reload the page to take it up again");
    });
    source.addEventListener("error", () => note("reconnecting..."));
  }

  function close() {
    if (source) source.close();
    source = null;
  }

  if (liveCfg.mode === "play") open();
  return {open, close};
})();
