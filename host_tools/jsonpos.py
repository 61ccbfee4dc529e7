"""Line numbers of the values in a JSON text, by path (keys and list indices).

`value_lines(text)` walks valid JSON (as `json.loads` accepted it) and maps every value's
path, a tuple like `("turns", 3, "place", 1, 0)`, to the 1-based line where it starts.
`line_of(text, path)` gives that line, or the line of the nearest ancestor found.
"""

_WS = " \t\n\r"


class _Scanner:
    def __init__(self, text):
        self.text = text
        self.pos = 0
        self.line = 1
        self.lines = {}

    def skip(self):
        text = self.text
        while self.pos < len(text) and text[self.pos] in _WS:
            if text[self.pos] == "\n":
                self.line += 1
            self.pos += 1

    def value(self, path):
        self.skip()
        self.lines[path] = self.line
        ch = self.text[self.pos]
        if ch == "{":
            self.container(path, "}", True)
        elif ch == "[":
            self.container(path, "]", False)
        elif ch == '"':
            self.string()
        else:
            while self.pos < len(self.text) and self.text[self.pos] not in _WS + ",]}":
                self.pos += 1

    def container(self, path, close, is_object):
        self.pos += 1
        index = 0
        while True:
            self.skip()
            if self.text[self.pos] == close:
                self.pos += 1
                return
            if self.text[self.pos] == ",":
                self.pos += 1
                self.skip()
            if is_object:
                key = self.string()
                self.skip()
                self.pos += 1  # the colon
                self.value(path + (key,))
            else:
                self.value(path + (index,))
                index += 1

    def string(self):
        """Consume a string literal and return its decoded value."""
        import json

        start = self.pos
        self.pos += 1
        while self.text[self.pos] != '"':
            self.pos += 2 if self.text[self.pos] == "\\" else 1
        self.pos += 1
        return json.loads(self.text[start : self.pos])


def value_lines(text):
    """{path: line} for every value in the JSON text (which must be valid JSON)."""
    scanner = _Scanner(text)
    scanner.value(())
    return scanner.lines


def line_of(text, path):
    """The line where the value at `path` starts, else where its nearest ancestor does."""
    try:
        lines = value_lines(text)
    except (IndexError, ValueError):
        return 1
    path = tuple(path)
    while path and path not in lines:
        path = path[:-1]
    return lines.get(path, 1)
