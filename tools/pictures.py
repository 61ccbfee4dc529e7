"""Pictures for the README, drawn from the data in `hardware/` (run `python -m tools.pictures`).

- `docs/img/premiums-<profile>.svg` for every board profile in `hardware/profiles/`: the
  squares, read through `engine.profile.Profile`, with each premium in its legend colour.
- `docs/img/wiring.svg` and `docs/img/wiring-hall-only.svg` from `hardware/pins/`: the Pico's
  used GPIOs wired to each part.

Every number and label that a data file holds comes from that file; the code holds only part
names and what a signal is (from hardware/wiring.md). The SVG is plain text written here,
the same bytes on every run, so tests/test_pictures.py can compare it with the committed files.
"""

import json
import os

from engine import squares
from engine.profile import CHIP, RUN, Profile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = "docs/img"
PINS = (("pico.json", "wiring.svg"), ("hall-only.json", "wiring-hall-only.svg"))
WIDTH = 800
INK, GREY, PAPER = "#222222", "#666666", "#ffffff"
PLAIN = "#f2eee4"  # a square without a premium
KIND_NAMES = {CHIP: "chip", RUN: "run"}
KIND_MEANINGS = "chip: multiplies the chip on the square · run: multiplies the whole run"
# Raspberry Pi Pico: GPIO -> header pin (Pico datasheet pinout). GP23-25 and GP29 are internal.
HEADER = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15}
HEADER.update({12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26})
HEADER.update({21: 27, 22: 29, 26: 31, 27: 32, 28: 34})


