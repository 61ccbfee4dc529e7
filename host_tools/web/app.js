// The virtual smart board's page: polls /api/state (host_tools/websim.py) and draws the
// LEDs, the chips, the display and the scores; clicks and keys become chips laid or lifted
// and button presses. Plain JavaScript, no libraries.
"use strict";

const POLL_MS = 150;
const KEEP_EVENTS = 40;
const SHOWN_EVENTS = 9;
// The firmware dims the LEDs to about 40 % (its brightness setting): that is full glow here.
const FULL_LED = 102;
// Players' colours, as the firmware lights the corners for the player to move (firmware/leds.py).
const PLAYER_RGB = ["0, 90, 255", "255, 120, 0", "200, 0, 255", "0, 220, 200"];
const FACE_ORDER = "0123456789+-×÷/=?";
const OPERATORS = "+-×÷/=";
const GAME_NAMES = { calculissimo: "Calculissimo", calqable: "Cal-Q-Able" };
const MODE_HINTS = {
  play: "Lay chips on the board, then press OK. OK with no chip: the menu.",
  pick: "Choose the joker's value with ◀ ▶, then OK.",
  menu: "Menu: ◀ ▶ to choose, OK to select, BACK to leave.",
  swap: "How many chips go back to the bag? ◀ ▶, then OK.",
  take_back: "Take the lost turn's chips back off the board.",
  tally: "Game over: lay each player's leftover chips, or enter them with ◀ ▶ OK.",
  over: "Final scores. Clear the board and press OK for a new game.",
  resume: "A saved game: OK to resume it, BACK for a new game.",
  clear: "Clear the board to start a new game.",
};
const REASONS = {
  first_move_off_start: "the first move must cover the star",
  not_in_line: "the chips must be in one line",
  gap: "there is a gap in the line",
  not_connected: "touch the chips already played",
  no_calculation: "not a calculation yet",
  malformed: "not a calculation yet",
  two_multiplications: "two multiplications in one run",
  division_by_zero: "division by zero",
  not_integer: "a division does not come out even",
  not_positive: "a run is not positive",
  too_many_chips: "more chips than a rack holds",
  chip_unavailable: "no such chip left",
};

const $ = (id) => document.getElementById(id);
const view = {
  size: "", // "w x h" of the grid built
  squares: {}, // "H8" -> {el, led, chip, mark}
  layout: "",
  oled: "",
  since: 0,
  events: [],
  state: null,
  totals: [],
  eventsKey: "",
};

function squareName(index, width) {
  return String.fromCharCode(65 + (index % width)) + (Math.floor(index / width) + 1);
}

function faceText(face) {
  return face === "-" ? "−" : face;
}

function faceClass(face) {
  if (face === "?") return "joker";
  return OPERATORS.includes(face) ? "op" : "";
}

// ----- the board ----------------------------------------------------------------------

function buildBoard(width, height) {
  const board = $("board");
  board.textContent = "";
  board.style.gridTemplateColumns = `22px repeat(${width}, var(--sq))`;
  board.style.gridTemplateRows = `22px repeat(${height}, var(--sq))`;
  const glass = document.createElement("div");
  glass.className = "glass";
  board.append(glass);
  for (let c = 0; c < width; c++) {
    const label = document.createElement("div");
    label.className = "coord";
    label.textContent = String.fromCharCode(65 + c);
    label.style.gridArea = `1 / ${c + 2}`;
    board.append(label);
  }
  view.squares = {};
  for (let r = 0; r < height; r++) {
    const label = document.createElement("div");
    label.className = "coord";
    label.textContent = String(r + 1);
    label.style.gridArea = `${r + 2} / 1`;
    board.append(label);
    for (let c = 0; c < width; c++) {
      const name = squareName(r * width + c, width);
      const el = document.createElement("div");
      el.className = "sq";
      el.dataset.square = name;
      el.setAttribute("role", "gridcell");
      el.title = name;
      el.style.gridArea = `${r + 2} / ${c + 2}`;
      board.append(el);
      view.squares[name] = { el, led: "", chip: null };
    }
  }
  view.size = `${width}x${height}`;
  view.layout = "";
}

