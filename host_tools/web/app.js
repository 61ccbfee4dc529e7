// The virtual smart board's page: polls /api/state (host_tools/websim.py) and draws the
// LEDs, the chips, the display and the scores; clicks and keys become chips laid or lifted
// and button presses. Plain JavaScript, no libraries.
"use strict";

const POLL_MS = 150;
const KEEP_EVENTS = 40;
const SHOWN_EVENTS = 9;
// The firmware dims the LEDs to about 40 % (its brightness setting): that is full glow here.
const FULL_LED = 102;
const FACE_ORDER = "0123456789+-×÷/=?";
const OPERATORS = "+-×÷/=";
const GAME_NAMES = { calculissimo: "Calculissimo", calqable: "Cal-Q-Able" };
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
  board.style.gridTemplateColumns = `var(--coord) repeat(${width}, var(--sq))`;
  board.style.gridTemplateRows = `var(--coord) repeat(${height}, var(--sq))`;
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
  const shown = new Set(state.table?.rack_shown || []);
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
    sq.el.classList.toggle("shown", shown.has(name)); // a chip of a rack shown to the board
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
      li.innerHTML =
        '<span class="dot"></span><span class="name"></span><span class="seat"></span>' +
        '<span class="turn"></span><span class="total"></span>';
      list.append(li);
    }
    view.totals = [];
  }
  const top = Math.max(...state.totals);
  const best = state.totals.flatMap((t, p) => (t === top ? [p] : []));
  for (let p = 0; p < n; p++) {
    const li = list.children[p];
    li.querySelector(".name").textContent = state.names[p];
    const level = state.table?.seats?.[p] || 0;
    li.querySelector(".seat").textContent = level ? `board, level ${level}` : "";
    li.dataset.level = String(level);
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
    li.style.setProperty("--pc", colour("players", p));
    // Who acts now: the player to move while a turn is on, the one counting their chips in
    // the end tally, the winner once the game is over; no one otherwise (a menu of the PC's,
    // the question whether to resume).
    let status = "";
    if (state.in_turn && state.to_move === p) status = "to play";
    else if (state.tally && state.tally.player === p + 1) status = "counting";
    else if (state.mode === "over" && best.includes(p)) status = best.length > 1 ? "draw" : "wins";
    li.querySelector(".turn").textContent = status;
    li.dataset.status = status;
    const acting = status === "to play" || status === "counting";
    li.classList.toggle("to-move", acting);
    if (acting) li.setAttribute("aria-current", "true");
    else li.removeAttribute("aria-current");
  }
}

// The firmware's colours (firmware/leds.py, sent with the state): the players' colours are
// the ones the board lights its corners in for the player to move.
function colour(key, k = 0) {
  const colours = view.state?.board?.colours;
  if (!colours) return "128, 128, 128";
  const c = key === "players" ? colours.players[k % colours.players.length] : colours[key];
  return c.join(", ");
}

function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

function player(ev) {
  const names = view.state ? view.state.names : [];
  return names[ev.player - 1] || `P${ev.player}`;
}

// Why a move is not legal, in the board's own words (firmware/i18n.py, in the board's
// language, sent with the state): the log says what the display says.
function reasons(codes) {
  const table = view.state?.reasons || {};
  return (codes || []).map((c) => table[c] || c.replaceAll("_", " ")).join(", ");
}

// What the sensor test and enrolment found on a square (firmware/sensing.py kinds).
const FOUND = {
  placed: (ev) => (ev.face ? `chip ${faceText(ev.face)} read on ${ev.square}` : `an unknown chip on ${ev.square}`),
  lifted: (ev) => `chip lifted from ${ev.square}`,
  unknown: (ev) => `a tag the board does not know on ${ev.square}`,
  no_tag: (ev) => `a magnet but no tag on ${ev.square}`,
  tag_only: (ev) => `a tag but no magnet on ${ev.square}`,
  reader_down: (ev) => `the NFC reader is silent (${ev.square})`,
  twice: (ev) => `the same tag as another square on ${ev.square}`,
};

