"""What only a board's build needs is forgotten once the App is made (firmware/assemble.py's
BOOT_ONLY): no module a running board keeps may import it, or its code would stay in a stock
board's heap. Read from the sources' top-level imports (tools/rp2emu.py's import_order, which
follows every module each module imports as it loads)."""

from firmware.assemble import BOOT_ONLY
from tests.test_manifest import device_files
from tools import rp2emu

# Modules that import BOOT_ONLY on purpose: each other, and the USB commands (their code
# stays from the PC's first command on: firmware/commands.py).
ALLOWED = set(BOOT_ONLY) | {"firmware.commands"}


def device_modules():
    """The modules a board runs: the manifest's device files, and the CircuitPython backend
    (not frozen into the rp2 image, but a CircuitPython board's own)."""
    out = []
    for rel in sorted(device_files() | {"firmware/backend_circuitpython.py"}):
        out.append(rel.removesuffix(".py").replace("/", ".").removesuffix(".__init__"))
    return out


def test_no_module_a_board_keeps_imports_what_only_its_build_needs():
    modules = device_modules()
    assert "firmware.referee" in modules and "firmware.drivers.pn532" in modules
    assert "firmware.backend_rp2" in modules and "firmware.backend_circuitpython" in modules
    for name in BOOT_ONLY:
        assert name in modules, name  # (a module renamed would leave this test empty-handed)
    for name in modules:
        if name in ALLOWED:
            continue
        loads = set(rp2emu.import_order(name))
        assert not loads & set(BOOT_ONLY), (name, sorted(loads & set(BOOT_ONLY)))