// The LED as the eye sees it: full hue, brightness lifted (the firmware's 40 % is full
// glow here, and a square root so the dim premium glows stay visible next to lit ones).
function ledLook(rgb) {
  const peak = Math.max(rgb[0], rgb[1], rgb[2]);
  if (peak === 0) return { rgb: "0, 0, 0", a: 0 };
  const hue = rgb.map((v) => Math.round((v * 255) / peak));
  const a = Math.sqrt(Math.min(1, peak / FULL_LED));
  return { rgb: hue.join(", "), a: Math.max(0.18, a).toFixed(3) };
}

function drawLayout(info, width) {
  if (!info || info.layout === view.layout) return;
  view.layout = info.layout;
  const legend = $("legend");
  legend.textContent = "";
  for (const [letter, entry] of Object.entries(info.legend)) {
    const li = document.createElement("li");
    li.innerHTML = `<i style="--c: ${entry.colour.join(", ")}"></i>`;
    li.append(entry.label);
    li.dataset.premium = letter;
    legend.append(li);
  }
  for (let i = 0; i < info.layout.length; i++) {
    const sq = view.squares[squareName(i, width)];
    if (!sq) continue;
    sq.el.querySelector(".mark")?.remove();
    const entry = info.legend[info.layout[i]];
    const name = squareName(i, width);
    if (!entry && name !== info.start) {
      sq.el.title = name;
      continue;
    }
    const mark = document.createElement("span");
    mark.className = "mark";
    if (name === info.start) {
      mark.classList.add("star");
      mark.textContent = "★";
    } else {
      if (entry.kind === "run") mark.classList.add("run");
      mark.textContent = `×${entry.factor}`;
    }
    mark.style.setProperty("--pc", entry ? entry.colour.join(", ") : "255, 160, 60");
    sq.el.prepend(mark);
    sq.el.title = entry ? `${name}: ${entry.label}` : `${name}: start`;
  }
}

function drawSquares(state) {
  const { width, leds, chips } = state;
  for (let i = 0; i < leds.length; i++) {
    const name = squareName(i, width);
    const sq = view.squares[name];
    if (!sq) continue;
    const key = leds[i].join(",");
    if (key !== sq.led) {
      sq.led = key;
      const look = ledLook(leds[i]);
      sq.el.dataset.led = key;
      sq.el.style.setProperty("--rgb", look.rgb);
      sq.el.style.setProperty("--a", look.a);
      sq.el.classList.toggle("lit", Math.max(...leds[i]) >= 20);
    }
    const face = chips[name] ?? null;
    if (face !== sq.chip) {
      sq.chip = face;
      sq.el.querySelector(".chip")?.remove();
      sq.el.classList.toggle("has-chip", face !== null);
      if (face !== null) {
        const chip = document.createElement("span");
        chip.className = `chip ${faceClass(face)}`;
        chip.dataset.chip = face;
        chip.textContent = faceText(face);
        sq.el.append(chip);
        sq.el.setAttribute("aria-label", `${name}: chip ${face}`);
      } else {
        sq.el.removeAttribute("aria-label");
      }
    }
  }
}

// ----- the display --------------------------------------------------------------------

function drawOled(hex) {
  if (hex === view.oled) return;
  view.oled = hex;
  const canvas = $("oled");
  const ctx = canvas.getContext("2d");
  const image = ctx.createImageData(128, 64);
  const px = image.data;
  for (let y = 0; y < 64; y++) {
    for (let b = 0; b < 16; b++) {
      const byte = parseInt(hex.substr((y * 16 + b) * 2, 2), 16);
      for (let k = 0; k < 8; k++) {
        const o = (y * 128 + b * 8 + k) * 4;
        const on = byte & (0x80 >> k);
        px[o] = 190;
        px[o + 1] = 228;
        px[o + 2] = 255;
        px[o + 3] = on ? 255 : 0; // dark pixels let the black glass behind show
      }
    }
  }
  ctx.putImageData(image, 0, 0);
}

