"""Game records (GAME_RECORD.md): `read` and validate one, `replay` it, `write` one.

`read(data, width, height)` takes the decoded JSON object and returns a `Record`, or raises
RecordError whose `path` (keys and indices) locates the offending JSON value.

`replay(record, profile)` checks the record against the profile, then returns a generator
of the output objects of GAME_RECORD.md: one per record turn, then the final one. Besides
the normative keys each turn line has `action`: "place", "pass", "swap", "timeout" or
"replace". Cal-Q-Able adds a turn kind, `{"replace": [[square, face], ...]}`: rule 5's new
left side of an equation (engine/replacement.py); and its final line adds `bonuses` when
rule 13 gave the last mover the other racks' values.
A swap the game refuses (bag too small, more chips than the rack holds) is an illegal turn
with reason `swap_not_allowed`; under `strict` it costs the turn (`Game.forfeit()`), as an
illegal placement does.

`write(game, turns_meta=None, racks=None, turn_racks=False)` gives a record of a game's
committed history; an illegal move under `strict` is written `{"pass": true, "forfeit": true}`
and replays as a pass.

A turn may carry the added key `rack`: the mover's rack before the turn, a list of faces as
in `end.racks` (for `host_tools analyse`). `read` validates it and keeps it as `Turn.rack`;
`write` writes it from `turns_meta`, or with `turn_racks` for a known-rack game (rebuilt
from its history by `racks_before`). `start(record, profile)` and `turn_line(game, n, turn)`
are replay's steps, for tools that look at the position before each turn.
"""

from engine import faces, squares
from engine import verdict as V
from engine.errors import FaceError, GameStateError, OptionError, RecordError, SquareError
from engine.game import FORFEIT, PASS, PLACE, REPLACE, SWAP, TIMEOUT, Game, chip_key
from engine.move import Move
from engine.rules import ruleset_for

GAMES = ("calculissimo", "calqable")
SWAP_NOT_ALLOWED = V.SWAP_NOT_ALLOWED


class Turn:
    """One record turn: `kind` is place, pass, swap, timeout or replace; `data` is the raw
    object; `rack` the mover's rack before the turn (face texts) if the record gives it."""

    def __init__(self, kind, data, move=None, count=None, rack=None):
        self.kind = kind
        self.data = data
        self.move = move
        self.count = count
        self.rack = rack


class Record:
    """A validated record; `end_racks` is None or one list of face texts per player."""

    def __init__(self, game, players, options, profile, turns, end_racks, first=0, names=None):
        self.game = game
        self.names = names  # an added key: the players' names, or None
        self.players = players
        self.first = first  # 0-based; the record's optional "first" key is 1-based
        self.options = options
        self.profile = profile
        self.turns = turns
        self.end_racks = end_racks
        self.computer = None  # an added key: each seat's level the board played, 0 a person
        self.hints = None  # an added key: the hints each player asked for


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def read(data, width=15, height=15):
    """Validate a decoded record; RecordError(message, path) on the first problem."""
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object", ())
    game = data.get("game")
    if game not in GAMES:
        raise RecordError("'game' must be one of %s" % ", ".join(GAMES), ("game",))
    players = data.get("players")
    if not isinstance(players, int) or not 2 <= players <= 4:  # bools are out of range too
        raise RecordError("'players' must be a whole number 2 to 4", ("players",))
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise RecordError("'options' must be an object", ("options",))
    profile = data.get("profile", "default")
    if not isinstance(profile, str):
        raise RecordError("'profile' must be a string", ("profile",))
    turns = data.get("turns")
    if not isinstance(turns, list):
        raise RecordError("'turns' must be a list", ("turns",))
    out = [_read_turn(turns[n], ("turns", n), width, height) for n in range(len(turns))]
    racks = None
    if "end" in data:
        racks = _read_end(data["end"], players)
    first = data.get("first", 1)  # an added key: who won the setup draw (default player 1)
    if not _is_int(first) or not 1 <= first <= players:
        raise RecordError("'first' must be a player number 1 to %d" % players, ("first",))
    names = data.get("names")  # an added key: the players' names, in playing order
    if names is not None and (
        not isinstance(names, list)
        or len(names) > players
        or not all(isinstance(n, str) for n in names)
    ):
        raise RecordError("'names' must be a list of at most %d names" % players, ("names",))
    rec = Record(game, players, dict(options), profile, out, racks, first - 1, names)
    # Added keys (issue 13): the seats the board played and their levels (0: a person),
    # and the hints each player asked the board for.
    rec.computer = _read_counts(data, "computer", players, 4)
    rec.hints = _read_counts(data, "hints", players, None)
    return rec


