#!/usr/bin/env node
// The stock MicroPython firmware of a Raspberry Pi Pico on an emulated RP2040 (npm rp2040js,
// pinned in tools/package.json; install with `npm ci --prefix tools`). Driven by
// tools/rp2emu.py, which builds the flash filesystem and reads the results.
//
// Input: JSON lines on stdin. The first sets the chip up:
//   { "bootrom": PATH, "firmware": PATH, "image": PATH, "fs_offset": 655360, "heap_watch": B }
// and each one after it is a script to run: { "code": TEXT, "max_cycles": N, "timeout_s": S },
// optionally with "gpio": [[US, PIN, LEVEL], ...]: the level of an input pin from US
// microseconds after the script is sent, as a button or a sensor would set it (rp2040js has no
// pulls: an input reads low until a level is set; the levels are applied between chunks of
// instructions, some 40-80 us apart, and not while the core sleeps).
// Output: JSON lines on stdout: {"ev": "boot", ...} each time the chip has booted to the raw
// REPL (before the first script, and after a script that had to be stopped), then
// {"ev": "result", "index": k, ...} for each script, in order; {"ev": "end"} at the end of the
// input. Every script runs after a soft reset (a fresh heap, the modules imported so far
// forgotten) in the raw REPL: Ctrl-A, the code, Ctrl-D; MicroPython answers "OK", the
// script's stdout, Ctrl-D, the traceback if it raised, Ctrl-D, ">". A script that overruns
// its cycle or time budget, or a chip that stops answering, is reported and the chip is
// booted afresh for the next script.
//
// Time: the core runs at a fixed 125 MHz and the timer follows the clock. `us` is the emulated
// time from sending a script to its end (what ticks_us counts), `cycles` the same in clock
// cycles (us * 125), idle waits (WFI) included: a test module never waits. (rp2040js's own
// cycle counter is not used: it adds 8 cycles for every use of the hardware divider on top of
// the instructions that wait for it, so it runs ~8% ahead of the clock under MicroPython.)
//
// Heap watch (optional): after boot, the GC's state is found in RAM (the pool's bounds, the
// allocation table, and the count of blocks allocated since the last collection, located by
// setting gc.threshold() to two known values). Between chunks of instructions the count is
// read; when a collection has run, the allocation table is scanned. `heap_low` is the fewest
// free bytes seen just after a collection: how close the script came to MemoryError. It is
// read a chunk after the collection, less what was allocated since; what was freed
// explicitly since (rare) makes it err low.

import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { RP2040, USBCDC } from "rp2040js";

const NS_PER_CYCLE = 8; // 125 MHz
const BOOT_NS = 5e9; // emulated time allowed for the boot and the raw REPL
const BOOT_WALL_S = 120;
const CHUNK = 5000; // instructions between checks of the output and the budgets
const BLOCK = 16; // MicroPython's GC block size on a 32-bit port
const MARKS = [0x5a5a, 0x3c3c]; // gc.threshold() values, in blocks, to find it in RAM
const RAW_BANNER = "raw REPL; CTRL-B to exit\r\n>";

function fail(msg) {
  process.stdout.write(JSON.stringify({ ev: "error", error: msg }) + "\n");
  process.exit(2);
}

function emit(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}

// rp2040js's ConsoleLogger writes debug lines to stdout and throws on errors; keep stdout for
// the results and let the emulation go on, counting what the emulator had to say.
class Log {
  constructor() {
    this.warnings = 0;
    this.errors = [];
  }
  debug() {}
  info() {}
  warn(component, message) {
    this.warnings++;
    if (this.warnings <= 20) process.stderr.write(`rp2emu: [${component}] ${message}\n`);
  }
  error(component, message) {
    this.errors.push(`[${component}] ${message}`);
    process.stderr.write(`rp2emu: error [${component}] ${message}\n`);
  }
}