// ----- the side panel ------------------------------------------------------------------

function drawPlayers(state) {
  const list = $("totals");
  const n = state.names.length;
  if (list.children.length !== n) {
    list.textContent = "";
    for (let p = 0; p < n; p++) {
      const li = document.createElement("li");
      li.className = "player";
      li.dataset.player = String(p + 1);
      li.style.setProperty("--pc", PLAYER_RGB[p % PLAYER_RGB.length]);
      li.innerHTML =
        '<span class="dot"></span><span class="name"></span>' +
        '<span class="turn">to play</span><span class="total"></span>';
      list.append(li);
    }
    view.totals = [];
  }
  for (let p = 0; p < n; p++) {
    const li = list.children[p];
    li.querySelector(".name").textContent = state.names[p];
    const total = String(state.totals[p] ?? 0);
    const cell = li.querySelector(".total");
    if (cell.textContent !== total) {
      if (view.totals[p] !== undefined) {
        li.classList.remove("bump");
        void li.offsetWidth; // restart the animation
        li.classList.add("bump");
      }
      cell.textContent = total;
      li.dataset.total = total;
      view.totals[p] = total;
    }
    const moving = state.to_move === p && state.mode !== "over";
    li.classList.toggle("to-move", moving);
    if (moving) li.setAttribute("aria-current", "true");
    else li.removeAttribute("aria-current");
  }
}

function player(ev) {
  const names = view.state ? view.state.names : [];
  return names[ev.player - 1] || `P${ev.player}`;
}

// One event line in words, and a class for its colour.
function describe(ev) {
  const codes = (list) => (list || []).map((c) => REASONS[c] || c.replaceAll("_", " ")).join(", ");
  switch (ev.ev) {
    case "boot": return ["The board is switched on", "quiet"];
    case "new_game": return [`New game, ${ev.players} players`, "good"];
    case "resume": return ["The saved game is back", "good"];
    case "placed": return [`${faceText(ev.face ?? "a chip")} laid on ${ev.square}`, ""];
    case "lifted": return [`Chip lifted from ${ev.square}`, "quiet"];
    case "preview":
      if (ev.legal) return [`That move is worth ${ev.score} points`, "good"];
      return [`Not yet: ${codes(ev.codes)}`, "quiet"];
    case "button": return [`${ev.name.toUpperCase()} pressed`, "quiet"];
    case "move": return [`${player(ev)} scores ${ev.score}`, "good"];
    case "replace": return [`${player(ev)} replaces, scores ${ev.score}`, "good"];
    case "illegal": return [`${player(ev)}: ${codes(ev.codes)}`, "bad"];
    case "bonus_turn": return [`Bonus turn for ${player(ev)}!`, "good"];
    case "pass": return [`${player(ev)} passes`, ""];
    case "timeout": return [`${player(ev)} ran out of time`, "bad"];
    case "swap": return [`${player(ev)} swaps ${ev.count} chips`, ""];
    case "missing": return [`Put the chip back on ${ev.square}`, "bad"];
    case "restored": return [`${ev.square} is back`, "good"];
    case "wrong_chip": return [`${ev.square} holds ${ev.face}, not ${ev.want}`, "bad"];
    case "unknown_chip": return [`Unknown chip on ${ev.square}`, "bad"];
    case "tally": return [`${player(ev)} still held ${faceText(ev.face)}`, ""];
    case "game_over": return [`Game over: ${ev.totals.join(" / ")}`, "good"];
    default: {
      const rest = Object.entries(ev).filter(([k]) => k !== "t" && k !== "ev");
      return [`${String(ev.ev).replaceAll("_", " ")} ${rest.map(([, v]) => v).join(" ")}`, "quiet"];
    }
  }
}

