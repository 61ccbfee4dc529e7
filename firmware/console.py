"""Commands from the PC over USB serial: one JSON object a line, answered by a `reply` event.

The board reads what the PC sent with the backend's `read()` (bytes, b"" when nothing came),
collects lines in a buffer allocated once, and parses each whole line. A command is
  {"cmd": "get", "id": 7, "path": "settings.json"}
and its answer, in the event stream, is
  {"t": ..., "ev": "reply", "id": 7, "ok": true, ...the command's keys}
or `"ok": false, "error": "..."`. `id` is the PC's, echoed so it can match replies to
requests. Lines that are not JSON objects, or longer than MAX_LINE, get an error reply
(id null) and are otherwise ignored: stray bytes, or brackets nested deeper than the JSON
parser goes, never stop the board. The commands are in firmware/commands.py and
firmware/README.md.
"""

import json

MAX_LINE = 1024  # longer files come in parts (commands.py `put`); a longer line is dropped


class Console:
    def __init__(self, read):
        self.read = read
        self.buf = bytearray(MAX_LINE)
        self.n = 0
        self.overflow = False  # dropping the rest of a line that grew too long

    def poll(self):
        """The messages that arrived: dicts, or error strings for lines that were not."""
        data = self.read()
        if not data:
            return ()
        out = []
        buf = self.buf
        for b in data:
            if b == 10 or b == 13:  # a line ends (\n or \r: terminals send either)
                if self.overflow:
                    out.append("line longer than %d bytes" % MAX_LINE)
                elif self.n:
                    # one copy of the line: json.loads takes a bytearray on both runtimes
                    # (on the Pico, with the heap low, a second copy was one too many)
                    out.append(self._parse(buf[: self.n]))
                self.n = 0
                self.overflow = False
            elif self.n < MAX_LINE:
                buf[self.n] = b
                self.n += 1
            else:
                self.overflow = True
        return out

    def _parse(self, line):
        try:
            msg = json.loads(line)
        except ValueError:
            return "not a JSON command"
        except RuntimeError:  # nested past the parser's depth (CPython's RecursionError)
            return "command nested too deeply"
        if not isinstance(msg, dict) or not isinstance(msg.get("cmd"), str):
            return 'a command is a JSON object with "cmd"'
        return msg
