"""An in-memory filesystem with the `firmware.fsio` interface, for tests on either runtime.

`fail_writes = True` makes every write raise OSError(ENOSPC), as a full flash would.
"""

ENOENT = 2
ENOSPC = 28


class MemFS:
    def __init__(self):
        self.files = {}
        self.fail_writes = False
        self.writes = 0
        self.remounts = 0

    def read(self, path):
        data = self.files.get(path)
        return None if data is None else bytes(data)

    def write(self, path, data):
        if self.fail_writes:
            raise OSError(ENOSPC)
        self.writes += 1
        self.files[path] = bytes(data)

    def rename(self, old, new):
        if old not in self.files:
            raise OSError(ENOENT)
        self.files[new] = self.files.pop(old)

    def remove(self, path):
        self.files.pop(path, None)

    def size(self, path):
        data = self.files.get(path)
        return None if data is None else len(data)

    def exists(self, path):
        return path in self.files

    def listdir(self, path=""):
        """The names directly in folder `path`, as os.listdir gives them."""
        prefix = path + "/" if path else ""
        names = set()
        for name in self.files:
            if name.startswith(prefix):
                names.add(name[len(prefix) :].split("/")[0])
        if path and not names:
            raise OSError(ENOENT)
        return sorted(names)

    def mkdir(self, path):
        pass  # folders exist while files are in them

    def remount(self):
        """As the board's flash after a failed write (firmware/journal.py)."""
        self.remounts += 1