class Chip {
  constructor(config, files) {
    this.log = new Log();
    const mcu = (this.mcu = new RP2040());
    mcu.logger = this.log;
    // The boot ROM first: loading it resets the chip, which erases the flash.
    mcu.loadBootrom(files.bootrom);
    mcu.flash.set(files.firmware, 0);
    mcu.flash.set(files.image, config.fs_offset);
    // A ROMFS image in its partition (a firmware built with one: deploy/layout.py).
    if (files.romfs) mcu.flash.set(files.romfs, config.romfs_offset);
    // Start at the flash's second-stage boot loader (which sets up execute-in-place and jumps
    // to the firmware's vector table), where the boot ROM hands over on a real chip: the ROM's
    // own start-up waits for core 1, which rp2040js does not emulate. The ROM stays mapped for
    // the functions the firmware calls in it (flash access, fast float and memory routines).
    mcu.core.PC = 0x10000000;
    this.out = ""; // what the chip sent and nobody has consumed yet (latin1: one char a byte)
    this.connected = false;
    this.inputs = []; // [ns, pin, level] to set, in time order (a script's "gpio")
    this.news = 0; // counts what the chip did that a caller may wait for: output, connection
    this.pending = null; // an OUT transfer the chip armed while we had nothing to send
    const cdc = (this.cdc = new USBCDC(mcu.usbCtrl));
    cdc.onDeviceConnected = () => {
      this.connected = true;
      this.news++;
    };
    cdc.onSerialData = (buf) => {
      this.out += Buffer.from(buf).toString("latin1");
      this.news++;
    };
    // rp2040js answers every OUT transfer at once, with nothing when it has nothing to send; the
    // chip re-arms it, and that loop costs it an interrupt every few microseconds. A real host
    // answers NAK until it has data: hold the transfer until then.
    const usb = mcu.usbCtrl;
    const answer = usb.onEndpointRead;
    usb.onEndpointRead = (endpoint, size) => {
      if (cdc.txFIFO.empty) this.pending = { endpoint, size, answer };
      else answer(endpoint, size);
    };
    this.heap = null; // where the GC's allocation table is, once found
  }

  send(bytes) {
    this.queue = (this.queue || []).concat(Array.from(bytes));
    this.feed();
  }

  // Move queued bytes into the CDC FIFO (512 bytes) and release a held transfer.
  feed() {
    const fifo = this.cdc.txFIFO;
    while (this.queue && this.queue.length && !fifo.full) fifo.push(this.queue.shift());
    if (this.pending && !fifo.empty) {
      const { endpoint, size, answer } = this.pending;
      this.pending = null;
      answer(endpoint, size);
    }
  }

  get ns() {
    return this.mcu.clock.nanos;
  }

  // Set the input levels whose time has come.
  applyInputs() {
    const { inputs } = this;
    while (inputs.length && inputs[0][0] <= this.ns) {
      const [, pin, level] = inputs.shift();
      this.mcu.gpio[pin].setInputValue(level);
    }
  }

  // Run until `done()` is true, `maxNs` of emulated time has passed, or the wall deadline.
  // Returns "done", "cycles", "timeout", or "idle" (asleep with nothing left to wake it).
  // `done()` is asked again only when the chip has sent something, or connected, since.
  run(done, maxNs, deadline, watch) {
    const { core, clock } = this.mcu;
    const endNs = clock.nanos + maxNs;
    let seen = -1;
    for (;;) {
      if (this.news !== seen) {
        seen = this.news;
        if (done()) return "done";
      }
      if (clock.nanos >= endNs) return "cycles";
      if (Date.now() > deadline) return "timeout";
      for (let i = 0; i < CHUNK; i++) {
        if (core.waiting) {
          // Asleep (WFI/WFE). If it sent something since `done()` was last asked, ask again
          // first: the sleep may be the wait for the next command, not to be counted. Else
          // skip to the next timer event, then look at the output and the input again.
          if (this.news !== seen) break;
          const wait = clock.nanosToNextAlarm;
          if (wait > 0) clock.tick(Math.min(wait, endNs - clock.nanos + NS_PER_CYCLE));
          else if (!(this.queue && this.queue.length)) return "idle";
          break;
        }
        // clock.tick() inlined: the timer reads the clock during the instruction, so it is
        // advanced after every one; alarms that fell due fire through tick(0).
        clock.nanosCounter += core.executeInstruction() * NS_PER_CYCLE;
        const alarm = clock.nextAlarm;
        if (alarm !== null && alarm.nanos <= clock.nanosCounter) clock.tick(0);
      }
      if (this.inputs.length) this.applyInputs();
      this.feed();
      if (watch) this.watchHeap(watch);
    }
  }

  // Wait for `text` in the output; returns the output up to and including it, or null.
  expect(text, maxNs, deadline, watch) {
    const why = this.run(() => this.out.includes(text), maxNs, deadline, watch);
    if (why !== "done") return { why, text: null };
    const at = this.out.indexOf(text) + text.length;
    const got = this.out.slice(0, at);
    this.out = this.out.slice(at);
    return { why, text: got };
  }

