"""The pin map (hardware/pins/*.json): which GPIO does what, checked before any pin is made.

`check(data)` returns a list of problems (empty when the map is usable), each naming the
key, so a maker's typo is reported instead of driving the wrong pin. Every key a backend
reads (firmware/backend_rp2.py, backend_circuitpython.py, assemble.py) is checked here, so a
map that passes never stops the boot with a KeyError. What depends on the board's profile
(pixels.count, presence.chips) is checked by firmware/config.py.
"""

from firmware.drivers.ws2812 import _ORDERS

_GPIO_MAX = 29
BUTTONS = ("left", "right", "ok", "back")

# section -> (its GPIO keys, its number keys as (key, low, high))
_SECTIONS = (
    ("presence", ("sck", "mosi", "miso", "latch"), (("spi", 0, 1), ("baudrate", 1, 62500000))),
    ("i2c", ("sda", "scl"), (("id", 0, 1), ("freq", 1, 1000000))),
    ("display", (), (("addr", 0, 127),)),
    ("pixels", ("pin",), ()),
)


def _pin(problems, where, value):
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= _GPIO_MAX:
        problems.append("%s must be a GPIO number 0-%d" % (where, _GPIO_MAX))
        return None
    return value


def _number(problems, where, value, low, high):
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        problems.append("%s must be a whole number %d to %d" % (where, low, high))


def check(data):
    problems = []  # type: list[str]
    if not isinstance(data, dict):
        return ["the pin map must be a JSON object"]
    used = {}  # type: dict[int, str]

    def claim(where, value):
        gp = _pin(problems, where, value)
        if gp is None:
            return
        if gp in used:
            problems.append("%s: GPIO %d is already %s" % (where, gp, used[gp]))
        used[gp] = where

    for part, pins, numbers in _SECTIONS:
        section = data.get(part)
        if not isinstance(section, dict):
            problems.append("%s is missing" % part)
            continue
        for key in pins:
            claim(part + "." + key, section.get(key))
        for key, low, high in numbers:
            _number(problems, part + "." + key, section.get(key), low, high)
    order = data["pixels"].get("order", "GRB") if isinstance(data.get("pixels"), dict) else "GRB"
    if not isinstance(order, str) or order not in _ORDERS:
        problems.append("pixels.order must be one of %s" % ", ".join(sorted(_ORDERS)))
    buttons = data.get("buttons")
    if not isinstance(buttons, dict):
        problems.append("buttons is missing")
    else:
        for name in BUTTONS:
            claim("buttons." + name, buttons.get(name))
        for name in sorted(buttons):
            if name not in BUTTONS:
                problems.append("buttons.%s: the buttons are %s" % (name, ", ".join(BUTTONS)))
    nfc = data.get("nfc")
    if nfc is not None:
        if not isinstance(nfc, dict):
            problems.append("nfc must be an object or null")
        else:
            _number(problems, "nfc.addr", nfc.get("addr"), 0, 127)
            for key in ("antenna_row", "antenna_col"):
                lines = nfc.get(key)
                if not isinstance(lines, list) or len(lines) != 4:
                    problems.append("nfc.%s must list 4 GPIOs" % key)
                    continue
                for k in range(4):
                    claim("nfc.%s[%d]" % (key, k), lines[k])
            for key in ("antenna_enable", "reset"):
                if nfc.get(key) is not None:
                    claim("nfc." + key, nfc.get(key))
    return problems
