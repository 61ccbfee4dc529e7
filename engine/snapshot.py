"""A refereed game's whole state as compact bytes, and back (for the journal and resume).

Layout (version 2; integers big-endian):
  b"CQS" version game players to_move idle first flags bag(2)
  game: which game the snapshot holds (GAMES), so a board switched to the other game never
  reads it as its own. Version 1 had no game byte; it is still read, its game told by flag
  bit 3, which only Cal-Q-Able sets.
  precedence(1: 0 standard, 1 mul_first) strict(1) turn_seconds(2) swap_min_bag(1)
  flags: bit0 over, bit1 penalties, bit2 end bonuses, bit3 Cal-Q-Able options
  Cal-Q-Able options if bit3: advanced(1) equals(1)
  scores: players x 4 (two's complement)   racks: players x 1   penalties: players x 2 if set
  end bonuses: players x 2 if set
  board: width*height cell codes
  turns(2), then the game's log as it is (engine.game: about 17 bytes a turn)
The chips not yet on the board are recomputed from the profile's chip set on restore.
Only referee mode is stored: a known-rack (self-play) game raises GameStateError.
"""

from engine.errors import GameStateError, OptionError
from engine.game import KINDS, REPLACE, Game, chip_key

MAGIC = b"CQS"
VERSION = 2
GAMES = ("calculissimo", "calqable")  # the game byte: an index into this
_PRECEDENCE = ("standard", "mul_first")


def _u(value, n):
    return bytes([(value >> (8 * (n - 1 - k))) & 0xFF for k in range(n)])


def _read(data, pos, n):
    v = 0
    for k in range(n):
        v = (v << 8) | data[pos + k]
    return v


def encode(game):
    if game.known:
        raise GameStateError("only a refereed game can be saved")
    o = game.options
    out = bytearray(MAGIC)
    extra = "advanced" in o
    flags = (1 if game.over else 0) | (2 if game.penalties is not None else 0)
    flags |= (4 if game.bonuses is not None else 0) | (8 if extra else 0)
    out += bytes([VERSION, GAMES.index(game.profile.game)])
    out += bytes([game.players, game.to_move, game.idle, game.first, flags])
    out += _u(game.bag, 2)
    out += bytes([_PRECEDENCE.index(o["precedence"]), 1 if o["strict"] else 0])
    out += _u(o["turn_seconds"], 2) + bytes([o["swap_min_bag"]])
    if extra:
        out += bytes([1 if o["advanced"] else 0, o["equals"]])
    for s in game.scores:
        out += _u(s & 0xFFFFFFFF, 4)
    out += bytes(game.racks)
    for extra_points in (game.penalties, game.bonuses):
        if extra_points is not None:
            for points in extra_points:
                out += _u(points, 2)
    out += game.board.cells
    out += _u(game.turns, 2)
    out += game.log
    return bytes(out)


def game_of(data):
    """The game a snapshot holds ("calculissimo", "calqable"), or None if it is no snapshot."""
    if len(data) < 9 or data[:3] != MAGIC:
        return None
    if data[3] == 1:
        return GAMES[1] if data[8] & 8 else GAMES[0]
    if data[3] == VERSION and data[4] < len(GAMES):
        return GAMES[data[4]]
    return None


def decode(profile, data):
    """Rebuild a Game from `encode`'s bytes; GameStateError if they are not a valid state,
    or if they hold another game than `profile`'s."""
    game = game_of(data)
    if game is not None and game != profile.game:
        raise GameStateError("the saved game is %s, not %s" % (game, profile.game))
    if game is not None and data[3] == VERSION:
        data = MAGIC + b"\x01" + data[5:]  # from here on a version 1 layout
    try:
        return _decode(profile, data)
    except (IndexError, ValueError, KeyError, OptionError) as exc:  # OptionError: bad header
        raise GameStateError("saved game is damaged: %s" % (exc,))


def _need(ok, what):
    if not ok:
        raise GameStateError("saved game is damaged: " + what)


def _decode(profile, data):
    if data[:3] != MAGIC or data[3] != 1:
        raise GameStateError("not a saved game (or a newer version)")
    n = data[4]
    options = {
        "precedence": _PRECEDENCE[data[11]],
        "strict": bool(data[12]),
        "turn_seconds": _read(data, 13, 2),
        "swap_min_bag": data[15],
    }
    flags = data[8]
    pos = 16
    if flags & 8:
        options["advanced"] = bool(data[16])
        options["equals"] = data[17]
        pos = 18
    game = Game(profile, n, options, first=data[7])
    game.to_move = data[5]
    game.idle = data[6]
    game.over = bool(flags & 1)
    game.bag = _read(data, 9, 2)
    _need(game.to_move < n and game.idle <= n and flags < 16, "turn state")
    for p in range(n):
        s = _read(data, pos, 4)
        game.scores[p] = s - (1 << 32) if s & 0x80000000 else s
        pos += 4
    game.racks = list(data[pos : pos + n])
    _need(len(game.racks) == n and max(game.racks) <= game.rack_size, "rack sizes")
    pos += n
    if flags & 2:
        game.penalties = [_read(data, pos + 2 * p, 2) for p in range(n)]
        pos += 2 * n
    if flags & 4:
        game.bonuses = [_read(data, pos + 2 * p, 2) for p in range(n)]
        pos += 2 * n
    size = profile.width * profile.height
    cells = game.board.cells
    _need(len(data) >= pos + size + 2, "board")
    cells[:] = data[pos : pos + size]
    pos += size
    alphabet = game.rules.alphabet
    for c in cells:
        if c:
            _need(chr(c & 0x7F) in alphabet, "unknown chip on the board")
            key = chip_key(c)
            if game.unseen.get(key, 0) <= 0:
                raise GameStateError("saved board holds more %r chips than the set" % key)
            game.unseen[key] -= 1
    _need(game.bag + sum(game.racks) <= sum(game.unseen.values()), "bag and racks")
    game.turns = _read(data, pos, 2)
    game.log = bytearray(data[pos + 2 :])
    # Walk the log: every entry must be whole and end on its own length byte.
    start = 0
    log = game.log
    for _ in range(game.turns):
        _need(start + 10 <= len(log) and log[start] < len(KINDS), "log entry kind")
        _need(log[start + 1] < n and log[start + 2] < n and log[start + 3] <= n, "log players")
        length = 10 + 3 * log[start + 8]
        if KINDS[log[start]] == REPLACE:
            _need(start + length < len(log), "log entry")
            length += 1 + 3 * log[start + length - 1]
        _need(start + length <= len(log) and log[start + length - 1] == length, "log entry")
        start += length
    if start != len(game.log):
        raise GameStateError("saved game log has %d stray bytes" % (len(game.log) - start))
    return game