def _read_counts(data, key, players, most):
    """An added key holding one whole number per player (at most `most`), or None."""
    value = data.get(key)
    if value is None:
        return None
    if (
        not isinstance(value, list)
        or len(value) > players
        or not all(_is_int(n) and n >= 0 and (most is None or n <= most) for n in value)
    ):
        top = "" if most is None else " up to %d" % most
        raise RecordError(
            "'%s' must be a list of at most %d whole numbers%s" % (key, players, top), (key,)
        )
    return list(value)


def _read_turn(turn, path, width, height):
    if not isinstance(turn, dict):
        raise RecordError("a turn is an object", path)
    kinds = [k for k in (PLACE, PASS, SWAP, REPLACE) if k in turn]
    if len(kinds) != 1:
        raise RecordError("a turn has exactly one of 'place', 'pass', 'swap', 'replace'", path)
    kind = kinds[0]
    value = turn[kind]
    rack = None
    if "rack" in turn:  # an added key: the mover's rack before the turn
        rack = _read_rack(turn["rack"], path + ("rack",))
    if kind == PASS:
        timeout = turn.get("timeout", False)
        if value is not True:
            raise RecordError("'pass' must be true", path + (PASS,))
        if not isinstance(timeout, bool):
            raise RecordError("'timeout' must be true or false", path + ("timeout",))
        return Turn(TIMEOUT if timeout else PASS, turn, rack=rack)
    if kind == SWAP:
        if not _is_int(value) or value < 1:
            raise RecordError("'swap' must be a whole number >= 1", path + (SWAP,))
        return Turn(SWAP, turn, count=value, rack=rack)
    path = path + (kind,)
    if not isinstance(value, list):
        raise RecordError("'%s' must be a list of [square, face] pairs" % kind, path)
    for k in range(len(value)):
        _check_pair(value[k], path + (k,), width, height)
    try:
        move = Move.from_pairs(value, width, height)
    except (SquareError, FaceError) as exc:
        raise RecordError(str(exc), path)
    return Turn(kind, turn, move=move, rack=rack)


def _check_pair(pair, path, width, height):
    if not isinstance(pair, list) or len(pair) != 2:
        raise RecordError("a placement is [square, face]", path)
    try:
        squares.parse(pair[0], width, height)
    except SquareError as exc:
        raise RecordError(str(exc), path + (0,))
    try:
        ch = faces.parse(pair[1])[0]
    except FaceError as exc:
        raise RecordError(str(exc), path + (1,))
    if ch == faces.JOKER:
        raise RecordError("a joker on the board says what it stands for (?7)", path + (1,))


def _read_end(end, players):
    if not isinstance(end, dict) or not isinstance(end.get("racks"), list):
        raise RecordError("'end' must be an object with a 'racks' list", ("end",))
    racks = end["racks"]
    if len(racks) != players:
        raise RecordError("'end.racks' needs one rack per player", ("end", "racks"))
    return [_read_rack(racks[p], ("end", "racks", p)) for p in range(players)]


def _read_rack(rack, path):
    """A rack's faces as record texts (`"×"`, `"?"`); RecordError if it is no such list."""
    if not isinstance(rack, list):
        raise RecordError("a rack is a list of faces", path)
    out = []
    for k in range(len(rack)):
        try:
            ch, joker = faces.parse(rack[k])
        except FaceError as exc:
            raise RecordError(str(exc), path + (k,))
        if joker and ch != faces.JOKER:
            raise RecordError("a joker on a rack is a bare '?'", path + (k,))
        out.append(faces.text(ch, joker))
    return out


# ----- replay ----------------------------------------------------------------------------


def replay(record, profile):
    """Output objects for each turn, then the final line; RecordError if it cannot start."""
    return _lines(start(record, profile), record)


def start(record, profile):
    """The record's game before its first turn; RecordError if it cannot start."""
    if record.game != profile.game:
        raise RecordError(
            "the record is %s but the profile is %s" % (record.game, profile.game), ("game",)
        )
    try:
        return Game(profile, record.players, record.options, first=record.first)
    except OptionError as exc:
        raise RecordError(str(exc), _option_path(record, profile))


def _option_path(record, profile):
    """Where a Game refused the record's setup: the first bad option, or players."""
    for key in record.options:
        try:
            ruleset_for(profile, {key: record.options[key]})
        except OptionError as exc:
            return ("options", exc.option or key)
    if not profile.min_players <= record.players <= profile.max_players:
        return ("players",)
    return ("game",)


def _lines(game, record):
    for n in range(len(record.turns)):
        yield turn_line(game, n + 1, record.turns[n])
    yield _final_line(game, record.end_racks)


