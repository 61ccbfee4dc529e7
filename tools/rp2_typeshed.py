"""Assemble the MicroPython rp2 stubs into a typeshed directory for mypy (mypy-rp2.ini).

The pinned stub packages are laid out for Pyright: `micropython-rp2-rpi-pico-stubs` puts
`machine.pyi`, `time.pyi`, `micropython.pyi`... at the top of site-packages, and its
dependency `micropython-stdlib-stubs` puts a reduced typeshed in `stdlib/` and `stubs/`
(the MicroPython view of `builtins`, `sys`, `os`, `json`, `asyncio`...). mypy cannot use
them where they are: it ignores single-file stubs in site-packages (no `py.typed`), and it
refuses a site-packages folder on `mypy_path`. So this copies both into one typeshed
layout under `build/rp2-typeshed/`, the port's modules beside the stdlib stubs, and
mypy-rp2.ini points `custom_typeshed_dir` at it. Every module the firmware imports then
resolves to what MicroPython rp2 offers, and nothing resolves to CPython's typeshed.

    python -m tools.rp2_typeshed      # (re)build it; the typecheck test does this too
"""

from __future__ import annotations

import shutil
from importlib import metadata
from pathlib import Path

from tools.mpyrun import REPO_ROOT

PORT_STUBS = "micropython-rp2-rpi-pico-stubs"
STDLIB_STUBS = "micropython-stdlib-stubs"
DEST = REPO_ROOT / "build" / "rp2-typeshed"


def _stub_files(dist_name: str) -> list[tuple[Path, Path]]:
    """(installed file, path relative to site-packages) for every .pyi of a distribution,
    plus the stdlib VERSIONS file."""
    dist = metadata.distribution(dist_name)
    found = []
    for rel in dist.files or ():
        if rel.suffix == ".pyi" or rel.as_posix() == "stdlib/VERSIONS":
            found.append((Path(str(rel.locate())), Path(rel.as_posix())))
    if not found:
        raise RuntimeError("%s installs no stubs; run `make venv`" % dist_name)
    return found


def _target(rel: Path) -> Path:
    """Where a stub goes in the typeshed: stdlib/ and stubs/ stay; everything else (the
    port's modules and the shared `_mpy_shed` helpers) is added to stdlib/."""
    if rel.parts[0] in ("stdlib", "stubs"):
        return rel
    return Path("stdlib", *rel.parts)


def build(dest: Path = DEST) -> Path:
    """Write the typeshed to `dest` unless it is there for the installed stub versions;
    return `dest`. Files keep their timestamps, so mypy's cache survives a rebuild."""
    stamp = "".join(
        "%s==%s\n" % (name, metadata.version(name)) for name in (STDLIB_STUBS, PORT_STUBS)
    )
    stamp_file = dest / "STUBS"
    if stamp_file.exists() and stamp_file.read_text(encoding="utf-8") == stamp:
        return dest
    files: dict[Path, Path] = {}
    for dist_name in (STDLIB_STUBS, PORT_STUBS):  # the port's stubs win a clash
        for src, rel in _stub_files(dist_name):
            files[_target(rel)] = src
    if dest.exists():
        shutil.rmtree(dest)
    for rel, src in sorted(files.items()):
        out = dest / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, out)
    # VERSIONS lists the stdlib's modules; add the port's own (machine, micropython, ...).
    versions = dest / "stdlib" / "VERSIONS"
    text = versions.read_text(encoding="utf-8")
    listed = {line.split(":")[0].strip() for line in text.splitlines() if ":" in line}
    added = sorted(
        {
            rel.parts[1].removesuffix(".pyi")
            for rel in files
            if rel.parts[0] == "stdlib" and rel.suffix == ".pyi" and len(rel.parts) >= 2
        }
        - listed
    )
    text = text.rstrip("\n") + "\n# MicroPython modules (tools/rp2_typeshed.py)\n"
    versions.write_text(text + "".join("%s: 3.0-\n" % name for name in added), "utf-8")
    stamp_file.write_text(stamp, encoding="utf-8")
    return dest


if __name__ == "__main__":
    print(build())
