"""What the board says, in the rulebooks' three languages: English, French and Portuguese.

English is here; French and Portuguese are in i18n_fr.py and i18n_pt.py, loaded only when the
`language` setting asks for them (code loaded from .mpy files lives in RAM).

`say(lang, key, *args)` formats one message with `%` placeholders. The words follow the
rulebooks (French "jetons", "sac"; Portuguese "peças", "saco"). A message must fit the
21-character lines of the 128 x 64 display once its arguments are filled in; longer ones
are wrapped by the screen (firmware/screen.py: at spaces, three lines at most).

Plurals: a message whose last argument is a count has its singular form under the key with
"_1" added ("swap_n_1": "Swap %d chip"), used when the count is singular in that language:
1 in English and Portuguese, 0 and 1 in French.

The reason texts (`reason`, `reasons`) are the one wording of why a move is not legal: the
display shows them after "Illegal:" and the PC's tools and the web page show them in their
logs ("Ana: cover the centre"), so each reads well after a colon, on its own.
"""

_EN = {
    "turn": "%s to play",
    "ok_plays": "OK plays it",
    "lay_hint": "Lay chips, then OK",
    "bag": "Bag %d",
    "points": "Move %d pts",
    "points_1": "Move %d pt",
    "illegal": "Illegal: %s",
    "put_back": "Put back %s",
    "wrong_chip": "%s holds %s",
    "unknown": "Unknown chip %s",
    "no_tag": "No chip tag at %s",
    "reader_down": "NFC reader silent",
    "tag_only": "%s: no magnet?",
    "twice": "%s: same tag as %s",
    "joker": "Joker %s = %s ?",
    "face": "Chip %s = %s ?",
    "menu": "Menu",
    "pass": "Pass",
    "swap": "Swap",
    "rule5": "Rule 5: new left side",
    "rule5_hint": "Lift all before =",
    "lift_left": "Lift all before =",
    "end": "End game",
    "back": "Back",
    "swap_n": "Swap %d chips",
    "swap_n_1": "Swap %d chip",
    "no_swap": "Swap needs bag %d+",
    "scored": "%s +%d",
    "bonus": "Bonus turn!",
    "take_back": "Take chips back",
    "time_up": "Time up",
    "lost_turn": "Turn lost",
    "tally": "%s: %d chips left",
    "tally_1": "%s: %d chip left",
    "tally_ok": "OK enters %s",
    "tally_hint": "Lay them or enter",
    "tally_done": "All counted: OK",
    "no_chip": "No %s chip left",
    "clear_board": "Clear the board",
    "fault": "Error: game reloaded",
    "saved_bad": "Saved game damaged",
    "other_game": "Saved %s game kept",
    "done": "Done",
    "enrol_title": "Enrol chips",
    "lay_a": "Lay a %s",
    "wait_pc": "Waiting for the PC",
    "enrolled": "Enrolled: %d",
    "diag_title": "Sensor test",
    "magnets": "Magnets: %d",
    "chips_known": "Chips known: %d",
    "back_stop": "BACK: stop",
    "game_over": "Game over",
    "wins": "%s wins",
    "draw": "Draw",
    "resume": "Resume game?",
    "resume_hint": "OK yes, Back: new",
    "new_game": "New game",
    "save_failed": "Could not save!",
    "settings": "Settings error",
    "leds_ma": "LEDs off: %d<%d mA",  # current_ma < what the board needs with its LEDs dark
    "leds_vsys": "LEDs off: VSYS %d.%d V",  # the supply sags below what the LEDs need
    "display": "%s",
    # the board's seats and hints (firmware/modes_computer.py)
    "hint": "Hint",
    "show_rack": "Lay %s's chips on free squares, OK (%d)",
    "show_hint": "Hint: lay %s's chips on free squares, OK (%d)",
    "rack_unread": "Rack needs NFC chips",
    "rack_count": "Show 1 to %d chips",
    "rack_count_1": "Show 1 chip",
    "thinking": "Thinking %d%%",
    "thinking_hint": "Thinking %d%%, best %d pts: OK shows it",
    "thinking_hint_1": "Thinking %d%%, best %d pt: OK shows it",
    "thinking_turn": "Thinking %d%%: OK plays now",
    "take_off": "Take the chip off %s",
    "lay_this": "Lay %s on %s",
    "board_ok": "Laid: OK plays %d pts",
    "board_ok_1": "Laid: OK plays %d pt",
    "no_hint": "No move found",
    "no_hint_room": "Out of memory: no hint",
    "board_short": "Board out of memory",
    "hint_is": "Hint %d pts: %s",
    "not_my_move": "Not the board's move",
    "lift_shown": "Lift the chip on %s",
    "board_swaps": "Board swaps %s",
    "board_passes": "Board passes",
}

# Reason codes (engine.verdict, engine.equation, engine.calqable) in a few words each.
_REASONS_EN = {
    "malformed": "bad calculation",
    "not_integer": "not a whole number",
    "not_positive": "not above zero",
    "division_by_zero": "÷ by zero",
    "two_multiplications": "two × in one run",
    "premium_invalid": "premium breaks it",
    "not_in_line": "not in one line",
    "gap": "gap in the line",
    "first_move_off_start": "cover the centre",
    "not_connected": "not touching a chip",
    "no_calculation": "no calculation",
    "joker_as_multiplication": "joker can't be ×",
    "too_many_chips": "too many chips",
    "chip_unavailable": "no such chip left",
    "no_equals": "no =",
    "two_equals": "two =",
    "leading_zero": "leading 0",
    "not_equal": "sides differ",
    "replace_not_before_equals": "not before =",
    "replace_crossed": "tile crosses",
    "not_crossing": "cross an equation",
    "no_chips": "no chips laid",
    "off_board": "off the board",
    "duplicate_square": "two on one square",
    "occupied": "square taken",
    "bad_face": "chip not in game",
    "not_on_rack": "not on the rack",
    "game_over": "the game is over",
    "swap_not_allowed": "swap not allowed",
}

_loaded = {"en": (_EN, _REASONS_EN)}


def _tables(lang):
    """(messages, reasons) for `lang`; another language's module is imported the first time
    it is asked for (firmware/i18n_fr.py, i18n_pt.py), an unknown one falls back to English."""
    tables = _loaded.get(lang)
    if tables is None:
        if lang == "fr":
            from firmware import i18n_fr as mod
        elif lang == "pt":
            from firmware import i18n_pt as mod  # type: ignore[no-redef]
        else:
            return _loaded["en"]
        tables = _loaded[lang] = (mod.MESSAGES, mod.REASONS)
    return tables


def _singular(lang, n):
    """Whether the count `n` takes the singular in `lang`."""
    return n == 1 or (n == 0 and lang == "fr")


def say(lang, key, *args):
    """The message `key` in `lang` with `args` filled in, in the singular when its last
    argument is a count that asks for it. A message and its arguments that do not match (a
    translation's mistake) still give a text, never an exception."""
    table = _tables(lang)[0]
    text = None
    if args and isinstance(args[-1], int) and _singular(lang, args[-1]):
        text = table.get(key + "_1")
    text = text or table.get(key) or _EN.get(key) or key
    if not args:
        return text
    try:
        return text % args
    except (TypeError, ValueError):
        return text + " " + " ".join(str(a) for a in args)


def reason(lang, code):
    return _tables(lang)[1].get(code) or _REASONS_EN.get(code) or code


def reasons(lang):
    """Every reason code's text in `lang` (English where it has none), for the PC's tools."""
    out = {}
    for code in _REASONS_EN:
        out[code] = reason(lang, code)
    return out
