"""The chip registry: which NFC tag UID is which chip face (filled by enrolment).

Stored as JSON, `{"chips": {"04a1b2c3": "7", "04a1b2c4": "?", ...}}`, UIDs in lower-case hex.
Faces use the engine's spellings (`engine.faces`); a joker is enrolled as `"?"` and its value
is chosen on the board each time it is laid. A bad file raises `RegistryError` naming the
entry, and nothing half-loaded is used.
"""

import json
from binascii import hexlify

from engine import faces
from engine.errors import FaceError

_HEX = "0123456789abcdef"


class RegistryError(Exception):
    pass


def uid_hex(uid):
    """A tag's UID bytes in lower-case hex (one string made, nothing else)."""
    return hexlify(uid).decode()


def _key(uid):
    """The registry's key for a UID (bytes, or hex in either case); RegistryError if it is
    none. A lower-case hex string is its own key (chips.json's keys are kept, not copied);
    `strip` of a hex string gives the empty string, which MicroPython does not allocate."""
    if not isinstance(uid, str):
        uid = uid_hex(uid)
    else:
        low = uid.lower()
        if low != uid:
            uid = low
    if not 8 <= len(uid) <= 20 or len(uid) % 2 or uid.strip(_HEX):
        raise RegistryError("tag %r: a UID is 4 to 10 bytes in hex" % (uid,))
    return uid


def _face(face, key):
    try:
        return face_text(face)
    except RegistryError as err:
        raise RegistryError("tag %s: %s" % (key, err))


def face_text(face, where=""):
    """The registry's spelling of a chip face; RegistryError (after `where`) if it is none."""
    try:
        ch, joker = faces.parse(face)
    except FaceError as err:
        raise RegistryError("%s%s" % (where, err))
    if joker and ch != faces.JOKER:
        raise RegistryError("%sa joker is enrolled as '?'" % where)
    return faces.JOKER if joker else faces.text(ch)


class Registry:
    def __init__(self, chips=None):
        self.chips = {}
        if chips:
            # The table is made once at its size: grown entry by entry, a dict leaves each
            # outgrown table as a hole among the keys (a splintered heap on a board).
            keys = [_key(uid) for uid in chips]
            table = dict.fromkeys(keys)
            for key, face in zip(keys, chips.values()):
                table[key] = _face(face, key)
            self.chips = table

    def __len__(self):
        return len(self.chips)

    def face(self, uid):
        """The face text of a tag (UID bytes or hex), or None when it is not enrolled."""
        if not isinstance(uid, str):
            uid = uid_hex(uid)
        return self.chips.get(uid)

    def enrol(self, uid, face):
        key = _key(uid)
        self.chips[key] = _face(face, key)

    def forget(self, uid):
        self.chips.pop(uid if isinstance(uid, str) else uid_hex(uid), None)

    def to_json(self):
        return json.dumps({"chips": self.chips})


def loads(text):
    try:
        data = json.loads(text)
    except ValueError:
        raise RegistryError("the chip registry is not valid JSON")
    if not isinstance(data, dict) or not isinstance(data.get("chips"), dict):
        raise RegistryError('the chip registry needs a "chips" object')
    return Registry(data["chips"])
