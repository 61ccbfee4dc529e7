"""The pin map (hardware/pins/*.json): which GPIO does what, checked before any pin is made.

`check(data)` returns a list of problems (empty when the map is usable), each naming the
key, so a maker's typo is reported instead of driving the wrong pin. Every key a backend
reads (firmware/backend_rp2.py, backend_circuitpython.py, assemble.py) is checked here, so a
map that passes never stops the boot with a KeyError. What depends on the board's profile
(pixels.count, presence.chips) is checked by firmware/config.py.

The NFC part (hardware/README.md, "Firmware implications"): `nfc.select.rclk` latches the
74HC595 chain that switches the antennas, whose data and clock are the presence chain's SPI
bus (`mosi`, `sck`); `nfc.antenna_enable` is the chain's OE-bar; `nfc.reset` (RSTPDN) and
`nfc.irq` are optional. A map with the old multiplexer keys (`antenna_row`, `antenna_col`)
is refused.
"""

from firmware.drivers.ws2812 import _ORDERS

_GPIO_MAX = 29
BUTTONS = ("left", "right", "ok", "back")
DISPLAYS = ("ssd1306", "sh1106")  # display.kind: the controllers firmware/assemble.py drives

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
    display = data.get("display")
    if isinstance(display, dict) and display.get("kind", "ssd1306") not in DISPLAYS:
        problems.append(
            "display.kind must be ssd1306 or sh1106 (a 1.3-inch module is often an sh1106)"
        )
    pixels = data.get("pixels")
    if isinstance(pixels, dict) and pixels.get("power") is not None:
        claim("pixels.power", pixels["power"])  # optional: ON of the LED rail switch (GP21)
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
                if key in nfc:
                    problems.append(
                        "nfc.%s: the antenna multiplexers are gone; the antennas are switched "
                        "by a 74HC595 chain, nfc.select" % key
                    )
            select = nfc.get("select")
            if not isinstance(select, dict) or select.get("kind") != "74hc595":
                problems.append(
                    'nfc.select must be {"kind": "74hc595", "rclk": GPIO}: the antenna '
                    "switches' 74HC595 chain on the presence SPI bus"
                )
            else:
                claim("nfc.select.rclk", select.get("rclk"))
            claim("nfc.antenna_enable", nfc.get("antenna_enable"))  # OE-bar of the 74HC595s
            for key in ("reset", "irq"):  # optional: null when not wired
                if nfc.get(key) is not None:
                    claim("nfc." + key, nfc.get(key))
    return problems