  // Find the GC heap in RAM. MicroPython's state holds the pool's start and end pointers side
  // by side, with the allocation table's start and length a little before (the finaliser
  // table's start may lie between); its threshold (gc.threshold() in blocks) follows, just
  // after the count of blocks allocated since the last collection, which a collection resets.
  // `marks` are two thresholds (in blocks) the probe script set one after the other: the
  // word that held the first in `before` and holds the second now is the threshold.
  findHeap(poolBytes, before, marks) {
    const ram = this.mcu.sramView;
    const base = 0x20000000;
    const word = (off) => ram.getUint32(off, true);
    let area = null;
    for (let off = 16; off + 8 <= ram.byteLength && !area; off += 4) {
      const start = word(off);
      if (start < base || start >= base + ram.byteLength || word(off + 4) !== start + poolBytes)
        continue;
      for (let back = 4; back <= 8; back += 4) {
        const atb = word(off - back - 4);
        const atbLen = word(off - back);
        if (atbLen * 4 * BLOCK === poolBytes && atb >= base && atb < start) {
          area = { atb: atb - base, atbLen, pool: poolBytes, at: off };
          break;
        }
      }
    }
    if (!area) return null;
    for (let off = area.at; off < area.at + 2048; off += 4) {
      if (before.getUint32(off, true) === marks[0] && word(off) === marks[1]) {
        area.amount = off - 4;
        return area;
      }
    }
    return null;
  }

  // Blocks allocated since the last collection (MicroPython's gc_alloc_amount).
  allocatedSinceCollection() {
    return this.mcu.sramView.getUint32(this.heap.amount, true);
  }

  // Called between chunks of instructions. A collection resets the count of blocks allocated
  // since the last one: when it went down, a collection started since the last call. It is
  // over once the count grows again (nothing is allocated while the collector runs); then the
  // heap live after it is the blocks in use less those allocated since (a chunk's worth).
  // `end`: the script is over (the chip waits at the prompt), so a collection is over too.
  watchHeap(watch, end = false) {
    const amount = this.allocatedSinceCollection();
    if (watch.last !== null && amount < watch.last) watch.collecting = true;
    if (watch.collecting && (amount > 0 || end)) {
      watch.collecting = false;
      watch.collections++;
      const free = this.heap.pool - (this.usedBlocks() - amount) * BLOCK;
      if (watch.low === null || free < watch.low) watch.low = free;
    }
    watch.last = amount;
  }

  usedBlocks() {
    const { atb, atbLen } = this.heap;
    const sram = this.mcu.sram;
    let used = 0;
    for (let i = atb; i < atb + atbLen; i++) {
      const b = sram[i];
      if (b === 0) continue;
      used += ((b & 3) !== 0) + ((b & 12) !== 0) + ((b & 48) !== 0) + ((b & 192) !== 0);
    }
    return used;
  }
}

// Parse the raw REPL's answer to one script: OK, stdout, \x04, stderr, \x04, ">".
function split(answer) {
  const body = answer.startsWith("OK") ? answer.slice(2) : answer;
  const cut = body.indexOf("\x04");
  const stdout = cut < 0 ? body : body.slice(0, cut);
  let stderr = cut < 0 ? "" : body.slice(cut + 1);
  stderr = stderr.replace(/\x04>$/, "");
  return { stdout, stderr };
}

const latin1ToUtf8 = (s) => Buffer.from(s, "latin1").toString("utf8");

// Cold boot to a raw REPL prompt. main.py runs first (the board's firmware; on a chip with no
// parts it reports cannot_start, or runs its loop); Ctrl-C stops it, as mpremote does.
function boot(config, files, t0) {
  const chip = new Chip(config, files);
  const deadline = t0 + BOOT_WALL_S * 1000;
  let why = chip.run(() => chip.connected, BOOT_NS, deadline);
  if (why !== "done") return { chip, error: "USB never connected (" + why + ")" };
  const connectedNs = chip.ns;
  // Let main.py start (the interrupt must not hit _boot.py, which mounts the filesystem), then
  // interrupt it until the friendly prompt shows, and enter the raw REPL.
  // Its first whole line (the boot event, or cannot_start) is kept as what main.py said.
  chip.run(() => chip.out.includes("\n"), 2e9, deadline);
  const mainSaid = chip.out;
  for (let k = 0; k < 50; k++) {
    chip.send([3]);
    chip.run(() => chip.out.endsWith(">>> "), 100e6, deadline);
    if (chip.out.endsWith(">>> ")) break;
  }
  chip.out = "";
  chip.send([13, 1]);
  const r = chip.expect(RAW_BANNER, 2e9, deadline);
  if (!r.text) return { chip, error: "no raw REPL (" + r.why + "): " + JSON.stringify(chip.out) };
  return { chip, connectedNs, mainSaid: latin1ToUtf8(mainSaid) };
}

function softReset(chip, deadline) {
  chip.out = "";
  chip.send([4]);
  const r = chip.expect("soft reboot\r\n", 2e9, deadline);
  if (!r.text) return r.why;
  const p = chip.expect(RAW_BANNER, 2e9, deadline);
  return p.text ? null : p.why;
}

