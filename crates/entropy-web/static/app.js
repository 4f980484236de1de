"use strict";
// The Entropy page. A game is its position text; the server describes positions, checks and
// plays moves, draws chips and lets bots move (see /api/openapi.json).

const LETTERS = ["", "R", "G", "Y", "B", "W", "K", "P"];
const NAMES = ["", "red", "green", "yellow", "blue", "white", "black", "purple"];
const $ = (id) => document.getElementById(id);

const game = { mode: "order", view: null, moves: [], history: [], selected: null, last: [], running: 0, replay: null };

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
  const view = game.view;
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
  $("moves").innerHTML = game.moves.map((m) => `<li>${m}</li>`).join("");
  $("moves").scrollTop = 1e9;
  const role = humanRole();
  $("pass").disabled = !(role === "order" && view.phase === "slide" && !game.running);
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

async function play(move, who) {
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
  const token = ++game.running;
  try {
    while (game.view && game.view.phase !== "over" && token === game.running) {
      const view = game.view;
      if (view.phase === "draw") {
        game.view = await api("/api/draw", { position: view.position });
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
  if (!view || game.running || game.mode === "watch" || game.mode === "replay") return;
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
  game.mode = $("mode").value;
  $("replay-controls").hidden = game.mode !== "replay";
  $("speed-label").hidden = game.mode !== "watch";
  game.moves = [];
  game.history = [];
  game.last = [];
  game.selected = null;
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
