"""The README pictures in docs/img: current with the hardware data, and drawn from it.

The expected values here are read from the JSON files directly (layout strings, pin numbers),
not through tools/pictures.py, so a drawing bug cannot agree with itself.
"""

import json
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from engine.profile import Profile
from tools import pictures

REPO = Path(__file__).resolve().parent.parent
NS = "{http://www.w3.org/2000/svg}"
PROFILES = sorted(p.name for p in (REPO / "hardware" / "profiles").glob("*.json"))
REGENERATE = "run `python -m tools.pictures` and commit docs/img"


@pytest.fixture(scope="module")
def rendered():
    return pictures.render_all()


def _load(*parts):
    return json.loads(REPO.joinpath(*parts).read_text(encoding="utf-8"))


def _texts(svg_text):
    return ["".join(t.itertext()) for t in ET.fromstring(svg_text).iter(NS + "text")]


def _rgb(colour):
    return "#%02x%02x%02x" % tuple(colour)


def test_committed_pictures_are_current(rendered):
    stale = []
    for path, text in rendered.items():
        full = REPO / path
        if not full.exists() or full.read_text(encoding="utf-8") != text:
            stale.append(path)
    assert not stale, "out of date: %s; %s" % (", ".join(stale), REGENERATE)


def test_no_stale_pictures(rendered):
    img = REPO / "docs" / "img"
    committed = {"docs/img/" + p.name for p in img.glob("premiums-*.svg")}
    committed |= {"docs/img/" + p.name for p in img.glob("wiring*.svg")}
    assert committed == set(rendered), "pictures without a source or missing; " + REGENERATE


def test_rendering_is_deterministic(rendered):
    assert pictures.render_all() == rendered


def test_each_picture_is_svg_and_readable(rendered):
    for path, text in rendered.items():
        root = ET.fromstring(text)
        assert root.tag == NS + "svg", path
        assert root.get("font-family") == "sans-serif", path
        assert 700 <= int(root.get("width")) <= 900, path
        sizes = [float(t.get("font-size")) for t in root.iter(NS + "text")]
        assert sizes and min(sizes) >= 11, path


# ---------------------------------------------------------------- premium squares


def _cells(svg_text):
    """{square name: fill} of the board cells (rects with id sq-<name>)."""
    root = ET.fromstring(svg_text)
    return {
        r.get("id")[3:]: r.get("fill")
        for r in root.iter(NS + "rect")
        if (r.get("id") or "").startswith("sq-")
    }


def _expected_fills(data):
    """{square name: legend colour} of every premium square, read from the layout strings."""
    out = {}
    for r, row in enumerate(data["layout"]):
        for c, letter in enumerate(row):
            if letter != ".":
                out["ABCDEFGHIJKLMNOPQRSTUVWXYZ"[c] + str(r + 1)] = _rgb(
                    data["legend"][letter]["colour"]
                )
    return out


@pytest.mark.parametrize("fname", PROFILES)
def test_premium_squares_have_their_legend_colour(rendered, fname):
    data = _load("hardware", "profiles", fname)
    cells = _cells(rendered["docs/img/premiums-%s.svg" % fname[:-5]])
    assert len(cells) == data["width"] * data["height"]
    expected = _expected_fills(data)
    colours = set(expected.values())
    per_colour = Counter(fill for fill in cells.values() if fill in colours)
    assert per_colour == Counter(expected.values())
    for name, fill in expected.items():
        assert cells[name] == fill, name


@pytest.mark.parametrize("fname", PROFILES)
def test_premium_picture_names_legend_and_start(rendered, fname):
    data = _load("hardware", "profiles", fname)
    texts = _texts(rendered["docs/img/premiums-%s.svg" % fname[:-5]])
    for entry in data["legend"].values():
        assert any(t.startswith(entry["label"] + " (") for t in texts), entry["label"]
        assert "×%d" % entry["factor"] in texts
    assert "start square " + data["start"] in texts
    letters = [chr(ord("A") + c) for c in range(data["width"])]
    assert all(letter in texts for letter in letters)
    assert all(str(r + 1) in texts for r in range(data["height"]))


def test_moved_premium_changes_the_picture():
    data = _load("hardware", "profiles", "calculissimo.json")
    before = pictures.premiums_svg(Profile(data), "x.json")
    rows = [list(row) for row in data["layout"]]
    assert rows[1][1] == "p" and rows[0][0] == "."
    rows[0][0], rows[1][1] = "p", "."
    data["layout"] = ["".join(row) for row in rows]
    after = pictures.premiums_svg(Profile(data), "x.json")
    assert after != before
    cells = _cells(after)
    assert cells["A1"] == _rgb(data["legend"]["p"]["colour"])
    assert cells["B2"] == _cells(before)["A1"]  # now plain
    assert cells == {**_cells(before), "A1": cells["A1"], "B2": cells["B2"]}


