"""The chip registry: which NFC tag UID is which chip face (filled by enrolment).

Stored as JSON, `{"chips": {"04a1b2c3": "7", "04a1b2c4": "?", ...}}`, UIDs in lower-case hex.
Faces use the engine's spellings (`engine.faces`); a joker is enrolled as `"?"` and its value
is chosen on the board each time it is laid. A bad file raises `RegistryError` naming the
entry, and nothing half-loaded is used.
"""

import json

from engine import faces
from engine.errors import FaceError


class RegistryError(Exception):
    pass


def uid_hex(uid):
    return "".join("%02x" % b for b in uid)


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
            for uid, face in chips.items():
                self.enrol(uid, face)

    def __len__(self):
        return len(self.chips)

    def face(self, uid):
        """The face text of a tag (UID bytes or hex), or None when it is not enrolled."""
        if not isinstance(uid, str):
            uid = uid_hex(uid)
        return self.chips.get(uid)

    def enrol(self, uid, face):
        if not isinstance(uid, str):
            uid = uid_hex(uid)
        uid = uid.lower()
        if (
            not 8 <= len(uid) <= 20
            or len(uid) % 2
            or any(c not in "0123456789abcdef" for c in uid)
        ):
            raise RegistryError("tag %r: a UID is 4 to 10 bytes in hex" % (uid,))
        self.chips[uid] = face_text(face, "tag %s: " % uid)

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