const SERVICES = { diag: "the sensor test", enrol: "enrolling chips" };

// One event line in words and a class for its colour, or null: the PC's own traffic (the
// board's replies to its commands) and anything the page has no words for are not shown.
function describe(ev) {
  switch (ev.ev) {
    case "boot": return ["The board is switched on", "quiet"];
    case "new_game": return [`New game, ${ev.players} players`, "good"];
    case "resume": return ["The saved game is back", "good"];
    case "placed": return [`${faceText(ev.face ?? "a chip")} laid on ${ev.square}`, ""];
    case "lifted": return [`Chip lifted from ${ev.square}`, "quiet"];
    case "preview":
      if (ev.legal) return [`That move is worth ${plural(ev.score, "point", "points")}`, "good"];
      return [`Not yet: ${reasons(ev.codes)}`, "quiet"];
    case "button": return [`${ev.name.toUpperCase()} pressed`, "quiet"];
    case "move": return [`${player(ev)} scores ${ev.score}`, "good"];
    case "replace": return [`${player(ev)} replaces, scores ${ev.score}`, "good"];
    case "illegal": return [`${player(ev)}: ${reasons(ev.codes)}`, "bad"];
    case "bonus_turn": return [`Bonus turn for ${player(ev)}!`, "good"];
    case "pass": return [`${player(ev)} passes`, ""];
    case "timeout": return [`${player(ev)} ran out of time`, "bad"];
    case "swap": return [`${player(ev)} swaps ${plural(ev.count, "chip", "chips")}`, ""];
    case "missing": return [`Put the chip back on ${ev.square}`, "bad"];
    case "restored": return [`${ev.square} is back`, "good"];
    case "wrong_chip": return [`${ev.square} holds ${faceText(ev.face)}, not ${faceText(ev.want)}`, "bad"];
    case "unknown_chip": return [`A chip the board does not know on ${ev.square}`, "bad"];
    case "same_tag": return [`${ev.square} has the same tag as ${ev.as}`, "bad"];
    case "no_tag": return [`A magnet but no tag on ${ev.square}`, "bad"];
    case "tag_only": return [`${ev.square}: the tag answers, the magnet is weak`, "quiet"];
    case "reader_down": return ["The NFC reader is not answering", "bad"];
    case "taken": return [`${ev.square} taken off (rule 5)`, ""];
    case "tally": return [`${player(ev)} still held ${faceText(ev.face)}`, ""];
    // A game against the board (firmware/computer.py): racks shown, its moves, hints.
    case "shown": return [`${faceText(ev.face)} shown on ${ev.square}`, "quiet"];
    case "computer":
      if (ev.move) return [`${player(ev)} (the board, level ${ev.level}) plays ${moveText(ev.move)} for ${ev.score}`, "good"];
      if (ev.swap) return [`${player(ev)} (the board) swaps ${ev.swap.map(faceText).join(" ")}`, ""];
      return [`${player(ev)} (the board) passes`, ""];
    case "hint":
      if (!ev.move) return [`Hint for ${player(ev)}: no move found`, ""];
      return [`Hint for ${player(ev)}: ${moveText(ev.move)} for ${ev.score} (hint ${ev.hints})`, "good"];
    case "stray": return [`Not the board's move: take the chip off ${ev.square}`, "bad"];
    case "game_over": return [`Game over: ${ev.totals.join(" / ")}`, "good"];
    case "recount": return ["The leftover chips are counted again", "quiet"];
    case "archived": return ["The finished game is kept on the board", "quiet"];
    case "power":
      return ev.leds ? ["The lights are on", "quiet"] : ["The lights are off: see “LED current”", "bad"];
    case "save_failed": return ["The board could not save", "bad"];
    case "journal_problem": return ["The saved game could not be used", "bad"];
    case "settings_problem": return ["A setting was wrong: the board uses its default", "bad"];
    case "display_problem": return ["The display is not answering", "bad"];
    case "fault": return ["A glitch: the board reloaded the game", "bad"];
    case "restarting": return ["The board restarts", "bad"];
    case "cannot_start": return ["The firmware cannot start", "bad"];
    // The PC's tools at work (host_tools diag, enrol): in words, never as protocol lines.
    case "service":
      return ev.name ? [`The PC started ${SERVICES[ev.name] || "a service mode"}`, "quiet"] : ["Back to the game", "quiet"];
    case "sensor": return [`Sensor test: ${(FOUND[ev.kind] || FOUND.placed)(ev)}`, "quiet"];
    case "tag":
      return [`Enrolling: ${ev.face ? `chip ${faceText(ev.face)} on ${ev.square}` : `a new chip on ${ev.square}`}`, "quiet"];
    case "enrolled": return [`Enrolled: the chip on ${ev.square} is a ${faceText(ev.face)}`, "good"];
    default: return null; // "reply" (the board answering the PC), and anything unknown
  }
}