// Run one script in the raw REPL; the chip is at the raw prompt.
function runScript(chip, script, watch) {
  const t0 = Date.now();
  const deadline = t0 + script.timeout_s * 1000;
  const ns0 = chip.ns;
  chip.out = "";
  chip.inputs = (script.gpio || [])
    .map(([us, pin, level]) => [ns0 + us * 1000, pin, !!level])
    .sort((a, b) => a[0] - b[0]);
  chip.applyInputs();
  chip.send(Buffer.from(script.code, "utf8"));
  chip.send([4]);
  const ok = chip.expect("OK", 2e9, deadline);
  let result;
  if (!ok.text) {
    result = { stopped: ok.why, stdout: "", stderr: "raw REPL did not accept the script" };
  } else {
    const maxNs = script.max_cycles * NS_PER_CYCLE;
    // The answer ends with \x04 (end of stdout), the traceback if any, \x04 and the prompt.
    const why = chip.run(() => /\x04[^]*\x04>$/.test(chip.out), maxNs, deadline, watch);
    const { stdout, stderr } = split(chip.out);
    result = { stopped: why, stdout: latin1ToUtf8(stdout), stderr: latin1ToUtf8(stderr) };
    chip.out = "";
  }
  chip.inputs = [];
  result.cycles = Math.round((chip.ns - ns0) / NS_PER_CYCLE);
  result.us = Math.round((chip.ns - ns0) / 1000);
  result.wall_s = (Date.now() - t0) / 1000;
  return result;
}

// Ask the chip for its heap's size, set two thresholds in turn, and find the heap in RAM.
function locateHeap(chip) {
  const ask = (code) => runScript(chip, { code, max_cycles: 1e8, timeout_s: 30 }, null);
  const first = ask(`import gc\ngc.threshold(${MARKS[0] * BLOCK})\nprint(gc.mem_free() + gc.mem_alloc())\n`);
  const pool = parseInt(first.stdout, 10);
  const before = new DataView(chip.mcu.sram.slice().buffer);
  ask(`gc.threshold(${MARKS[1] * BLOCK})\n`);
  const heap = chip.findHeap(pool, before, MARKS);
  ask("gc.threshold(-1)\n");
  return heap;
}

async function main() {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  let config = null;
  const files = {};
  let chip = null;
  let boots = 0;
  let index = 0;
  for await (const line of lines) {
    if (!line.trim()) continue;
    let msg;
    try {
      msg = JSON.parse(line);
    } catch (e) {
      fail("bad line on stdin: " + e.message);
    }
    if (config === null) {
      config = msg;
      try {
        const rom = readFileSync(config.bootrom);
        files.bootrom = new Uint32Array(rom.buffer, rom.byteOffset, rom.byteLength / 4);
        files.firmware = readFileSync(config.firmware);
        files.image = readFileSync(config.image);
        if (config.romfs) files.romfs = readFileSync(config.romfs);
      } catch (e) {
        fail(e.message);
      }
      continue;
    }
    const k = index++;
    if (chip === null) {
      const t0 = Date.now();
      const b = boot(config, files, t0);
      boots++;
      if (b.error) {
        emit({ ev: "result", index: k, stopped: "boot", stdout: "", stderr: b.error });
        continue;
      }
      chip = b.chip;
      const info = {
        ev: "boot",
        boots,
        us_to_usb: Math.round(b.connectedNs / 1000),
        us_to_raw_repl: Math.round(chip.ns / 1000),
        cycles: Math.round(chip.ns / NS_PER_CYCLE),
        wall_s: (Date.now() - t0) / 1000,
        main_said: b.mainSaid.slice(0, 400),
      };
      if (config.heap_watch) {
        chip.heap = locateHeap(chip);
        info.heap = chip.heap;
        if (!chip.heap) process.stderr.write("rp2emu: the GC heap was not found in RAM\n");
      }
      emit(info);
    }
    const resetWhy = softReset(chip, Date.now() + 60000);
    if (resetWhy) {
      emit({ ev: "result", index: k, stopped: "reset", stdout: "", stderr: "soft reset failed: " + resetWhy });
      chip = null;
      continue;
    }
    const watch = chip.heap ? { last: null, low: null, collections: 0, collecting: false } : null;
    const result = runScript(chip, msg, watch);
    if (watch) {
      chip.watchHeap(watch, true);
      result.heap_low = watch.low;
      result.collections = watch.collections;
    }
    result.ev = "result";
    result.index = k;
    result.emulator_errors = chip.log.errors.splice(0);
    emit(result);
    if (result.stopped !== "done") chip = null; // overran or stuck: boot afresh for the next
  }
  emit({ ev: "end", boots, scripts: index });
}

await main();