def turn_line(game, number, turn):
    """Play record turn `turn` (its 1-based `number`) on `game`; returns its output object."""
    player = game.to_move
    runs = []
    reasons = []
    score = 0
    if game.over:
        reasons = [V.Reason(V.GAME_OVER)]
    elif turn.kind in (PLACE, REPLACE):
        play = game.play if turn.kind == PLACE else game.replace
        verdict = play(turn.move)
        runs, reasons, score = verdict.runs, verdict.reasons, verdict.score
    elif turn.kind == SWAP:
        try:
            game.swap(turn.count)
        except GameStateError:
            reasons = [V.Reason(SWAP_NOT_ALLOWED)]
            if game.options["strict"]:
                game.forfeit()
    elif turn.kind == TIMEOUT:
        game.timeout()
    else:
        game.pass_turn()
    line = {
        "turn": number,
        "player": player + 1,
        "legal": not reasons,
        "score": score,
        "totals": game.totals(),
    }
    if reasons:
        line["reasons"] = [r.to_dict() for r in reasons]
    elif turn.kind in (PLACE, REPLACE):
        line["runs"] = [r.to_dict() for r in runs]
    line["action"] = turn.kind
    return line


def _final_line(game, racks):
    warnings = []
    totals = game.totals()
    penalties = [0] * game.players
    bonuses = None
    if racks is not None:
        try:
            penalties = list(game.finish(racks))
            bonuses = game.bonuses
            totals = game.totals()
        except GameStateError as exc:
            # The racks disagree with the tracked rack sizes: charge what they hold anyway.
            warnings.append(str(exc))
            penalties = [game.rack_penalty(r) for r in racks]
            totals = [totals[p] - penalties[p] for p in range(game.players)]
    line = {"final": True, "totals": totals, "penalties": penalties}
    if bonuses is not None and any(bonuses):
        line["bonuses"] = bonuses  # Cal-Q-Able rule 13: the last mover's gain
    if warnings:
        line["warnings"] = warnings
    return line


# ----- write -----------------------------------------------------------------------------


def write(game, turns_meta=None, racks=None, turn_racks=False):
    """A record dict of `game`'s committed turns.

    `turns_meta`, if given, holds one dict (or None) per history entry whose keys are added
    to that turn (timestamps, `rack`, ...). With `turn_racks`, a known-rack game's turns get
    `rack` (the mover's rack before the turn) where `turns_meta` gives none. `end.racks` is
    written from `racks` (faces per player) or, once a known-rack game is finished, from its
    racks.
    """
    width = game.profile.width
    history = game.history
    before = racks_before(game, history) if turn_racks and game.known else None
    turns = []
    for k in range(len(history)):
        kind, _, packed, _, _, undo = history[k]
        meta = turns_meta[k] if turns_meta and k < len(turns_meta) and turns_meta[k] else {}
        if kind in (PLACE, REPLACE):
            turn = {kind: Move.from_bytes(packed, width).pairs()}
        elif kind == SWAP:
            turn = {SWAP: undo if _is_int(undo) else undo[0]}
        else:
            turn = {PASS: True}
            if kind == TIMEOUT:
                turn["timeout"] = True
            elif kind == FORFEIT:
                turn["forfeit"] = True
        for key in meta:
            if key not in turn and key not in (PLACE, PASS, SWAP, REPLACE):
                turn[key] = meta[key]
        if before is not None and "rack" not in turn:
            turn["rack"] = _rack_texts(before[k])
        turns.append(turn)
    data = {
        "game": game.profile.game,
        "players": game.players,
        "options": dict(game.options),
        "profile": game.profile.name,
        "turns": turns,
    }
    if game.first:
        data["first"] = game.first + 1
    if racks is None and game.known and game.penalties is not None:
        racks = [_rack_texts(r) for r in game.racks]
    if racks is not None:
        data["end"] = {"racks": [list(r) for r in racks]}
    return data


def _rack_texts(rack):
    """A known rack (internal faces, `?` a joker) as record face texts."""
    return [faces.text(ch, ch == faces.JOKER) for ch in rack]


def racks_before(game, history=None):
    """Known racks only: the mover's rack (internal faces) before each history entry, rebuilt
    backwards from the racks now. The multiset is exact; the order on the rack is not kept."""
    if not game.known:
        raise GameStateError("only a known-rack game knows its racks")
    if history is None:
        history = game.history
    racks = [list(r) for r in game.racks]
    out = [None] * len(history)  # type: list
    for k in range(len(history) - 1, -1, -1):
        kind, p, packed, _, _, undo = history[k]
        if kind == PLACE:
            rack = racks[p]
            for chip in undo[0]:  # the chips drawn after the move go back to the bag
                rack.remove(chip)
            for _, code in Move.from_bytes(packed, game.profile.width):
                key = chip_key(code)
                if game.rules.from_rack(key):
                    rack.append(key)
        elif kind in (SWAP, REPLACE):
            racks[p] = list(undo[1])  # the rack as it was before
        out[k] = list(racks[p])
    return out
