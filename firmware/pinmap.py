"""The pin map (hardware/pins/*.json): which GPIO does what, checked before any pin is made.

`check(data)` returns a list of problems (empty when the map is usable), each naming the
key, so a maker's typo is reported instead of driving the wrong pin.
"""

_GPIO_MAX = 29


def _pin(problems, where, value):
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= _GPIO_MAX:
        problems.append("%s must be a GPIO number 0-%d" % (where, _GPIO_MAX))
        return None
    return value


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

    for part, keys in (
        ("presence", ("sck", "mosi", "miso", "latch")),
        ("i2c", ("sda", "scl")),
        ("pixels", ("pin",)),
    ):
        section = data.get(part)
        if not isinstance(section, dict):
            problems.append("%s is missing" % part)
            continue
        for key in keys:
            claim(part + "." + key, section.get(key))
    buttons = data.get("buttons")
    if not isinstance(buttons, dict):
        problems.append("buttons is missing")
    else:
        for name in ("left", "right", "ok", "back"):
            claim("buttons." + name, buttons.get(name))
    nfc = data.get("nfc")
    if nfc is not None:
        if not isinstance(nfc, dict):
            problems.append("nfc must be an object or null")
        else:
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
