"use strict";
// The Entropy page. A game is its position text; the server describes positions, checks and
// plays moves, draws chips and lets bots move (see /api/openapi.json).

const LETTERS = ["", "R", "G", "Y", "B", "W", "K", "P"];
const NAMES = ["", "red", "green", "yellow", "blue", "white", "black", "purple"];
const $ = (id) => document.getElementById(id);

const game = { mode: "order", view: null, moves: [], history: [], selected: null, last: [], running: 0, replay: null, evals: [], marks: [], peek: null, reviewing: 0, epoch: 0 };

// What the analysis costs per position: the graph's points and the review (about 6 ms each).
const GRAPH_NODES = 20000;

async function api(path, body) {
  const response = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function cellName(index, size) {
  const row = Math.floor(index / size), column = index % size;
  return String.fromCharCode(65 + row) + String.fromCharCode(97 + column);
}

function emptyPosition(size) {
  return Array.from({ length: size }, () => ".".repeat(size)).join("/") + " draw";
}

function status(text, error = false) {
  $("status").textContent = text;
  $("status").className = error ? "error" : "";
}

function chipLabel(colour) {
  return `${LETTERS[colour]}`;
}

function humanRole() {
  return game.mode === "order" || game.mode === "chaos" ? game.mode : null;
}

function render() {
  const view = game.peek || game.view;
  if (!view) return;
  const n = view.size;
  const board = $("board");
  board.innerHTML = "";
  board.style.gridTemplateColumns = `1.5em repeat(${n}, var(--cell)) 2.2em`;
  const add = (cls, text, extra = {}) => {
    const div = document.createElement("div");
    div.className = cls;
    div.textContent = text;
    Object.assign(div.dataset, extra);
    board.appendChild(div);
    return div;
  };
  add("label", "");
  for (let c = 0; c < n; c++) add("label", String.fromCharCode(97 + c));
  add("label", "");
  const targets = new Set();
  if (game.selected) {
    for (const mv of view.legal) if (mv.length === 4 && mv.startsWith(game.selected)) targets.add(mv.slice(2));
  }
  for (let r = 0; r < n; r++) {
    add("label", String.fromCharCode(65 + r));
    for (let c = 0; c < n; c++) {
      const index = r * n + c, name = cellName(index, n), colour = view.cells[index];
      const div = add("cell", colour ? chipLabel(colour) : "", { cell: name });
      div.setAttribute("role", "gridcell");
      div.setAttribute("aria-label", colour ? `${name} ${NAMES[colour]}` : `${name} empty`);
      if (colour) div.classList.add(`c${colour}`, "chip"); else div.classList.add("empty");
      if (targets.has(name)) div.classList.add("target");
      if (game.selected === name) div.classList.add("selected");
      if (game.last.includes(name)) div.classList.add("last");
      div.addEventListener("click", () => clickCell(name));
    }
    add("label linescore", String(view.rows[r]), { row: String(r) });
  }
  add("label", "");
  for (let c = 0; c < n; c++) add("label linescore", String(view.columns[c]), { column: String(c) });
  add("label linescore", "");
  $("score").textContent = view.score;
  $("drawn").innerHTML = view.drawn ? `<span class="mini c${view.drawn}">${LETTERS[view.drawn]}</span> ${NAMES[view.drawn]}` : "-";
  $("bag").innerHTML = view.bag.map((count, i) => `<span class="bagchip"><span class="mini c${i + 1}">${LETTERS[i + 1]}</span>x${count}</span>`).join("");
  $("moves").innerHTML = game.moves.map((m, i) => {
    const loss = game.marks[i];
    return loss >= 2 ? `<li class="mistake" title="gave away ${loss.toFixed(1)} expected points">${m}</li>` : `<li>${m}</li>`;
  }).join("");
  $("moves").scrollTop = 1e9;
  const role = humanRole();
  $("pass").disabled = !(role === "order" && view.phase === "slide" && !game.running && !game.peek);
  $("hint").disabled = !(view.phase === "place" || view.phase === "slide") || game.reviewing > 0;
  const reviewable = game.mode === "replay" ? Boolean(game.replay && game.replay.views.length > 1) : game.view.phase === "over" && game.moves.length > 0;
  $("review").disabled = !reviewable || game.reviewing > 0;
  drawGraph();
  evaluateCurrent();
  $("download").disabled = game.moves.length === 0;
  $("result").textContent = view.phase === "over" ? `Game over: Order scores ${view.score}.` : "";
  // For people and tests alike: is the page waiting for a move, thinking, or done?
  document.body.dataset.state = view.phase === "over" ? "over" : game.running ? "thinking" : "waiting";
}

function lastCells(move) {
  if (/^\d[A-G][a-g]$/.test(move)) return [move.slice(1)];
  if (/^[A-G][a-g][A-G][a-g]$/.test(move)) return [move.slice(0, 2), move.slice(2)];
  return [];
}

// The expected final score of the position after the moves played so far, for the graph.
async function evaluateCurrent() {
  if (game.mode === "replay" || game.peek) return;
  const view = game.view, index = game.moves.length;
  if (game.evals[index] !== undefined) return;
  if (view.phase === "over") {
    game.evals[index] = view.score;
    drawGraph();
    return;
  }
  if (view.phase !== "place" && view.phase !== "slide") return;
  game.evals[index] = null; // asked
  try {
    const answer = await api("/api/analyse", { position: view.position, moves: 1, nodes: GRAPH_NODES });
    if (game.view === view || game.history.includes(view)) {
      game.evals[index] = answer.moves[0].expected;
      drawGraph();
    }
  } catch (error) {
    game.evals[index] = undefined;
  }
}

// The evaluation graph: a point per move played, the expected final score after it; a click
// shows that position.
function drawGraph() {
  const svg = $("graph");
  const points = game.evals.map((v, i) => [i, v]).filter(([, v]) => typeof v === "number");
  const total = Math.max(game.replay && game.mode === "replay" ? game.replay.views.length - 1 : game.moves.length, 1);
  const width = 600, height = 140, left = 30, right = 8, top = 8, bottom = 18;
  const values = points.map(([, v]) => v);
  const low = Math.floor(Math.min(...values, 0) / 10) * 10, high = Math.ceil(Math.max(...values, 10) / 10) * 10;
  const x = (i) => left + (i / total) * (width - left - right);
  const y = (v) => top + (1 - (v - low) / (high - low)) * (height - top - bottom);
  let html = `<line class="axis" x1="${left}" y1="${y(low)}" x2="${width - right}" y2="${y(low)}"/>`;
  html += `<text x="2" y="${y(high) + 4}">${high}</text><text x="2" y="${y(low)}">${low}</text>`;
  html += `<text x="${width - right - 60}" y="${height - 4}">move ${total}</text>`;
  if (points.length > 1) html += `<polyline class="line" points="${points.map(([i, v]) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ")}"/>`;
  const shown = game.mode === "replay" && game.replay ? game.replay.step : game.peek ? game.history.indexOf(game.peek) : game.moves.length;
  for (const [i, v] of points) {
    const cls = ["point"];
    if (i > 0 && game.marks[i - 1] >= 2) cls.push("mistake");
    if (i === shown) cls.push("current");
    const title = `after move ${i}: ${v.toFixed(1)}` + (i > 0 && game.marks[i - 1] > 0 ? `, move ${i} gave away ${game.marks[i - 1].toFixed(1)}` : "");
    html += `<circle class="${cls.join(" ")}" data-index="${i}" cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="4"><title>${title}</title></circle>`;
  }
  svg.innerHTML = html;
  for (const circle of svg.querySelectorAll(".point")) circle.addEventListener("click", () => goTo(Number(circle.dataset.index)));
  $("graph-note").textContent = points.length ? `(now ${points[points.length - 1][1].toFixed(1)})` : "";
}

// Shows the position after `index` moves: a replay step, or a look back during a game.
function goTo(index) {
  if (game.mode === "replay" && game.replay) {
    game.replay.step = Math.max(0, Math.min(game.replay.views.length - 1, index));
    showReplayStep();
    return;
  }
  if (index >= game.moves.length || !game.history[index]) {
    game.peek = null;
    status("Back to the game.");
  } else {
    game.peek = game.history[index];
    status(`Showing the position after move ${index}; click the graph's last point to go back.`);
  }
  render();
}

async function hint() {
  const view = game.peek || game.view;
  $("explanation").textContent = "Thinking...";
  try {
    const answer = await api("/api/analyse", { position: view.position, moves: 2, timeMs: 1000 });
    const best = answer.moves[0];
    $("explanation").textContent = `Best: ${best.compact}. ${answer.explanation || `Expected final score ${best.expected.toFixed(1)}.`}`;
  } catch (error) {
    $("explanation").textContent = `No hint: ${error.message}`;
  }
}

// Reviews the game shown: every decision's best move against the move played; the losses
// mark the moves list and the graph.
async function review() {
  const replaying = game.mode === "replay" && game.replay;
  const moves = replaying ? game.replay.records[Number($("record-game").value)].moves : game.moves;
  const views = replaying ? game.replay.views : game.history;
  const token = ++game.reviewing;
  game.marks = [];
  const lost = { order: 0, chaos: 0 };
  const worst = [];
  render();
  try {
    for (let i = 0; i < moves.length && token === game.reviewing; i++) {
      const position = decisionBefore(views[i], moves[i]);
      if (!position) continue;
      status(`Reviewing move ${i + 1} of ${moves.length}...`);
      const answer = await api("/api/analyse", { position, moves: 1, nodes: GRAPH_NODES, move: moves[i] });
      const best = answer.moves[0].expected, played = answer.played.expected;
      const loss = Math.max(0, answer.turn === "order" ? best - played : played - best);
      game.marks[i] = loss;
      if (i === 0) game.evals[0] = best;
      game.evals[i + 1] = played;
      lost[answer.turn] += loss;
      worst.push({ i, loss, played: moves[i], best: answer.moves[0].compact, role: answer.turn });
      render();
    }
    worst.sort((a, b) => b.loss - a.loss);
    const biggest = worst.filter((w) => w.loss >= 2).slice(0, 3).map((w) => `move ${w.i + 1} (${w.role}) ${w.played} instead of ${w.best}: -${w.loss.toFixed(1)}`);
    $("explanation").textContent = `Review: Order gave away ${lost.order.toFixed(1)} expected points, Chaos ${lost.chaos.toFixed(1)}.` + (biggest.length ? ` Biggest mistakes: ${biggest.join("; ")}.` : " No move lost 2 points or more.");
    status("Review done: mistakes are marked in red in the moves and on the graph.");
  } catch (error) {
    status(`Review failed: ${error.message}`, true);
  } finally {
    if (token === game.reviewing) game.reviewing = 0;
    render();
  }
}

// The decision position at which `move` was played from `view`: a record's placement comes
// before its draw (the view is at the chance node), so the drawn colour is put in.
function decisionBefore(view, move) {
  if (!view) return null;
  if (view.phase === "place" || view.phase === "slide") return view.position;
  if (view.phase === "draw" && /^\d/.test(move)) return view.position.replace(/ draw$/, ` ${move[0]}`);
  return null;
}

async function play(move, who) {
  game.peek = null;
  const view = await api("/api/play", { position: game.view.position, move });
  game.history.push(game.view);
  game.view = view;
  game.moves.push(move);
  game.last = lastCells(move);
  game.selected = null;
  if (who) status(`${who} played ${move}.`);
  render();
}

function botChoice() {
  const [bot, time] = $("bot").value.split("|");
  return { bot, timeMs: Number(time) };
}

async function advance() {
  // A token unique over the page's life: a loop left over from an earlier game (its bot still
  // thinking) must never take a later game's moves for its own.
  const token = ++game.epoch;
  game.running = token;
  try {
    while (game.view && game.view.phase !== "over" && token === game.running) {
      const view = game.view;
      if (view.phase === "draw") {
        const drawn = await api("/api/draw", { position: view.position });
        if (token !== game.running) break;
        game.view = drawn;
        render();
        continue;
      }
      const toMove = view.phase === "place" ? "chaos" : "order";
      if (toMove === humanRole()) {
        status(toMove === "chaos" ? `Your turn: place the ${NAMES[view.drawn]} chip on an empty cell.` : "Your turn: click a chip, then where it slides to, or pass.");
        break;
      }
      if (game.mode === "watch") await new Promise((resolve) => setTimeout(resolve, Number($("speed").value)));
      if (token !== game.running) break;
      status(`${toMove === "chaos" ? "Chaos" : "Order"} (bot) is thinking...`);
      const { bot, timeMs } = botChoice();
      const reply = await api("/api/bot", { position: view.position, bot, timeMs });
      if (token !== game.running) break;
      game.history.push(game.view);
      game.view = reply.view;
      game.moves.push(view.phase === "place" ? reply.move : reply.move);
      game.last = lastCells(reply.move);
      $("expected").textContent = reply.expected == null ? "-" : reply.expected.toFixed(1);
      status(`${toMove === "chaos" ? "Chaos" : "Order"} (bot) played ${reply.move}.`);
      render();
    }
    if (game.view && game.view.phase === "over") status(`Game over: Order scores ${game.view.score}.`);
  } catch (error) {
    status(error.message, true);
  } finally {
    if (token === game.running) game.running = 0;
    render();
  }
}

async function clickCell(name) {
  const view = game.view;
  if (!view || game.running || game.peek || game.mode === "watch" || game.mode === "replay") return;
  const role = humanRole();
  try {
    if (view.phase === "place" && role === "chaos") {
      await play(`${view.drawn}${name}`, "You");
      await advance();
    } else if (view.phase === "slide" && role === "order") {
      const index = name.charCodeAt(0) - 65, column = name.charCodeAt(1) - 97;
      const hasChip = view.cells[index * view.size + column] !== 0;
      if (!game.selected) {
        if (!hasChip) throw new Error(`there is no chip on ${name}: click a chip first`);
        game.selected = name;
        render();
      } else if (game.selected === name) {
        game.selected = null;
        render();
      } else if (hasChip && !view.legal.includes(`${game.selected}${name}`)) {
        game.selected = name;
        render();
      } else {
        const from = game.selected;
        game.selected = null;
        await play(`${from}${name}`, "You");
        await advance();
      }
    }
  } catch (error) {
    game.selected = null;
    render();
    status(`Not allowed: ${error.message}`, true);
  }
}

async function newGame() {
  game.running = 0;
  game.epoch++;
  game.mode = $("mode").value;
  $("replay-controls").hidden = game.mode !== "replay";
  $("speed-label").hidden = game.mode !== "watch";
  game.moves = [];
  game.history = [];
  game.last = [];
  game.selected = null;
  game.evals = [];
  game.marks = [];
  game.peek = null;
  game.reviewing = 0;
  $("explanation").textContent = "";
  $("expected").textContent = "-";
  try {
    game.view = await api("/api/position", { position: emptyPosition(Number($("size").value)) });
    render();
    if (game.mode === "replay") {
      status("Choose a JSON lines record written by `entropy match`.");
      return;
    }
    await advance();
  } catch (error) {
    status(error.message, true);
  }
}

async function loadReplay(index) {
  const record = game.replay.records[index];
  const size = record.board.split("/").length;
  let view = await api("/api/position", { position: emptyPosition(size) });
  const views = [view];
  for (const move of record.moves) {
    view = await api("/api/play", { position: view.position, move });
    views.push(view);
  }
  game.replay.views = views;
  game.replay.step = 0;
  game.evals = [];
  game.marks = [];
  game.reviewing = 0;
  $("explanation").textContent = "Review game values every move and marks the mistakes.";
  showReplayStep();
}

function showReplayStep() {
  const r = game.replay;
  const record = r.records[Number($("record-game").value)];
  game.view = r.views[r.step];
  game.moves = record.moves.slice(0, r.step);
  game.last = r.step ? lastCells(record.moves[r.step - 1]) : [];
  status(`Move ${r.step} of ${record.moves.length} (${record.order.name} as Order, ${record.chaos.name} as Chaos).`);
  render();
}

$("record-file").addEventListener("change", async (event) => {
  const text = await event.target.files[0].text();
  try {
    const records = text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
    game.replay = { records, views: [], step: 0 };
    $("record-game").innerHTML = records.map((r, i) => `<option value="${i}">deal ${r.deal} game ${r.game}: S = ${r.score}</option>`).join("");
    await loadReplay(0);
  } catch (error) {
    status(`Cannot read the record: ${error.message}`, true);
  }
});
$("record-game").addEventListener("change", () => loadReplay(Number($("record-game").value)));
const stepTo = (f) => () => {
  if (!game.replay || !game.replay.views.length) return;
  game.replay.step = Math.max(0, Math.min(game.replay.views.length - 1, f(game.replay.step, game.replay.views.length - 1)));
  showReplayStep();
};
$("first").addEventListener("click", stepTo(() => 0));
$("prev").addEventListener("click", stepTo((s) => s - 1));
$("next").addEventListener("click", stepTo((s) => s + 1));
$("last").addEventListener("click", stepTo((_, end) => end));

$("hint").addEventListener("click", hint);
$("review").addEventListener("click", review);
$("pass").addEventListener("click", async () => {
  try {
    await play("pass", "You");
    await advance();
  } catch (error) {
    status(`Not allowed: ${error.message}`, true);
  }
});
$("new").addEventListener("click", newGame);
$("mode").addEventListener("change", newGame);
$("size").addEventListener("change", newGame);
$("download").addEventListener("click", () => {
  const record = { moves: game.moves, board: game.view.position.split(" ")[0], score: game.view.score, order: { name: game.mode === "order" ? "you" : $("bot").value }, chaos: { name: game.mode === "chaos" ? "you" : $("bot").value }, deal: 0, game: 0 };
  const blob = new Blob([JSON.stringify(record) + "\n"], { type: "application/x-ndjson" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = "entropy-game.jsonl";
  link.click();
});

newGame();
