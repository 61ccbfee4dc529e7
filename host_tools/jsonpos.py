"""Line numbers of the values in a JSON text, by path (keys and list indices).

`value_lines(text)` walks valid JSON (as `json.loads` accepted it) and maps every value's
path, a tuple like `("turns", 3, "place", 1, 0)`, to the 1-based line where it starts.
`line_of(text, path)` gives that line, or the line of the nearest ancestor found. Both
walk with a stack of their own, so a text nested as deep as a parser takes never overflows
Python's; `deepest_line(text)` points at a text nested deeper than that.
"""

_WS = " \t\n\r"


class _Scanner:
    def __init__(self, text, target=None):
        self.text = text
        self.target = target  # keep only this path's line and its ancestors' (None: all)
        self.pos = 0
        self.line = 1
        self.lines = {}

    def skip(self):
        text = self.text
        while self.pos < len(text) and text[self.pos] in _WS:
            if text[self.pos] == "\n":
                self.line += 1
            self.pos += 1

    def scalar(self):
        text = self.text
        while self.pos < len(text) and text[self.pos] not in _WS + ",]}":
            self.pos += 1

    def walk(self):
        """Map the values' paths to their lines, with a stack of its own instead of Python's,
        so a text nested thousands deep costs no recursion."""
        text = self.text
        target = self.target
        stack = []  # one [path, next index (None in an object)] per open container
        path = ()
        while True:
            self.skip()
            if target is None or target[: len(path)] == path:
                self.lines[path] = self.line
            ch = text[self.pos]
            if ch in "{[":
                self.pos += 1
                stack.append([path, 0 if ch == "[" else None])
            elif ch == '"':
                self.string()
            else:
                self.scalar()
            while stack:  # find the next value's path, closing the containers that end
                self.skip()
                if text[self.pos] in "]}":
                    self.pos += 1
                    stack.pop()
                    continue
                if text[self.pos] == ",":
                    self.pos += 1
                    self.skip()
                top = stack[-1]
                if top[1] is None:
                    key = self.string()
                    self.skip()
                    self.pos += 1  # the colon
                    path = top[0] + (key,)
                else:
                    path = top[0] + (top[1],)
                    top[1] += 1
                break
            else:
                return

    def string(self):
        """Consume a string literal and return its decoded value."""
        import json

        start = self.pos
        self.pos += 1
        while self.text[self.pos] != '"':
            self.pos += 2 if self.text[self.pos] == "\\" else 1
        self.pos += 1
        return json.loads(self.text[start : self.pos])


def deepest_line(text):
    """The line where the JSON text is first nested deepest (brackets within strings aside)."""
    depth = deepest = 0
    line = where = 1
    in_string = escaped = False
    for ch in text:
        if ch == "\n":
            line += 1
        elif in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest, where = depth, line
        elif ch in "]}":
            depth -= 1
    return where


def value_lines(text):
    """{path: line} for every value in the JSON text (which must be valid JSON)."""
    scanner = _Scanner(text)
    scanner.walk()
    return scanner.lines


def line_of(text, path):
    """The line where the value at `path` starts, else where its nearest ancestor does."""
    path = tuple(path)
    scanner = _Scanner(text, path)
    try:
        scanner.walk()
    except (IndexError, ValueError):
        return 1
    lines = scanner.lines
    while path and path not in lines:
        path = path[:-1]
    return lines.get(path, 1)
