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

`write(game, turns_meta=None, racks=None)` gives a record of a game's committed history; an
illegal move under `strict` is written `{"pass": true, "forfeit": true}` and replays as a pass.
"""

from engine import faces, squares
from engine import verdict as V
from engine.errors import FaceError, GameStateError, OptionError, RecordError, SquareError
from engine.game import FORFEIT, PASS, PLACE, REPLACE, SWAP, TIMEOUT, Game
from engine.move import Move
from engine.rules import ruleset_for

GAMES = ("calculissimo", "calqable")
SWAP_NOT_ALLOWED = V.SWAP_NOT_ALLOWED


class Turn:
    """One record turn: `kind` is place, pass, swap or timeout; `data` is the raw object."""

    def __init__(self, kind, data, move=None, count=None):
        self.kind = kind
        self.data = data
        self.move = move
        self.count = count


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
    return Record(game, players, dict(options), profile, out, racks, first - 1, names)


def _read_turn(turn, path, width, height):
    if not isinstance(turn, dict):
        raise RecordError("a turn is an object", path)
    kinds = [k for k in (PLACE, PASS, SWAP, REPLACE) if k in turn]
    if len(kinds) != 1:
        raise RecordError("a turn has exactly one of 'place', 'pass', 'swap', 'replace'", path)
    kind = kinds[0]
    value = turn[kind]
    if kind == PASS:
        timeout = turn.get("timeout", False)
        if value is not True:
            raise RecordError("'pass' must be true", path + (PASS,))
        if not isinstance(timeout, bool):
            raise RecordError("'timeout' must be true or false", path + ("timeout",))
        return Turn(TIMEOUT if timeout else PASS, turn)
    if kind == SWAP:
        if not _is_int(value) or value < 1:
            raise RecordError("'swap' must be a whole number >= 1", path + (SWAP,))
        return Turn(SWAP, turn, count=value)
    path = path + (kind,)
    if not isinstance(value, list):
        raise RecordError("'%s' must be a list of [square, face] pairs" % kind, path)
    for k in range(len(value)):
        _check_pair(value[k], path + (k,), width, height)
    try:
        move = Move.from_pairs(value, width, height)
    except (SquareError, FaceError) as exc:
        raise RecordError(str(exc), path)
    return Turn(kind, turn, move=move)


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
    out = []
    for p in range(players):
        path = ("end", "racks", p)
        if not isinstance(racks[p], list):
            raise RecordError("a rack is a list of faces", path)
        rack = []
        for k in range(len(racks[p])):
            try:
                ch, joker = faces.parse(racks[p][k])
            except FaceError as exc:
                raise RecordError(str(exc), path + (k,))
            if joker and ch != faces.JOKER:
                raise RecordError("a joker on a rack is a bare '?'", path + (k,))
            rack.append(faces.text(ch, joker))
        out.append(rack)
    return out


# ----- replay ----------------------------------------------------------------------------


def replay(record, profile):
    """Output objects for each turn, then the final line; RecordError if it cannot start."""
    if record.game != profile.game:
        raise RecordError(
            "the record is %s but the profile is %s" % (record.game, profile.game), ("game",)
        )
    try:
        game = Game(profile, record.players, record.options, first=record.first)
    except OptionError as exc:
        raise RecordError(str(exc), _option_path(record, profile))
    return _lines(game, record)


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
        yield _turn_line(game, n + 1, record.turns[n])
    yield _final_line(game, record.end_racks)


def _turn_line(game, number, turn):
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


def write(game, turns_meta=None, racks=None):
    """A record dict of `game`'s committed turns.

    `turns_meta`, if given, holds one dict (or None) per history entry whose keys are added
    to that turn (timestamps, ...). `end.racks` is written
    from `racks` (faces per player) or, once a known-rack game is finished, from its racks.
    """
    width = game.profile.width
    turns = []
    for k in range(len(game.history)):
        kind, _, packed, _, _, undo = game.history[k]
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
        racks = [[faces.text(ch, ch == faces.JOKER) for ch in r] for r in game.racks]
    if racks is not None:
        data["end"] = {"racks": [list(r) for r in racks]}
    return data
