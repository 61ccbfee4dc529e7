"""deploy/manifest.py freezes exactly the device files: the engine and the firmware, without
the simulated parts, the CircuitPython backend, or the host-side engine modules."""

from tools.mpyrun import REPO_ROOT

HOST_ONLY = {
    "engine/record.py",
    "engine/autoplay.py",
    "engine/rulebook.py",
    "firmware/backend_circuitpython.py",
}


def listed():
    """The files the manifest freezes, by running it with MicroPython's manifest calls."""
    frozen = []

    def module(path, base_path="."):
        frozen.append(path)

    def include(path):
        pass

    text = (REPO_ROOT / "deploy" / "manifest.py").read_text()
    exec(compile(text, "manifest.py", "exec"), {"module": module, "include": include})  # noqa: S102  (our own file, run as MicroPython's build does)
    return frozen


def device_files():
    out = set()
    for folder in ("engine", "firmware"):
        for path in (REPO_ROOT / folder).rglob("*.py"):
            rel = path.relative_to(REPO_ROOT).as_posix()
            if "/sim/" not in rel and rel not in HOST_ONLY:
                out.add(rel)
    return out


def test_manifest_freezes_every_device_file_and_nothing_else():
    files = listed()
    assert files[-1] == "main.py" and (REPO_ROOT / "deploy" / "main.py").is_file()
    assert set(files[:-1]) == device_files()


def test_device_files_never_import_the_simulation_or_host_modules():
    for rel in device_files():
        text = (REPO_ROOT / rel).read_text()
        for name in ("firmware.sim", "engine.record", "engine.autoplay", "unittest"):
            assert name not in text, (rel, name)