def _esc(text):
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class Svg:
    """An SVG document built element by element; attribute names use `_` for `-`."""

    def __init__(self, title):
        self.title = title
        self.body = []

    def el(self, tag, content=None, raw=False, **attrs):
        parts = [tag]
        for key, value in attrs.items():
            value = _esc(value).replace('"', "&quot;")
            parts.append('%s="%s"' % (key.rstrip("_").replace("_", "-"), value))
        if content is None:
            self.body.append("<%s/>" % " ".join(parts))
        else:
            inner = content if raw else _esc(content)
            self.body.append("<%s>%s</%s>" % (" ".join(parts), inner, tag))

    def text(self, x, y, content, size=13, anchor="start", weight=None, fill=INK, raw=False):
        extra = {"font_weight": weight} if weight else {}
        if anchor != "start":
            extra["text_anchor"] = anchor
        self.el("text", content, raw, x=x, y=y, font_size=size, fill=fill, **extra)

    def line(self, x1, y1, x2, y2, width=1.5, colour=INK):
        self.el("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=colour, stroke_width=width)

    def render(self, height):
        head = (
            '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
            'viewBox="0 0 %d %d" font-family="sans-serif">' % (WIDTH, height, WIDTH, height)
        )
        lines = [head, "<title>%s</title>" % _esc(self.title)]
        lines.append('<rect width="%d" height="%d" fill="%s"/>' % (WIDTH, height, PAPER))
        return "\n".join(lines + self.body + ["</svg>", ""])


def hex_colour(rgb):
    return "#%02x%02x%02x" % tuple(rgb)


def _text_on(rgb):
    """Black or white, whichever reads better on this fill."""
    r, g, b = rgb
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else PAPER


# ---------------------------------------------------------------- premium squares


def _premium_mark(svg, x, y, size, entry):
    """A square's fill and its short meaning (factor, then kind when there is room)."""
    fg = _text_on(entry.colour)
    big = 16 if size >= 36 else 12
    if size >= 40:
        svg.text(x + size // 2, y + size // 2 + 1, "×%d" % entry.factor, big, "middle", "bold", fg)
        svg.text(x + size // 2, y + size // 2 + 15, KIND_NAMES[entry.kind], 11, "middle", None, fg)
    else:
        svg.text(x + size // 2, y + size // 2 + 5, "×%d" % entry.factor, big, "middle", "bold", fg)


def premiums_svg(prof, source):
    """The board of a Profile as SVG text; `source` is the file named under the title."""
    w, h = prof.width, prof.height
    cell = max(24, min(46, 690 // max(w, h)))
    left = (WIDTH - cell * w) // 2 + 10
    top = 84
    title = "Premium squares: %s board “%s” (%d × %d)" % (prof.game, prof.name, w, h)
    svg = Svg(title)
    svg.text(WIDTH // 2, 30, title, 18, "middle", "bold")
    svg.text(WIDTH // 2, 50, "from " + source, 12, "middle", None, GREY)
    for c in range(w):
        svg.text(left + c * cell + cell // 2, top - 8, squares.name(c, w)[0], 13, "middle", "bold")
    for r in range(h):
        svg.text(left - 8, top + r * cell + cell // 2 + 5, str(r + 1), 13, "end", "bold")
    for i in range(w * h):
        x, y = left + (i % w) * cell, top + (i // w) * cell
        letter = prof.premium_letter(i)
        fill = hex_colour(prof.legend[letter].colour) if letter else PLAIN
        name = squares.name(i, w)
        svg.el("rect", id="sq-" + name, x=x, y=y, width=cell, height=cell, fill=fill,
               stroke="#b5ad9c")  # fmt: skip
        if letter:
            _premium_mark(svg, x, y, cell, prof.legend[letter])
    sx, sy = left + (prof.start % w) * cell, top + (prof.start // w) * cell
    _start_mark(svg, sx, sy, cell)
    y = top + h * cell + 34
    return svg.render(_premium_legend(svg, prof, y))


def _start_mark(svg, x, y, size):
    """A thick frame and a corner flag: clear of the centred label, seen on any fill."""
    svg.el("rect", x=x + 1.5, y=y + 1.5, width=size - 3, height=size - 3, fill="none",
           stroke=INK, stroke_width=3)  # fmt: skip
    svg.el("polygon", points="%d,%d %d,%d %d,%d" % (x, y, x + 16, y, x, y + 16), fill=INK)


def _premium_legend(svg, prof, y):
    """Two columns: one swatch per legend entry (profile order), then the start square."""
    items = []
    for letter, entry in prof.legend.items():
        count = prof.premiums.count(prof.letters.find(letter))
        items.append((entry, "%s (%d square%s)" % (entry.label, count, "s"[count == 1 :])))
    items.append((None, "start square %s" % squares.name(prof.start, prof.width)))
    col_x = (40, 420)
    rows = (len(items) + 1) // 2
    for k, (entry, label) in enumerate(items):
        x, yy = col_x[k // rows], y + (k % rows) * 44
        if entry is None:
            svg.el("rect", x=x, y=yy, width=40, height=40, fill=PLAIN)
            _start_mark(svg, x, yy, 40)
        else:
            svg.el("rect", x=x, y=yy, width=40, height=40, fill=hex_colour(entry.colour))
            _premium_mark(svg, x, yy, 40, entry)
        svg.text(x + 50, yy + 25, label, 14)
    y += rows * 44 + 20
    svg.text(40, y, KIND_MEANINGS, 13, fill=GREY)
    return y + 20


# ---------------------------------------------------------------- wiring

PITCH = 24  # between two signal rows
GAP = 26  # between two parts
PICO_L, PICO_R = 20, 180
PART_L, PART_R = 440, 780
DESC_DX = 170  # a part's description starts this far right of its left edge
# The kinds each part may be (the first is the default when a map leaves `kind` out, as
# firmware/pinmap.py allows for the display).
KINDS = {
    "presence": ("74hc165",),
    "display": ("ssd1306", "sh1106"),
    "nfc": ("pn532",),
    "pixels": ("ws2812",),
}


def _hz(n):
    for unit, scale in (("MHz", 1000000), ("kHz", 1000)):
        if n % scale == 0:
            return "%d %s" % (n // scale, unit)
    return "%d Hz" % n


class Wiring:
    """Lays out parts top to bottom; every GPIO row runs straight across to its part."""

    def __init__(self, svg):
        self.svg = svg
        self.y = 104
        self.rows = []  # (y, gpio) for the Pico block

    def block(self, x0, x1, top, bottom, title):
        self.svg.el("rect", x=x0, y=top, width=x1 - x0, height=bottom - top, rx=6,
                    fill="#f4f6fa", stroke=INK, stroke_width=1.5)  # fmt: skip
        self.svg.text(x0 + 10, top + 18, title, 14, weight="bold")

    def arrow(self, x, y, right):
        """An arrowhead pointing along the wire at (x, y)."""
        d = -8 if right else 8
        self.svg.el("polygon", points="%d,%d %d,%d %d,%d" % (x, y, x + d, y - 4, x + d, y + 4),
                    fill=INK)  # fmt: skip

    def wire(self, y, gp, key, x_end, direction):
        """A GPIO row: Pico edge -> x_end, its pin-map key above it; direction out/in/both."""
        self.rows.append((y, gp))
        self.svg.line(PICO_R, y, x_end, y)
        self.svg.text(PICO_R + 8, y - 5, key, 11, fill=GREY)
        if direction == "out":
            self.arrow(x_end, y, True)
        elif direction == "in":
            self.arrow(PICO_R, y, False)

    def part(self, title, rows, desc, x0=PART_L, x1=PART_R, desc_below=False):
        """A part with signal rows [(label, gpio or None, key, direction)]; returns row ys.

        A row whose gpio is None gets no wire (the caller draws it, e.g. a shared bus).
        """
        top = self.y
        ys = [top + PITCH * (i + 1) + 12 for i in range(len(rows))]
        if desc_below:
            desc_y = top + PITCH * (len(rows) + 1) + 12
        else:
            desc_y = top + PITCH + 12
        bottom = max(top + PITCH * (len(rows) + 1) + 8, desc_y + 16 * len(desc) - 4)
        self.block(x0, x1, top, bottom, title)
        for (label, gp, key, direction), y in zip(rows, ys):
            if gp is not None:
                self.wire(y, gp, key, x0, direction)
            self.svg.text(x0 + 10, y + 4, label, 12, raw=True)
        dx = 10 if desc_below else DESC_DX
        for k, line in enumerate(desc):
            self.svg.text(x0 + dx, desc_y + 4 + 16 * k, line, 12, fill=GREY, raw=True)
        self.y = bottom + GAP
        return ys


def _over(text):
    """Markup for an overlined (active-low) signal name."""
    return '<tspan text-decoration="overline">%s</tspan>' % _esc(text)


def _i2c_parts(w, pins):
    i2c, disp, nfc = pins["i2c"], pins["display"], pins["nfc"]
    bus = "I²C%d" % i2c["id"]
    sda_y, scl_y = w.part(
        "%s display" % disp.get("kind", KINDS["display"][0]).upper(),
        [("SDA", i2c["sda"], "i2c.sda", "both"), ("SCL", i2c["scl"], "i2c.scl", "both")],
        [
            "OLED %d × %d, 3.3 V" % (disp["width"], disp["height"]),
            "%s at 0x%02X" % (bus, disp["addr"]),
        ],
    )
    w.svg.text(PICO_R + 70, sda_y - 5, "%s, %s" % (bus, _hz(i2c["freq"])), 11, fill=GREY)
    if nfc is None:
        return
    rows = [("SDA", None, "", ""), ("SCL", None, "", "")]
    if nfc.get("reset") is not None:
        rows.append(("RSTPDN (low = power-down)", nfc["reset"], "nfc.reset", "out"))
    if nfc.get("irq") is not None:
        rows.append(("P70_IRQ (low = answer ready)", nfc["irq"], "nfc.irq", "in"))
    ys = w.part("PN532 NFC reader", rows, ["%s at 0x%02X" % (bus, nfc["addr"]), "5 V module"])
    # The shared bus: SDA drops further right than SCL so that only one pair of wires crosses.
    for x, y0, y1 in ((PART_L - 40, sda_y, ys[0]), (PART_L - 60, scl_y, ys[1])):
        w.svg.line(x, y0, x, y1)
        w.svg.line(x, y1, PART_L, y1)
        w.svg.el("circle", cx=x, cy=y0, r=3.5, fill=INK)


def _antenna_matrix(w, nfc, spi):
    """The 74HC595 chain on the antenna switches' gate lines; returns the y of its SER and
    SRCLK rows, which the presence part's SPI wires reach (_presence)."""
    top = w.y
    sel = nfc["select"]
    rows = [
        ("RCLK of all four", sel["rclk"], "nfc.select.rclk", "out"),
        ("%s of all four" % _over("OE"), nfc["antenna_enable"], "nfc.antenna_enable", "out"),
        ("SER of U_A ← SPI%d TX" % spi, None, "", ""),
        ("SRCLK of all ← SPI%d SCK" % spi, None, "", ""),
    ]
    desc = [
        "one-hot gate lines:",
        "bits 0–14: rows R0–R14",
        "bits 16–30: cols C0–C14",
        "square (r, c): Rr and Cc",
        "%s high: all switches off" % _over("OE"),
    ]
    ys = w.part("74HC595 antenna switches × 4", rows, desc)
    # The reader's 50-ohm trunk feeds the row switches (wiring.md: NFC antenna matrix).
    x = PART_R - 50
    w.svg.line(x, top - GAP, x, top, 2.5)
    w.svg.text(x - 8, top - 9, "RF trunk, 50 Ω → 15 row switches → 225 cells", 11, "end",
               fill=GREY)  # fmt: skip
    return ys[2], ys[3]


def _presence(w, p, antennas=None):
    last = p["chips"] - 1
    rows = [
        ("SH/LD (pin 1) of all", p["latch"], "presence.latch", "out"),
        ("CLK (pin 2) of all", p["sck"], "presence.sck", "out"),
        ("QH (pin 9) of U0", p["miso"], "presence.miso", "in"),
    ]
    desc = [
        "U0 … U%d chained:" % last,
        "SER ← QH of the next chip",
        "%d inputs: one Hall" % (8 * p["chips"]),
        "switch per square",
        "SPI%d at %s" % (p["spi"], _hz(p["baudrate"])),
    ]
    if p.get("active_low"):
        desc[-1] += "; 0 = magnet"
    ys = w.part("74HC165 shift registers × %d" % p["chips"], rows + [("", None, "", "")], desc)
    y = ys[-1]
    key = "presence.mosi (SPI%d TX)" % p["spi"]
    if antennas is None:
        # SPI TX must be named to keep the rp2 port off its default pin; nothing is wired to it.
        x = PICO_R + 150
        w.wire(y, p["mosi"], key, x, "out")
        w.svg.text(x + 6, y + 4, "not connected", 12, fill=GREY)
        return
    # SPI TX goes up to the 74HC595s' SER, and the clock branches off to their SRCLK.
    ser_y, srclk_y = antennas
    x = PART_L - 60
    w.wire(y, p["mosi"], key, x, "")
    w.svg.line(x, y, x, ser_y)
    w.svg.line(x, ser_y, PART_L, ser_y)
    w.arrow(PART_L, ser_y, True)
    w.svg.text(x + 6, y + 4, "to the 74HC595s", 12, fill=GREY)
    x = PART_L - 40
    w.svg.line(x, ys[1], x, srclk_y)
    w.svg.line(x, srclk_y, PART_L, srclk_y)
    w.svg.el("circle", cx=x, cy=ys[1], r=3.5, fill=INK)
    w.arrow(PART_L, srclk_y, True)


def _pixels(w, px):
    top = w.y
    mid = PART_L + 150
    (y,) = w.part("74AHCT125", [("1A → 1Y", px["pin"], "pixels.pin", "out")],
                  ["3.3 V → 5 V"], PART_L, mid - 40, True)  # fmt: skip
    bottom = w.y
    w.y = top
    desc = [
        _esc(px["order"]) + ", " + ("serpentine rows" if px.get("serpentine") else "rows"),
        "5 V supply",
    ]
    w.part("WS2812B × %d" % px["count"], [("DIN of LED 0", None, "", "")], desc, mid + 30,
           PART_R, True)  # fmt: skip
    w.y = max(w.y, bottom)
    # 1Y -> 330 ohm (at the LED end) -> DIN of LED 0.
    w.svg.line(mid - 40, y, mid + 30, y)
    w.svg.el("rect", x=mid - 12, y=y - 5, width=24, height=10, fill=PAPER, stroke=INK,
             stroke_width=1.5)  # fmt: skip
    w.svg.text(mid, y - 9, "330 Ω", 11, "middle")
    w.arrow(mid + 30, y, True)


def _buttons(w, buttons):
    rows = [("", gp, "buttons." + name, "in") for name, gp in buttons.items()]
    ys = w.part("Buttons", rows, ["to GND, internal", "pull-ups: pressed = 0"])
    for name, y in zip(buttons, ys):
        x = PART_L
        w.svg.line(x, y, x + 14, y)
        w.svg.el("circle", cx=x + 17, cy=y, r=3, fill=PAPER, stroke=INK, stroke_width=1.5)
        w.svg.line(x + 19, y - 2, x + 40, y - 10)
        w.svg.el("circle", cx=x + 43, cy=y, r=3, fill=PAPER, stroke=INK, stroke_width=1.5)
        w.svg.line(x + 46, y, x + 58, y)
        w.svg.text(x + 62, y + 4, "GND", 11, fill=GREY)
        w.svg.text(x + 100, y + 4, name, 12, weight="bold")


def _pico(w, top, bottom):
    """The Pico block from top to below `bottom`, with the free GPIOs; returns its bottom."""
    svg = w.svg
    lines = _free_lines([gp for gp in sorted(HEADER) if gp not in {gp for _, gp in w.rows}])
    bottom += 16 * (len(lines) + 1) + 6
    svg.el("rect", x=PICO_L, y=top, width=PICO_R - PICO_L, height=bottom - top, rx=8,
           fill="#e8f3ea", stroke=INK, stroke_width=2)  # fmt: skip
    svg.text((PICO_L + PICO_R) // 2, top + 20, "Raspberry Pi Pico", 14, "middle", "bold")
    svg.text(PICO_L + 10, top + 38, "header pin", 11, fill=GREY)
    svg.text(PICO_R - 10, top + 38, "GPIO", 11, "end", fill=GREY)
    for y, gp in w.rows:
        if gp in HEADER:
            svg.text(PICO_L + 10, y + 4, "pin %d" % HEADER[gp], 11, fill=GREY)
        svg.text(PICO_R - 10, y + 4, "GP%d" % gp, 13, "end", "bold")
    y = bottom - 10 - 16 * len(lines)
    svg.text(PICO_L + 10, y, "free header GPIOs:", 11, fill=GREY)
    for line in lines:
        y += 16
        svg.text(PICO_L + 10, y, line, 11, fill=GREY)
    return bottom


def _free_lines(free):
    """GPIO numbers as text lines, runs of three or more shortened to `GP7–GP15`."""
    runs = []
    for gp in free:
        if runs and runs[-1][1] == gp - 1:
            runs[-1][1] = gp
        else:
            runs.append([gp, gp])
    words = []
    for a, b in runs:
        if b - a >= 2:
            words.append("GP%d–GP%d" % (a, b))
        else:
            words.extend("GP%d" % gp for gp in range(a, b + 1))
    return [", ".join(words[k : k + 3]) for k in range(0, len(words), 3)] or ["none"]


def wiring_svg(pins, source):
    """The wiring of a pin map (a dict as in hardware/pins/*.json) as SVG text."""
    for section, kinds in KINDS.items():
        part = pins.get(section)
        if (
            part is not None
            and part.get("kind", kinds[0] if section == "display" else None) not in kinds
        ):
            raise ValueError(
                "pictures: no drawing for %s kind %r" % (section, pins[section].get("kind"))
            )
    if pins.get("nfc") is not None and pins["nfc"]["select"].get("kind") != "74hc595":
        raise ValueError("pictures: no drawing for nfc.select kind %r" % pins["nfc"]["select"])
    title = "Wiring: %s" % pins["name"]
    svg = Svg(title)
    svg.text(WIDTH // 2, 30, title, 18, "middle", "bold")
    svg.text(WIDTH // 2, 50, "%s, from %s" % (pins["board"], source), 12, "middle", None, GREY)
    w = Wiring(svg)
    top = w.y - 34
    _i2c_parts(w, pins)
    antennas = None
    if pins.get("nfc") is not None:
        antennas = _antenna_matrix(w, pins["nfc"], pins["presence"]["spi"])
    _presence(w, pins["presence"], antennas)
    _pixels(w, pins["pixels"])
    if pins["pixels"].get("power") is not None:
        w.part(
            "LED rail switch",
            [("ON", pins["pixels"]["power"], "pixels.power", "out")],
            ["high = 5 V to the LEDs (soft start)"],
        )
    _buttons(w, pins["buttons"])
    bottom = _pico(w, top, w.y - GAP + 8)
    note = "Arrows point from driver to input. Power, ground, pull-ups and decoupling:"
    svg.text(PICO_L, bottom + 28, note + " hardware/wiring.md.", 12, fill=GREY)
    return svg.render(bottom + 44)


# ---------------------------------------------------------------- all pictures


def render_all():
    """{path relative to the repository: SVG text} for every picture."""
    out = {}
    prof_dir = os.path.join(ROOT, "hardware", "profiles")
    for fname in sorted(os.listdir(prof_dir)):
        if fname.endswith(".json"):
            with open(os.path.join(prof_dir, fname), encoding="utf-8") as f:
                prof = Profile(json.load(f))
            source = "hardware/profiles/" + fname
            out["%s/premiums-%s.svg" % (OUT, fname[:-5])] = premiums_svg(prof, source)
    for fname, picture in PINS:
        with open(os.path.join(ROOT, "hardware", "pins", fname), encoding="utf-8") as f:
            pins = json.load(f)
        out[OUT + "/" + picture] = wiring_svg(pins, "hardware/pins/" + fname)
    return out


def main():
    for path, text in render_all().items():
        full = os.path.join(ROOT, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        print(path)


if __name__ == "__main__":
    main()