def test_legend_edit_changes_the_picture():
    data = _load("hardware", "profiles", "calqable.json")
    data["legend"]["y"].update(factor=7, label="gold: tile x7")
    texts = _texts(pictures.premiums_svg(Profile(data), "x.json"))
    assert "×7" in texts and "×3" in texts  # green is still x3
    assert "gold: tile x7 (12 squares)" in texts


# ---------------------------------------------------------------- wiring


def _used_gpios(pins):
    used = [pins["presence"][k] for k in ("sck", "mosi", "miso", "latch")]
    used += [pins["i2c"]["sda"], pins["i2c"]["scl"], pins["pixels"]["pin"]]
    used += list(pins["buttons"].values())
    if pins["pixels"].get("power") is not None:
        used.append(pins["pixels"]["power"])
    nfc = pins.get("nfc")
    if nfc:
        used += [nfc["select"]["rclk"], nfc["antenna_enable"]]
        used += [nfc[k] for k in ("reset", "irq") if nfc.get(k) is not None]
    return used


def _gpio_labels(svg_text):
    return [t for t in _texts(svg_text) if re.fullmatch(r"GP\d+", t)]


@pytest.mark.parametrize("fname, picture", pictures.PINS)
def test_wiring_shows_exactly_the_used_gpios(rendered, fname, picture):
    pins = _load("hardware", "pins", fname)
    labels = _gpio_labels(rendered["docs/img/" + picture])
    assert sorted(labels) == sorted("GP%d" % gp for gp in _used_gpios(pins))


@pytest.mark.parametrize("fname, picture", pictures.PINS)
def test_wiring_labels_come_from_the_pin_map(rendered, fname, picture):
    pins = _load("hardware", "pins", fname)
    text = rendered["docs/img/" + picture]
    assert "74HC165 shift registers × %d" % pins["presence"]["chips"] in _texts(text)
    assert "WS2812B × %d" % pins["pixels"]["count"] in _texts(text)
    assert "at 0x%02X" % pins["display"]["addr"] in text
    for name in pins["buttons"]:
        assert name in _texts(text)
    assert ("PN532 NFC reader" in text) == (pins["nfc"] is not None)
    if pins["nfc"]:
        assert "at 0x%02X" % pins["nfc"]["addr"] in text


def test_pin_map_edit_changes_the_wiring():
    pins = _load("hardware", "pins", "pico.json")
    pins["buttons"]["ok"] = 21
    pins["presence"]["chips"] = 30
    texts = _texts(pictures.wiring_svg(pins, "x.json"))
    labels = [t for t in texts if re.fullmatch(r"GP\d+", t)]
    assert "GP21" in labels and "GP19" not in labels
    assert "74HC165 shift registers × 30" in texts
    assert "GP6, GP9–GP15, GP19" in texts  # the free-pin list follows


def test_the_antenna_matrix_is_drawn_from_the_pin_map():
    pins = _load("hardware", "pins", "pico.json")
    texts = _texts(pictures.wiring_svg(pins, "x.json"))
    assert "74HC595 antenna switches × 4" in texts
    assert "nfc.select.rclk" in texts and "nfc.antenna_enable" in texts
    assert "presence.mosi (SPI0 TX)" in texts and "not connected" not in texts
    pins["nfc"]["select"]["rclk"] = 9
    pins["nfc"]["irq"] = 6
    texts = _texts(pictures.wiring_svg(pins, "x.json"))
    labels = [t for t in texts if re.fullmatch(r"GP\d+", t)]
    assert "GP9" in labels and "GP8" not in labels and "GP6" in labels
    assert "nfc.irq" in texts
    hall = _texts(pictures.wiring_svg(_load("hardware", "pins", "hall-only.json"), "x.json"))
    assert "not connected" in hall and "74HC595 antenna switches × 4" not in hall


def test_unknown_part_is_refused():
    pins = _load("hardware", "pins", "pico.json")
    pins["display"]["kind"] = "ssd1309"
    with pytest.raises(ValueError, match="display"):
        pictures.wiring_svg(pins, "x.json")


def test_an_sh1106_display_is_drawn_as_one():
    pins = _load("hardware", "pins", "pico.json")
    pins["display"]["kind"] = "sh1106"
    svg = pictures.wiring_svg(pins, "x.json")
    assert "SH1106 display" in svg and "SSD1306" not in svg
