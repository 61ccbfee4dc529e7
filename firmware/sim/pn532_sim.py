"""Twin of the PN532 reader (I2C, per the PN532 user manual), and the RF field's rules.

`SimPN532` is an I2C device for `SimI2C` (`write(data)`, `read(n)`). Every read starts with
the status byte (bit 0 = ready). A valid command frame is answered with the ACK frame after
`ACK_MS`, and the response frame becomes readable once the command's processing time has
passed on the injected clock (and after the ACK was read). A read of more than the status
byte delivers the pending frame (a shorter read than the frame loses the rest). Host frames
with a bad LCS, DCS or TFI are ignored, as the manual says of frames with errors (the host
sees no ACK), and logged in `errors`. An unknown command or bad parameters get the ACK and
then the error frame. From the host, the ACK frame aborts the command in progress and the
NACK frame asks for the last response again.

The RF field: RFConfiguration CfgItem 0x01 switches it (bit 0), and `rf_on` says whether it
is on; it counts as on from the moment the command completes. Power-up, power loss and
RSTPDN low (`reset`, a pin this twin watches) leave it off. The twin enforces how the board
must use it (hardware/README.md, "Firmware implications"), and records every breach in
`violations`; the InListPassiveTarget concerned then gets the error frame, so the read fails:
  - InListPassiveTarget with the field off (a real PN532 would switch it on and send its
    first request at once, before the tag has powered up);
  - InListPassiveTarget less than SETTLE_MS after the field came on (ISO 14443-3: at least
    5.1 ms of unmodulated field before the first request);
  - a second InListPassiveTarget in the same field-on period: the field was left on between
    reads, hence while the antennas were re-addressed;
  - InListPassiveTarget after the antennas were switched while the field was on (the matrix
    twin, firmware/sim/hc595_sim.py, calls `antenna_switched` at every change and records
    the switch itself).

InListPassiveTarget with a tag in the field answers after `TAG_MS` (+1 ms a cascade level);
without one, after (MxRtyPassiveActivation + 1) tries of `TRY_MS`, and never while it is 0xFF
(the power-on value). Times are estimates, not measurements.

Faults: `powered = False` (every transfer raises OSError(ENODEV); power-up resets the
configuration), `stuck = True` (acknowledged on the bus but never ready; commands still take
effect), `corrupt_next = True` (the next response frame has a bad DCS).
"""

from engine.compat import ticks_add, ticks_diff
from firmware.sim.bus import ENODEV

ACK = b"\x00\x00\xff\x00\xff\x00"
NACK = b"\x00\x00\xff\xff\x00\x00"
ERROR_FRAME = b"\x00\x00\xff\x01\xff\x7f\x81\x00"
FIRMWARE = b"\x32\x01\x06\x07"  # IC PN532, Ver 1.6, Support: ISO14443A/B, ISO18092

ACK_MS = 1
SIMPLE_MS = 2
TAG_MS = 4
TRY_MS = 5
SETTLE_MS = 6  # ISO 14443-3's 5.1 ms of unmodulated field, in whole ticks


def frame(data):
    """A normal information frame from the PN532 carrying `data` (TFI first)."""
    n = len(data)
    return bytes((0, 0, 0xFF, n, -n & 0xFF)) + data + bytes((-sum(data) & 0xFF, 0))


