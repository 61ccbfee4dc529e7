"""From raw sensors to chip events: presence scans, settling, and NFC identification.

Every `poll` reads the shift-register chain once and debounces it (`presence.Presence`).
A square whose magnet appears is *waiting*: it becomes a placement only after it has stayed
present for `settle_ms`. A chip slid across the board covers each square it crosses only
briefly, so those squares never settle and nothing is reported for them. Only then is the
NFC reader switched to that one square and its tag read, so the reader works only where
presence changed.

Events are tuples, first item the kind:
  (PLACED, square, face)   face text ("7", "×", "?" for a joker), None on a Hall-only board
  (LIFTED, square)         a placed chip's magnet is gone
  (UNKNOWN, square, uid)   a tag the registry does not know (uid in hex)
  (NO_TAG, square)         a magnet but no tag answers: a foreign magnet or a dead tag
  (TAG_ONLY, square)       the magnet went but the tag still answers: the chip stays
  (READER_DOWN, square)    the reader did not answer; the square is read again later
A square given UNKNOWN, NO_TAG or READER_DOWN counts as occupied but unidentified.
"""

PLACED = "placed"
LIFTED = "lifted"
UNKNOWN = "unknown"
NO_TAG = "no_tag"
TAG_ONLY = "tag_only"
READER_DOWN = "reader_down"

from engine.compat import ticks_add, ticks_diff

RETRY_MS = 500  # how soon an unread square is tried again after a reader failure
RECHECK_MS = 100  # how often the squares waiting for a read again are looked at


class Sensing:
    def __init__(
        self,
        chain,
        presence,
        clock,
        settle_ms=300,
        reader=None,
        antenna=None,
        registry=None,
        reader_error=Exception,
        width=15,
    ):
        self.chain = chain
        self.presence = presence
        self.clock = clock
        self.settle_ms = settle_ms
        self.reader = reader
        self.antenna = antenna
        self.registry = registry
        self.reader_error = reader_error  # the exception class the reader raises
        self.width = width  # squares a row, for the antenna multiplexer
        self.waiting = {}  # square -> ticks when its magnet appeared
        self.placed = {}  # square -> face text (None: not identified)
        self.uids = {}  # square -> the UID bytes last read there (enrolment, sensor test)
        self.retry = {}  # square -> ticks of the next read attempt
        self.tag_only = {}  # square -> ticks of the next check that its tag is still there
        self.reader_ok = True
        self.recheck_at = clock.ticks_ms()
        self.events = []

    def poll(self):
        """One scan; returns this scan's events (the list is reused)."""
        events = self.events
        events.clear()
        now = self.clock.ticks_ms()
        for entry in self.presence.scan(self.chain.read()):
            base = (entry >> 16) << 3
            flipped = (entry >> 8) & 0xFF
            for bit in range(8):
                if flipped >> bit & 1:
                    self._changed(base + bit, (entry >> bit) & 1, now)
        if self.waiting:
            self._settle(now)
        if (self.retry or self.tag_only) and ticks_diff(now, self.recheck_at) >= 0:
            self.recheck_at = ticks_add(now, RECHECK_MS)  # look at the due list now and then
            if self.retry:
                self._retry(now)
            if self.tag_only:
                self._check_tags(now)
        return events

    def _changed(self, square, present, now):
        if present:
            self.tag_only.pop(square, None)  # the magnet is back: settle and read it again
            self.waiting[square] = now
        elif square in self.waiting:
            del self.waiting[square]  # slid across or dropped again: never counted
        elif square in self.placed:
            self._gone(square)

    def _settle(self, now):
        done = None
        for square, since in self.waiting.items():
            if ticks_diff(now, since) >= self.settle_ms:
                if done is None:
                    done = []
                done.append(square)
        if done:
            for square in done:
                del self.waiting[square]
                self._identify(square, now)

    def _retry(self, now):
        for square in list(self.retry):
            if ticks_diff(now, self.retry[square]) >= 0:
                del self.retry[square]
                self._identify(square, now, again=True)
                if square in self.retry:
                    break  # the reader failed again: the others wait for the next pass

    def _read(self, square):
        """The tag UID at `square`, None if no tag; raises the reader's error."""
        self.antenna.select(square, self.width)
        try:
            return self.reader.read_uid()
        finally:
            self.antenna.off()

    def _identify(self, square, now, again=False):
        events = self.events
        if self.reader is None:
            self._placed(square, None)
            return
        try:
            uid = self._read(square)
        except self.reader_error:
            self.retry[square] = ticks_add(now, RETRY_MS)
            if self.reader_ok or not again:
                events.append((READER_DOWN, square))
            self.reader_ok = False
            self.placed.setdefault(square, None)
            return
        self.reader_ok = True
        if uid is None:
            self.uids.pop(square, None)
            events.append((NO_TAG, square))
            self.placed[square] = None
            return
        self.uids[square] = uid
        face = self.registry.face(uid) if self.registry is not None else None
        if face is None:
            from firmware.registry import uid_hex

            events.append((UNKNOWN, square, uid_hex(uid)))
            self.placed[square] = None
            return
        self._placed(square, face)

    def _placed(self, square, face):
        old = self.placed.get(square, 0)
        if old == face and face is not None:
            return  # the same chip settled again (TAG_ONLY chip whose magnet came back)
        if old != 0 and old is not None:
            self.events.append((LIFTED, square))
        self.placed[square] = face
        self.events.append((PLACED, square, face))

    def _gone(self, square):
        self.retry.pop(square, None)
        if self.reader is not None and self.placed[square] is not None and self.reader_ok:
            try:
                uid = self._read(square)
            except self.reader_error:
                uid = None
            if uid is not None:
                self.events.append((TAG_ONLY, square))
                self.tag_only[square] = ticks_add(self.clock.ticks_ms(), RETRY_MS)
                return
        del self.placed[square]
        self.uids.pop(square, None)
        self.events.append((LIFTED, square))

    def _check_tags(self, now):
        """A chip whose tag outlived its magnet: once the tag stops answering, it is lifted.

        A chip lifted slowly leaves the Hall switch before the reader loses its tag; without
        this check it would stay on the board for ever."""
        for square in list(self.tag_only):
            if ticks_diff(now, self.tag_only[square]) < 0:
                continue
            try:
                uid = self._read(square)
            except self.reader_error:
                uid = b""  # no answer either way: ask again later
            if uid is None:
                del self.tag_only[square]
                del self.placed[square]
                self.uids.pop(square, None)
                self.events.append((LIFTED, square))
            else:
                self.tag_only[square] = ticks_add(now, RETRY_MS)
