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
  (STILL, square)          a TAG_ONLY chip's magnet is back, and its tag is the same
  (READER_DOWN, square)    the reader did not answer; the square is read again later
  (TWICE, square, other)   the tag read here is the one already read on square `other`
A square given UNKNOWN, NO_TAG, TWICE or READER_DOWN counts as occupied but unidentified,
and is read again until it is identified or lifted: every RETRY_MS after a reader failure,
every REREAD_MS otherwise (a chip nudged onto its antenna, a read corrupted by noise). An
unidentified square whose read fails again, or gives the same answer, sends no new event.
"""

PLACED = "placed"
LIFTED = "lifted"
UNKNOWN = "unknown"
NO_TAG = "no_tag"
TAG_ONLY = "tag_only"
STILL = "still"
READER_DOWN = "reader_down"
TWICE = "twice"

from engine.compat import ticks_add, ticks_diff

RETRY_MS = 500  # how soon an unread square is tried again after a reader failure
REREAD_MS = 1000  # how soon a square read as no tag, unknown or seen twice is read again
RECHECK_MS = 100  # how often the squares waiting for a read again are looked at
READS_PER_SCAN = 2  # tag reads a scan may start (about 20 ms each): the rest wait their turn


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
        self.width = width  # squares a row, for the antenna matrix
        self.waiting = {}  # square -> ticks when its magnet appeared
        self.arrivals = 0  # magnets that have appeared so far (the app makes room for each)
        self.placed = {}  # square -> face text (None: not identified)
        self.uids = {}  # square -> the UID bytes last read there (enrolment, sensor test)
        self.retry = {}  # square -> ticks of the next read attempt
        self.why = {}  # unidentified square -> its last event (UNKNOWN, NO_TAG, ...)
        self.tag_only = {}  # square -> ticks of the next check that its tag is still there
        self.reader_ok = True
        self.failed = False  # a read failed in this scan
        self.budget = READS_PER_SCAN  # reads this scan may still start (_settle, _retry)
        self.recheck_at = clock.ticks_ms()
        self.events = []

    def poll(self):
        """One scan; returns this scan's events (the list is reused)."""
        events = self.events
        events.clear()
        self.failed = False
        self.budget = READS_PER_SCAN
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

    def settles_by(self, when):
        """Whether a magnet waiting now will have stayed settle_ms by ticks `when`: its chip
        is then read, and the move judged, in the scan at that time."""
        for since in self.waiting.values():
            if ticks_diff(when, since) >= self.settle_ms:
                return True
        return False

    def _changed(self, square, present, now):
        if present:
            self.tag_only.pop(square, None)  # the magnet is back: settle and read it again
            self.waiting[square] = now
            self.arrivals += 1
            return
        self.waiting.pop(square, None)  # slid across or dropped again: never counted
        if square in self.placed:  # a chip that was there (its magnet back, not yet settled)
            self._gone(square)

    def _settle(self, now):
        """Identify the squares whose magnet stayed settle_ms, as many as this scan's read
        budget allows (oldest first): after a power-up every chip on the board settles at
        once, and reading them all in one scan would leave the buttons unread for long."""
        done = None
        for square, since in self.waiting.items():
            if ticks_diff(now, since) >= self.settle_ms:
                if done is None:
                    done = []
                done.append(square)
        if done:
            for square in done:
                if self.reader is not None and self.budget <= 0:
                    break  # the next scans read the others
                del self.waiting[square]
                self._identify(square, now)

    def _retry(self, now):
        for square in list(self.retry):
            if self.budget <= 0:
                break
            if ticks_diff(now, self.retry[square]) >= 0:
                del self.retry[square]
                self._identify(square, now)
                if not self.reader_ok:
                    break  # the reader failed again: the others wait for the next pass

    def _read(self, square):
        """The tag UID at `square`, None if no tag; raises the reader's error. Once a read
        has failed in a scan, the others of that scan fail at once: a silent reader costs
        one timeout a scan, not one per square waiting (the buttons are read between). The
        antennas switch only with the RF field off: after a failed read the reader must
        confirm it off first (drivers/antenna.py refuses a switch while it may be on)."""
        if self.failed:
            raise self.reader_error("the reader failed in this scan")
        self.budget -= 1
        reader = self.reader
        try:
            if reader.field_on:  # a failed read left the field's state unknown
                reader.rf_field(False)  # the antennas never switch under RF
            self.antenna.select(square, self.width)
            return reader.read_uid()
        except self.reader_error:
            self.failed = True
            raise
        finally:
            self.antenna.off()

    def _identify(self, square, now):
        if self.reader is None:
            self._placed(square, None)
            return
        try:
            uid = self._read(square)
        except self.reader_error:
            self.reader_ok = False
            self._unidentified(square, (READER_DOWN, square), ticks_add(now, RETRY_MS))
            return
        self.reader_ok = True
        again = ticks_add(now, REREAD_MS)
        if uid is None:
            self.uids.pop(square, None)
            self._unidentified(square, (NO_TAG, square), again)
            return
        other = self._where(uid, square)
        if other is not None:
            if other in self.tag_only:  # its magnet had gone: the chip was moved here
                self._forget(other)
            else:
                self._unidentified(square, (TWICE, square, other), again)
                return
        self.uids[square] = uid
        face = self.registry.face(uid) if self.registry is not None else None
        if face is None:
            from firmware.registry import uid_hex

            self._unidentified(square, (UNKNOWN, square, uid_hex(uid)), again)
            return
        self._placed(square, face)

    def _unidentified(self, square, event, retry_at):
        """`square` holds a chip not identified (yet): say why, once, and read it again."""
        self.retry[square] = retry_at
        self.placed[square] = None
        if self.why.get(square) != event:
            self.why[square] = event
            self.events.append(event)

    def _where(self, uid, square):
        """The other square whose chip has tag `uid`, or None."""
        for other, known in self.uids.items():
            if known == uid and other != square and other in self.placed:
                return other
        return None

    def _placed(self, square, face):
        old = self.placed.get(square, 0)
        self.why.pop(square, None)
        self.retry.pop(square, None)  # identified: no read again
        if old == face and face is not None:
            self.events.append((STILL, square))  # the same chip settled again
            return
        if old != 0 and old is not None:
            self.events.append((LIFTED, square))
        self.placed[square] = face
        self.events.append((PLACED, square, face))

    def identified(self, square, face):
        """The chip at `square` is now known as `face` (enrolled just now): no read again."""
        self.placed[square] = face
        self.retry.pop(square, None)
        self.why.pop(square, None)

    def _gone(self, square):
        if self.reader is not None and self.placed[square] is not None and self.reader_ok:
            try:
                uid = self._read(square)
            except self.reader_error:
                uid = None
            if uid is not None:
                self.events.append((TAG_ONLY, square))
                self.tag_only[square] = ticks_add(self.clock.ticks_ms(), RETRY_MS)
                return
        self._forget(square)

    def _forget(self, square):
        """The chip at `square` is gone."""
        del self.placed[square]
        self.tag_only.pop(square, None)
        self.retry.pop(square, None)
        self.why.pop(square, None)
        self.uids.pop(square, None)
        self.events.append((LIFTED, square))

    def _check_tags(self, now):
        """A chip whose tag outlived its magnet: once the tag stops answering, it is lifted.

        A chip lifted slowly leaves the Hall switch before the reader loses its tag; without
        this check it would stay on the board for ever."""
        for square in list(self.tag_only):
            if self.budget <= 0:
                break
            if ticks_diff(now, self.tag_only[square]) < 0:
                continue
            try:
                uid = self._read(square)
            except self.reader_error:
                uid = b""  # no answer either way: ask again later
            if uid is None:
                self._forget(square)
            else:
                self.tag_only[square] = ticks_add(now, RETRY_MS)