function clock(ms) {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function drawEvents(lines) {
  for (const line of lines) {
    try {
      view.events.push(JSON.parse(line));
    } catch {
      view.events.push({ t: 0, ev: line.trim() });
    }
  }
  if (view.events.length > KEEP_EVENTS) view.events.splice(0, view.events.length - KEEP_EVENTS);
  if (!lines.length && view.eventsKey) return;
  view.eventsKey = String(view.events.length);
  const list = $("events");
  list.textContent = "";
  for (const ev of view.events.slice(-SHOWN_EVENTS).reverse()) {
    const [text, kind] = describe(ev);
    const li = document.createElement("li");
    li.title = `${text}\n${JSON.stringify(ev)}`;
    const t = document.createElement("span");
    t.className = "t";
    t.textContent = clock(ev.t || 0);
    const body = document.createElement("span");
    body.textContent = text;
    if (kind) body.className = kind;
    li.append(t, body);
    list.append(li);
  }
}

function drawFacts(state) {
  const cap = state.board ? state.board.cap_ma : 0;
  $("current").textContent = cap ? `≈ ${state.milliamps} mA of ${cap}` : `≈ ${state.milliamps} mA`;
  $("current-bar").style.width = cap ? `${Math.min(100, (100 * state.milliamps) / cap)}%` : "0";
  const serial = $("serial");
  serial.textContent = state.serial || "none";
  serial.title = state.serial ? `${state.tools} watch --port ${state.serial}` : "";
  $("mode-hint").textContent = state.repl
    ? "The firmware is stopped: a REPL has the USB port."
    : MODE_HINTS[state.mode] || "";
  const name = GAME_NAMES[state.game] || state.game;
  $("game-name").textContent = name;
  document.title = `${name} – smart board`;
}

function render(state) {
  view.state = state;
  if (view.size !== `${state.width}x${state.height}`) buildBoard(state.width, state.height);
  drawLayout(state.board, state.width);
  drawSquares(state);
  drawOled(state.oled);
  drawPlayers(state);
  drawEvents(state.events);
  drawFacts(state);
  if (state.count < view.since) view.since = 0; // the server started again
  else view.since = state.count;
  if (!$("picker").hidden) refreshPicker();
}

// ----- talking to the board -----------------------------------------------------------

let pollTimer = null;
let polling = false;
let again = false;

async function poll() {
  clearTimeout(pollTimer);
  if (polling) {
    again = true;
    return;
  }
  polling = true;
  try {
    const reply = await fetch(`/api/state?since=${view.since}`, { cache: "no-store" });
    if (!reply.ok) throw new Error(`HTTP ${reply.status}`);
    render(await reply.json());
    setOnline(true);
  } catch (err) {
    setOnline(false);
  } finally {
    polling = false;
    pollTimer = setTimeout(poll, again ? 0 : POLL_MS);
    again = false;
  }
}

function setOnline(online) {
  const link = $("link");
  if (link.dataset.online === String(online)) return;
  link.dataset.online = String(online);
  link.textContent = online ? "board on" : "board not answering";
}

// The hands' inputs go to the board one at a time, in the order given: the server queues
// each for the board to play in its own time (host_tools/live.py), so a quick second press
// is never lost, and never overtakes the first on a busy PC.
let sending = Promise.resolve(true);

function post(action, body) {
  const result = sending.then(() => send(action, body)); // send never rejects
  sending = result;
  return result;
}

async function send(action, body) {
  try {
    const reply = await fetch(`/api/${action}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const data = await reply.json().catch(() => ({}));
    if (!reply.ok) toast(data.error || `the board said ${reply.status}`);
    poll();
    return reply.ok;
  } catch (err) {
    toast("The board is not answering.");
    return false;
  }
}

let toastTimer = null;
function toast(text) {
  const el = $("toast");
  el.textContent = text.charAt(0).toUpperCase() + text.slice(1);
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (el.hidden = true), 3000);
}

function press(button) {
  const key = $(`btn-${button}`);
  key.classList.add("pressed");
  setTimeout(() => key.classList.remove("pressed"), 140);
  post("press", { button });
}

// ----- the face picker ---------------------------------------------------------------

let pickerSquare = null;

function orderedFaces(box) {
  const rank = (f) => (FACE_ORDER.includes(f) ? FACE_ORDER.indexOf(f) : 100);
  return Object.keys(box).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

function openPicker(name) {
  pickerSquare = name;
  $("picker-square").textContent = name;
  const faces = $("picker-faces");
  faces.textContent = "";
  for (const face of orderedFaces(view.state.box)) {
    const button = document.createElement("button");
    button.className = `face ${faceClass(face)}`;
    button.dataset.face = face;
    button.innerHTML = '<span class="label"></span><span class="count"></span>';
    button.querySelector(".label").textContent = faceText(face);
    button.addEventListener("click", () => choose(face));
    faces.append(button);
  }
  refreshPicker();
  const picker = $("picker");
  picker.hidden = false;
  // beside the square, kept inside the board's area
  const wrap = $("board-wrap").getBoundingClientRect();
  const sq = view.squares[name].el.getBoundingClientRect();
  let left = sq.right - wrap.left + 8;
  if (left + picker.offsetWidth > wrap.width) left = sq.left - wrap.left - picker.offsetWidth - 8;
  let top = sq.top - wrap.top - picker.offsetHeight / 2 + sq.height / 2;
  top = Math.max(0, Math.min(top, wrap.height - picker.offsetHeight));
  picker.style.left = `${Math.max(0, left)}px`;
  picker.style.top = `${top}px`;
  for (const sqv of Object.values(view.squares)) sqv.el.classList.remove("picking");
  view.squares[name].el.classList.add("picking");
}

function refreshPicker() {
  const box = view.state.box;
  for (const button of $("picker-faces").children) {
    const left = box[button.dataset.face] ?? 0;
    button.querySelector(".count").textContent = String(left);
    button.disabled = left === 0;
    button.title = left ? `${left} left in the box` : "none left in the box";
  }
}

function closePicker() {
  $("picker").hidden = true;
  if (pickerSquare && view.squares[pickerSquare]) {
    view.squares[pickerSquare].el.classList.remove("picking");
  }
  pickerSquare = null;
}

function choose(face) {
  const name = pickerSquare;
  closePicker();
  if (name) post("place", { square: name, face });
}

// ----- hands and keys -----------------------------------------------------------------

$("board").addEventListener("click", (event) => {
  const el = event.target.closest(".sq");
  if (!el || !view.state) return;
  const name = el.dataset.square;
  if (view.state.chips[name] !== undefined) {
    closePicker();
    post("lift", { square: name });
  } else if (pickerSquare === name) {
    closePicker();
  } else {
    openPicker(name);
  }
});

$("picker-cancel").addEventListener("click", closePicker);

document.addEventListener("click", (event) => {
  if (pickerSquare && !event.target.closest(".picker, .sq")) closePicker();
});

for (const key of document.querySelectorAll(".key")) {
  key.addEventListener("click", () => press(key.dataset.button));
}

const PICK_KEYS = { "*": "×", x: "×", X: "×", "/": "÷", ":": "÷" };

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.altKey || event.metaKey) return;
  if (pickerSquare) {
    if (event.key === "Escape") {
      closePicker();
      event.preventDefault();
      return;
    }
    const face = PICK_KEYS[event.key] || event.key;
    const button = $("picker-faces").querySelector(`[data-face="${CSS.escape(face)}"]`);
    if (button && !button.disabled) {
      choose(face);
      event.preventDefault();
    }
    return;
  }
  const button = {
    ArrowLeft: "left",
    ArrowRight: "right",
    Enter: "ok",
    Backspace: "back",
    Escape: "back",
  }[event.key];
  if (button) {
    event.preventDefault(); // no click on a focused button as well, no history step
    press(button);
  }
});

poll();