class SimPN532:
    def __init__(self, clock, field, reset=None):
        """`field()` gives the UID of the tag coupled to the antenna, or None; `reset` is the
        RSTPDN pin (low: hard power-down), or None if it is not wired."""
        self.clock = clock
        self.field = field
        self.stuck = False
        self.corrupt_next = False
        self.errors = []
        self.violations = []  # breaches of the RF field's rules (module docstring)
        self.commands = {}
        self.aborts = 0
        self.resets = 0  # times RSTPDN went low
        self._powered = True
        self._held = False  # RSTPDN low
        if reset is not None:
            reset.listeners.append(self._reset_changed)
            self._held = not reset.value()
        self._power_on()

    def attach(self, bus, addr=0x24):
        bus.attach(addr, self)
        return self

    @property
    def powered(self):
        return self._powered

    @powered.setter
    def powered(self, on):
        if on and not self._powered:
            self._power_on()
        self._powered = bool(on)
        if not on:
            self.rf_on = False

    def _reset_changed(self, pin, level):
        if not level:
            self.resets += 1
        self._held = not level
        self._power_on()  # hard power-down, or the reset's end: power-on state either way

    def _alive(self):
        if not self._powered or self._held:
            raise OSError(ENODEV)

    def _power_on(self):
        self.max_retries = (0xFF, 0x01, 0xFF)  # MxRtyATR, MxRtyPSL, MxRtyPassiveActivation
        self.sam_mode = None
        self.rf_on = False
        self._rf_since = 0  # ticks when the field came on
        self._rf_reads = 0  # InListPassiveTargets since the field came on
        self._rf_switched = False  # the antennas changed while the field was on
        self._pending = None  # the frame the host reads next: ACK or a response
        self._ready_at = 0
        self._acking = False
        self._response = None  # sent after the ACK; None = never (endless activation)
        self._response_at = 0
        self._last = None

    def _after(self, ms):
        return ticks_add(self.clock.ticks_ms(), ms)

    def antenna_switched(self, what):
        """The antenna matrix twin says the connected coils changed (`what` says how); returns
        whether the field was on, a breach the matrix records. The next read then fails."""
        if not self.rf_on:
            return False
        self._rf_switched = True
        return True

    def write(self, data):
        self._alive()
        data = bytes(data)
        start = data.find(b"\x00\xff")
        if start < 0 or len(data) < start + 5:
            self.errors.append("no frame: %r" % (data,))
            return
        size, lcs = data[start + 2], data[start + 3]
        if size == 0 and lcs == 0xFF:  # ACK: abort the command in progress
            self.aborts += 1
            self._pending = self._response = None
        elif size == 0xFF and lcs == 0x00:  # NACK: send the last response again
            if self._last is not None:
                self._deliver(self._last, 0, False)
        elif (size + lcs) & 0xFF or size == 0xFF:
            self.errors.append("bad LCS (or extended frame): %r" % (data,))
        elif len(data) < start + 5 + size:
            self.errors.append("short frame: %r" % (data,))
        else:
            body = data[start + 4 : start + 4 + size]
            if (sum(body) + data[start + 4 + size]) & 0xFF:
                self.errors.append("bad DCS: %r" % (data,))
            elif size < 2 or body[0] != 0xD4:
                self.errors.append("bad TFI: %r" % (data,))
            else:
                self._command(body[1], body[2:])

    def _deliver(self, frame_, ms, acking):
        self._pending = frame_
        self._ready_at = self._after(ms)
        self._acking = acking

    def _command(self, code, params):
        self.commands[code] = self.commands.get(code, 0) + 1
        self._deliver(ACK, ACK_MS, True)  # a new command aborts the one in progress
        data, ms = self._execute(code, params)
        if data is None:
            self._response = ERROR_FRAME if ms >= 0 else None
            ms = max(ms, SIMPLE_MS)
        else:
            self._response = frame(bytes((0xD5, code + 1)) + data)
        self._response_at = self._after(max(ms, ACK_MS))

    def _execute(self, code, params):
        """(response data after the code, ms); data None: error frame, or never if ms < 0."""
        n = len(params)
        if code == 0x02 and n == 0:
            return FIRMWARE, SIMPLE_MS
        if code == 0x14 and 1 <= n <= 3 and 1 <= params[0] <= 4:
            self.sam_mode = params[0]
            return b"", SIMPLE_MS
        if code == 0x32 and n >= 1:
            if params[0] == 0x05 and n == 4:
                self.max_retries = (params[1], params[2], params[3])
            elif params[0] == 0x01 and n == 2:
                self._set_field(params[1] & 1)
            return b"", SIMPLE_MS
        if code == 0x4A and n == 2 and params[0] in (1, 2) and params[1] == 0x00:
            problem = self._field_problem()
            if problem is not None:
                self.violations.append(problem)
                return None, SIMPLE_MS
            return self._activate()
        return None, SIMPLE_MS

    def _set_field(self, on):
        if on and not self.rf_on:
            self._rf_since = self._after(SIMPLE_MS)  # on once the command has completed
            self._rf_reads = 0
            self._rf_switched = False
        self.rf_on = bool(on)

    def _field_problem(self):
        """Why an InListPassiveTarget now breaks the field's rules, or None."""
        if not self.rf_on:
            return "InListPassiveTarget with the RF field off"
        self._rf_reads += 1
        if self._rf_reads > 1:
            return "InListPassiveTarget with the field left on since the last read"
        if self._rf_switched:
            return "InListPassiveTarget after an antenna switch under RF"
        settled = ticks_diff(self.clock.ticks_ms(), self._rf_since)
        if settled < SETTLE_MS:
            return "InListPassiveTarget %d ms after the field came on (5.1 wanted)" % settled
        return None

    def _activate(self):
        uid = self.field()
        if uid is not None:
            uid = bytes(uid)
            atqa_sak = b"\x00\x04\x08" if len(uid) == 4 else b"\x00\x44\x00"
            target = b"\x01\x01" + atqa_sak + bytes((len(uid),)) + uid
            return target, TAG_MS + (len(uid) > 4) + (len(uid) > 7)
        retries = self.max_retries[2]
        if retries == 0xFF:
            return None, -1
        return b"\x00", (retries + 1) * TRY_MS

    def read(self, n):
        self._alive()
        pending = self._pending
        now = self.clock.ticks_ms()
        if self.stuck or pending is None or ticks_diff(now, self._ready_at) < 0:
            return bytes(n)
        if n <= 1:
            return b"\x01"[:n]
        if self._acking:
            self._pending = self._response
            self._ready_at = self._response_at
            self._acking = False
            self._response = None
        else:
            self._last = pending
            self._pending = None
            if self.corrupt_next:
                self.corrupt_next = False
                pending = pending[:-2] + bytes((pending[-2] ^ 0x5A, 0))
        out = b"\x01" + pending
        if len(out) < n:
            out += bytes(n - len(out))
        return out[:n]
