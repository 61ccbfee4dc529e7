"""What the board says, in the rulebooks' three languages: English, French and Portuguese.

English is here; French and Portuguese are in i18n_fr.py and i18n_pt.py, loaded only when the
`language` setting asks for them (code loaded from .mpy files lives in RAM).

`say(lang, key, *args)` formats one message with `%` placeholders. The words follow the
rulebooks (French "jetons", "sac"; Portuguese "peças", "saco"). A message must fit the
21-character lines of the 128 x 64 display once its arguments are filled in; longer ones
are wrapped by the screen.
"""

_EN = {
    "turn": "%s to play",
    "bag": "Bag %d",
    "points": "Move %d pts",
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
    "no_swap": "Swap needs bag %d+",
    "scored": "%s +%d",
    "bonus": "Bonus turn!",
    "take_back": "Take chips back",
    "time_up": "Time up",
    "lost_turn": "Turn lost",
    "tally": "%s: %d chips left",
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
}

# Reason codes (engine.verdict) in a few words each.
_REASONS_EN = {
    "malformed": "bad calculation",
    "not_integer": "not whole",
    "not_positive": "not above 0",
    "division_by_zero": "÷ by zero",
    "two_multiplications": "two ×",
    "premium_invalid": "premium breaks it",
    "not_in_line": "not in one line",
    "gap": "gap in line",
    "first_move_off_start": "cover the centre",
    "not_connected": "not touching",
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


def say(lang, key, *args):
    """The message `key` in `lang` with `args` filled in. A message and its arguments that
    do not match (a translation's mistake) still give a text, never an exception."""
    text = _tables(lang)[0].get(key) or _EN.get(key) or key
    if not args:
        return text
    try:
        return text % args
    except (TypeError, ValueError):
        return text + " " + " ".join(str(a) for a in args)


def reason(lang, code):
    return _tables(lang)[1].get(code) or _REASONS_EN.get(code) or code