// A move as in records ("D8:9 E8:+ F9:?7"), the minus as the board prints it.
function moveText(move) {
  return move.replaceAll(":-", ":−");
}

function seatName(p, names) {
  const level = view.state?.table?.seats?.[p] || 0;
  const name = names[p] || `P${p + 1}`;
  return level ? `${name} (board, level ${level})` : name;
}

function clock(ms) {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function drawEvents(lines) {
  for (const line of lines) {
    let ev = null;
    try {
      ev = JSON.parse(line);
    } catch {
      continue; // not an event line: nothing a player needs
    }
    const said = describe(ev);
    // A chip of a rack shown to the board is read as laid first: one line for it, not two.
    const last = view.events[view.events.length - 1];
    if (ev.ev === "shown" && last?.ev.ev === "placed" && last.ev.square === ev.square) view.events.pop();
    if (said) view.events.push({ ev, text: said[0], kind: said[1] });
  }
  if (view.events.length > KEEP_EVENTS) view.events.splice(0, view.events.length - KEEP_EVENTS);
  if (!lines.length && view.eventsKey) return;
  view.eventsKey = String(view.events.length);
  const list = $("events");
  list.textContent = "";
  for (const { ev, text, kind } of view.events.slice(-SHOWN_EVENTS).reverse()) {
    const li = document.createElement("li");
    li.dataset.ev = ev.ev;
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
  drawPower(state);
  const serial = $("serial");
  serial.textContent = state.serial || "none";
  serial.title = state.serial ? `${state.tools} watch --port ${state.serial}` : "";
  $("mode-hint").textContent = state.hint || "";
  const name = GAME_NAMES[state.game] || state.game;
  $("game-name").textContent = name;
  document.title = `${name} – smart board`;
}

// The lights' current, and the budget behind it in plain words (firmware/leds.py): the
// supply's current less what the rest of the board takes is what the LEDs may draw, and the
// board dims them to stay inside it. Reaching it is how the board works, not a fault.
function drawPower(state) {
  const power = state.board?.power;
  const cap = state.board?.cap_ma || 0;
  const bar = $("current-bar");
  if (!power || !power.on) {
    $("current").textContent = power ? "off" : `≈ ${state.milliamps} mA`;
    bar.style.width = "0";
    $("power-words").textContent = power?.why || "";
    return;
  }
  $("current").textContent = `≈ ${state.milliamps} mA of ${cap} mA`;
  bar.style.width = cap ? `${Math.min(100, (100 * state.milliamps) / cap)}%` : "0";
  bar.parentElement.classList.toggle("full", power.dimmed);
  $("power-words").textContent =
    `The supply gives the board ${power.supply_ma} mA. The rest of the board uses ` +
    `${power.board_ma} mA, which leaves ${cap} mA for the lights; just being on, dark, ` +
    `they take ${power.dark_ma} mA of it. ` +
    (power.dimmed
      ? "Right now the board dims the lights a little to stay within that: normal, nothing to fix."
      : "The lights are at full brightness.");
}

// The lights' legend in the firmware's colours; the corners' swatch shows every player's.
function drawColours(state) {
  const colours = state.board?.colours;
  const key = JSON.stringify(colours || null);
  if (!colours || key === view.colours) return;
  view.colours = key;
  for (const i of document.querySelectorAll("#lights i[data-colour]")) {
    i.style.setProperty("--c", colour(i.dataset.colour));
  }
  const n = colours.players.length;
  const stops = colours.players.map(
    (c, k) => `rgb(${c.join(", ")}) ${(100 * k) / n}% ${(100 * (k + 1)) / n}%`,
  );
  document.querySelector("#lights .corner").style.background = `conic-gradient(${stops.join(", ")})`;
}

// ----- the end tally ---------------------------------------------------------------------

function drawTally(state) {
  const card = $("tally");
  const tally = state.tally;
  card.hidden = !tally;
  if (!tally) return;
  $("tally-who").textContent = tally.done
    ? "Every chip is counted: press OK for the final scores."
    : `${tally.name}: ${plural(tally.left, "chip", "chips")} left to count.`;
  $("tally-ok").textContent = tally.done ? "the final scores" : faceText(tally.face);
  const faces = $("tally-faces");
  const order = orderedFaces(state.box);
  if (faces.dataset.faces !== order.join("")) {
    faces.dataset.faces = order.join("");
    faces.textContent = "";
    for (const face of order) {
      const button = document.createElement("button");
      button.className = `face ${faceClass(face)}`;
      button.dataset.face = face;
      button.textContent = faceText(face);
      button.title = `Count a ${faceText(face)} (the board's buttons enter it)`;
      button.addEventListener("click", () => post("tally", { face }));
      faces.append(button);
    }
  }
  for (const button of faces.children) {
    button.disabled = tally.done;
    button.classList.toggle("next", button.dataset.face === tally.face);
  }
  const racks = tally.racks.map(
    (rack, p) => `${state.names[p]}: ${rack.length ? rack.map(faceText).join(" ") : "–"}`,
  );
  $("tally-racks").textContent = racks.join(" · ");
}

// ----- a game against the board: the racks the PC holds, and what the board asks for ------

function chipEl(face, extra = "") {
  const chip = document.createElement("span");
  chip.className = `rack-chip ${faceClass(face)} ${extra}`;
  chip.dataset.chip = face;
  chip.textContent = faceText(face);
  return chip;
}

function drawTable(state) {
  const table = state.table;
  const card = $("table");
  if (!table) {
    card.hidden = true;
    return;
  }
  const names = state.names;
  const boardPlays = table.seats.some((level) => level > 0);
  const hintsOn = table.setup.hints && !table.setup.hall;
  const mode = state.service ? null : state.mode;
  const person = state.in_turn && !table.seats[state.to_move];
  card.hidden = !(boardPlays || table.racks.length || table.asks || (hintsOn && person));
  if (card.hidden) return;
  let say = "";
  if (table.asks) {
    const who = seatName(table.asks.player - 1, names);
    say = table.asks.hint
      ? `A hint for ${who}: show the board the rack (${plural(table.asks.count, "chip", "chips")}), then OK.`
      : `The board asks for the rack of ${who}: lay it on free squares, then OK.`;
  } else if (table.guide) {
    const g = table.guide;
    say = `${seatName(g.player - 1, names)} plays ${moveText(g.move)} for ${plural(g.score, "point", "points")}: move each chip to the square that blinks green, then OK.`;
  } else if (table.hint_move) {
    const h = table.hint_move;
    say = `Hint: ${moveText(h.move)} for ${plural(h.score, "point", "points")}.`;
  } else if (mode === "think") {
    say = "The board is thinking…";
  } else if (table.rack_shown.length) {
    say = "Lift the rack's chips off the board before the next move.";
  } else if (person && hintsOn) {
    say = `${names[state.to_move]} to play. The board can give a hint.`;
  }
  $("table-say").textContent = say;
  const racks = $("racks");
  const key = JSON.stringify([table.racks, state.to_move, table.seats]);
  if (racks.dataset.key !== key) {
    racks.dataset.key = key;
    racks.textContent = "";
    for (const rack of table.racks) {
      const row = document.createElement("div");
      row.className = "rack";
      row.dataset.player = String(rack.player);
      row.classList.toggle("to-move", rack.player === state.to_move + 1);
      row.style.setProperty("--pc", colour("players", rack.player - 1));
      const label = document.createElement("span");
      label.className = "rack-name";
      label.textContent = seatName(rack.player - 1, names);
      const chips = document.createElement("span");
      chips.className = "rack-chips";
      for (const face of rack.hand) chips.append(chipEl(face));
      for (const [square, face] of Object.entries(rack.shown)) {
        const chip = chipEl(face, "on-board");
        chip.title = `shown on ${square}`;
        chips.append(chip);
      }
      if (!rack.hand.length && !Object.keys(rack.shown).length) chips.textContent = "–";
      row.append(label, chips);
      racks.append(row);
    }
  }
  $("show-rack").hidden = !table.asks;
  $("show-rack").disabled = table.asks ? !(table.racks.find((r) => r.player === table.asks.player)?.hand.length) : true;
  $("follow").hidden = !table.guide;
  $("take-rack").hidden = !table.rack_shown.length || Boolean(table.asks) || Boolean(table.guide);
  $("ask-hint").hidden = !(hintsOn && person && (mode === "play" || mode === "menu"));
}

// The new-game form, filled from the board's settings (not while the player edits it).
function drawSetup(state) {
  const setup = state.table?.setup;
  if (!setup) return;
  const key = JSON.stringify(setup);
  if (key === view.setupKey || view.setupEdited) return;
  view.setupKey = key;
  const players = $("setup-players");
  if (players.options.length === 0) {
    for (let n = setup.min_players; n <= setup.max_players; n++) players.add(new Option(String(n), String(n)));
  }
  players.value = String(setup.players);
  $("setup-hints").checked = setup.hints;
  drawSeats(setup.players, setup.computer);
  $("setup").querySelector("summary").title = setup.hall ? "A Hall-only board cannot read a rack: it plays no seat" : "";
}

function drawSeats(n, levels) {
  const seats = $("setup-seats");
  seats.textContent = "";
  for (let p = 0; p < n; p++) {
    const label = document.createElement("label");
    label.textContent = `P${p + 1} `;
    const select = document.createElement("select");
    select.dataset.seat = String(p);
    select.add(new Option("a person", "0"));
    for (let level = 1; level <= 4; level++) select.add(new Option(`the board, level ${level}`, String(level)));
    select.value = String(levels[p] || 0);
    label.append(select);
    seats.append(label);
  }
}

function seatLevels() {
  return [...$("setup-seats").querySelectorAll("select")].map((s) => Number(s.value));
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
  drawTally(state);
  drawTable(state);
  drawSetup(state);
  drawColours(state);
  $("clear").hidden = !state.can_clear;
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

for (const [id, action] of [["show-rack", "show_rack"], ["follow", "follow"], ["take-rack", "take_rack"], ["ask-hint", "hint"]]) {
  $(id).addEventListener("click", () => {
    closePicker();
    post(action, {});
  });
}

$("setup-form").addEventListener("input", (event) => {
  view.setupEdited = true;
  if (event.target.id === "setup-players") drawSeats(Number(event.target.value), seatLevels());
});

$("setup-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  closePicker();
  const body = { players: Number($("setup-players").value), computer: seatLevels(), hints: $("setup-hints").checked };
  if (await post("new_game", body)) {
    view.setupEdited = false;
    view.setupKey = "";
    toast("A new game: the board restarts");
  }
});

$("clear").addEventListener("click", () => {
  closePicker();
  post("clear", {});
});

document.addEventListener("click", (event) => {
  if (pickerSquare && !event.target.closest(".picker, .sq")) closePicker();
});

for (const key of document.querySelectorAll(".key")) {
  key.addEventListener("click", () => press(key.dataset.button));
}

const PICK_KEYS = { "*": "×", x: "×", X: "×", "/": "÷", ":": "÷" };

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.altKey || event.metaKey) return;
  if (event.target.closest && event.target.closest("form")) return; // typing in the new-game form
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
