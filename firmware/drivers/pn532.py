"""NXP PN532 NFC reader over I2C, written from the PN532 user manual (UM0701-02).

Every exchange is: the host writes a normal information frame
`00 00 FF LEN LCS D4 cmd params DCS 00`, polls the I2C status byte (the first byte of every
read; bit 0 = ready) until the reader is ready, reads the 6-byte ACK frame, polls again and
reads the response frame `00 00 FF LEN LCS D5 cmd+1 data DCS 00`. A response of known size
(RFConfiguration's) is read to that size, the others to 64 bytes. Time comes only from the
injected clock (`ticks_ms()`, `sleep_ms(ms)`), and each exchange has one deadline.

The RF field is on only while a tag is read (hardware/README.md, "Firmware implications"):
`read_uid` switches it on (RFConfiguration CfgItem 0x01), waits `settle_ms` (ISO 14443-3
wants at least 5.1 ms of unmodulated field before the first request), lists one passive
target, and switches it off again whatever happened. `field_on` is True from the moment the
field may be on until the reader has confirmed it off: the antenna matrix
(drivers/antenna.py) refuses to switch while it holds. It starts True (the reader's state is
unknown until `begin` has switched the field off).

Any failure raises `ReaderError`. The driver then sends an ACK frame, which the manual lets
the host use to abort the command in progress, tries to switch the field off, and repeats the
RF set-up before the next read, so the next call works once the reader answers again (after
a brown-out, say). If the field cannot be confirmed off and the reset line (RSTPDN) is wired,
the reader is held in hard power-down, where the field is off for certain, until the next
read wakes it.

This driver imports nothing from the rest of the firmware; it runs on MicroPython and CPython.
"""

try:
    from micropython import const
except ImportError:

    def const(value):  # type: ignore[misc]  # CPython stand-in; the stub's is generic
        return value


try:
    from time import ticks_diff
except ImportError:

    def ticks_diff(end, start):  # type: ignore[no-redef]  # CPython: MicroPython's 30-bit ticks
        return ((end - start + 0x20000000) & 0x3FFFFFFF) - 0x20000000


ADDR = const(0x24)
PASSIVE_RETRIES = const(0)  # MxRtyPassiveActivation: one try (the Hall switch saw a chip)
SETTLE_MS = const(6)  # unmodulated field before the first request: ISO 14443-3 wants 5.1 ms
CMD_TIMEOUT_MS = const(30)  # the manual expects an ACK within 15 ms
READ_TIMEOUT_MS = const(60)

_HOST = const(0xD4)
_CHIP = const(0xD5)
_GET_FIRMWARE_VERSION = const(0x02)
_SAM_CONFIGURATION = const(0x14)
_RF_CONFIGURATION = const(0x32)
_IN_LIST_PASSIVE_TARGET = const(0x4A)
_IC_PN532 = const(0x32)
_TX_MAX = const(24)  # longest command frame this driver sends
_RX_MAX = const(64)  # response frame bytes read, after the status byte
_RX_SHORT = const(11)  # RFConfiguration's response: 00 00 FF 02 FE D5 33 DCS 00, and slack
_WAKE_TRIES = const(3)
_WAKE_MS = const(10)  # after RSTPDN goes high, before the first frame
_POLL_MS = const(1)

_ACK = b"\x00\x00\xff\x00\xff\x00"
_SAM_NORMAL = b"\x01\x14\x01"  # normal mode (no SAM), timeout 1 s (unused), P70_IRQ on
_ONE_TYPE_A = b"\x01\x00"  # MaxTg 1, BrTy 106 kbps type A
_FIELD_ON = b"\x01\x01"  # CfgItem 0x01: bit 0 RF field on, bit 1 AutoRFCA off
_FIELD_OFF = b"\x01\x00"


class ReaderError(Exception):
    """The reader did not answer, or answered with something this driver cannot use."""


class PN532:
    def __init__(self, i2c, clock, addr=ADDR, reset=None):
        self._i2c = i2c
        self._clock = clock
        self._addr = addr
        self._reset = reset
        self.passive_retries = PASSIVE_RETRIES
        self.field_on = True  # unknown until the reader confirms it off
        self._configured = False
        self._down = False  # held in hard power-down (RSTPDN low) since a failed field-off
        self._tx = bytearray(_TX_MAX)
        self._txv = memoryview(self._tx)
        self._rx = bytearray(1 + _RX_MAX)
        self._rxv = memoryview(self._rx)
        self._rx_short = self._rxv[: 1 + _RX_SHORT]  # views made once: a read allocates none
        self._rx_ack = self._rxv[:7]
        self._status = bytearray(1)
        self._data = 0  # index in _rx of the first response byte after the response code

    def begin(self):
        """Wake the reader, check it is a PN532, configure it and switch its field off;
        return its firmware version."""
        if self._reset is not None:
            self._reset.value(0)  # RSTPDN low: hard reset
            self._clock.sleep_ms(1)
            self._reset.value(1)
            self._clock.sleep_ms(_WAKE_MS)
            self._down = False
        error = None
        for _ in range(_WAKE_TRIES):  # the first frame may only wake it from power-down
            try:
                version = self.firmware_version()
                break
            except ReaderError as exc:
                error = exc
                self._clock.sleep_ms(2)
        else:
            raise error  # type: ignore[misc]  # not None: every one of the tries failed
        if version[0] != _IC_PN532:
            raise ReaderError("not a PN532: IC 0x%02x" % version[0])
        self._configure(CMD_TIMEOUT_MS)
        self.rf_field(False)
        return version

    def firmware_version(self, timeout_ms=CMD_TIMEOUT_MS):
        """(IC, Ver, Rev, Support) from GetFirmwareVersion; IC is 0x32 for a PN532."""
        n = self._exchange(_GET_FIRMWARE_VERSION, b"", timeout_ms)
        if n != 4:
            raise ReaderError("GetFirmwareVersion: %d data bytes" % n)
        d, rx = self._data, self._rx
        return (rx[d], rx[d + 1], rx[d + 2], rx[d + 3])

    def rf_field(self, on, timeout_ms=CMD_TIMEOUT_MS):
        """Switch the RF field on or off (RFConfiguration, CfgItem 0x01). `field_on` turns
        True before the command goes out and False only once the reader has confirmed."""
        if on:
            self.field_on = True
        self._exchange(_RF_CONFIGURATION, _FIELD_ON if on else _FIELD_OFF, timeout_ms, True)
        if not on:
            self.field_on = False

    def read_uid(self, settle_ms=SETTLE_MS, timeout_ms=READ_TIMEOUT_MS):
        """The UID (bytes) of the one ISO14443A tag at the selected antenna, or None if no
        tag answers: field on, `settle_ms`, InListPassiveTarget, field off (always)."""
        done = False
        try:
            if not self._configured:
                self._configure(CMD_TIMEOUT_MS)
            self.rf_field(True)
            self._clock.sleep_ms(settle_ms)
            uid = self._target(self._exchange(_IN_LIST_PASSIVE_TARGET, _ONE_TYPE_A, timeout_ms))
            done = True
        finally:
            if not done:
                self._off_after_error()
        try:
            self.rf_field(False)
        except ReaderError:
            self._off_after_error()
            raise
        return uid

    def _target(self, n):
        """The UID in InListPassiveTarget's `n` data bytes, or None for no target."""
        d, rx = self._data, self._rx
        if n < 1 or rx[d] > 1:
            raise ReaderError("InListPassiveTarget: bad target count")
        if rx[d] == 0:
            return None
        # NbTg, Tg, SENS_RES (2), SEL_RES, NFCIDLength, NFCID1 [, ATS]
        size = rx[d + 5] if n >= 6 else 0
        if size not in (4, 7, 10) or 6 + size > n:
            raise ReaderError("InListPassiveTarget: bad target data")
        return bytes(self._rxv[d + 6 : d + 6 + size])

    def _off_after_error(self):
        """After a failed read: the field off, or known off; never raises (the first error
        is the one reported)."""
        if self._down:
            return
        try:
            self.rf_field(False)
            return
        except ReaderError:
            pass
        if self._reset is not None:
            self._reset.value(0)  # hard power-down: the field is off for certain
            self._down = True
            self.field_on = False
            self._configured = False

    def _configure(self, timeout_ms):
        if self._down:  # wake it from the hard power-down a failed read left it in
            self._reset.value(1)  # _down only with a reset pin
            self._clock.sleep_ms(_WAKE_MS)
            self._down = False
        self._exchange(_SAM_CONFIGURATION, _SAM_NORMAL, timeout_ms)
        # CfgItem 5 (MaxRetries): MxRtyATR, MxRtyPSL left at their defaults.
        retries = bytes((0x05, 0xFF, 0x01, self.passive_retries))
        self._exchange(_RF_CONFIGURATION, retries, timeout_ms, True)
        self._configured = True

    def _exchange(self, code, params, timeout_ms, short=False):
        """Run one command; return how many data bytes follow the response code in _rx. A
        `short` response (RFConfiguration's) is read to _RX_SHORT bytes, others to _RX_MAX."""
        start = self._clock.ticks_ms()
        try:
            self._send(code, params)
            self._wait_ready(start, timeout_ms, "ACK")
            self._read_ack()
            self._wait_ready(start, timeout_ms, "response")
            return self._read_response(code, self._rx_short if short else self._rxv)
        except OSError as exc:
            self._abort()
            raise ReaderError("PN532 at 0x%02x: I2C error %s" % (self._addr, exc))
        except ReaderError:
            self._abort()
            raise

    def _abort(self):
        self._configured = False
        try:
            self._i2c.writeto(self._addr, _ACK)
        except OSError:
            pass

    def _send(self, code, params):
        tx = self._tx
        size = 2 + len(params)  # TFI, command code, parameters
        if size + 7 > _TX_MAX:
            raise ReaderError("command frame too long")
        tx[0] = 0x00
        tx[1] = 0x00
        tx[2] = 0xFF
        tx[3] = size
        tx[4] = -size & 0xFF
        tx[5] = _HOST
        tx[6] = code
        total = _HOST + code
        for k in range(len(params)):
            tx[7 + k] = params[k]
            total += params[k]
        tx[5 + size] = -total & 0xFF
        tx[6 + size] = 0x00
        self._i2c.writeto(self._addr, self._txv[: 7 + size])

    def _wait_ready(self, start, timeout_ms, what):
        status = self._status
        while True:
            self._i2c.readfrom_into(self._addr, status)
            if status[0] & 1:
                return
            if ticks_diff(self._clock.ticks_ms(), start) >= timeout_ms:
                raise ReaderError("PN532 not ready for the %s within %d ms" % (what, timeout_ms))
            self._clock.sleep_ms(_POLL_MS)

    def _read_ack(self):
        rx = self._rx
        self._i2c.readfrom_into(self._addr, self._rx_ack)
        for k in range(6):
            if rx[1 + k] != _ACK[k]:
                raise ReaderError("PN532: no ACK frame")

    def _read_response(self, code, into):
        rx = self._rx
        end = len(into)
        self._i2c.readfrom_into(self._addr, into)
        s = 1  # skip the status byte and the preamble to the start code 00 FF
        while s < 5 and not (rx[s] == 0x00 and rx[s + 1] == 0xFF):
            s += 1
        if s == 5:
            raise ReaderError("PN532: no start code")
        size = rx[s + 2]
        if (size + rx[s + 3]) & 0xFF:
            raise ReaderError("PN532: bad LCS")
        if size == 0 or size == 0xFF:
            raise ReaderError("PN532: ACK or extended frame instead of a response")
        body = s + 4
        if body + size >= end:
            raise ReaderError("PN532: response frame too long")
        total = 0
        for k in range(body, body + size + 1):  # data and DCS
            total += rx[k]
        if total & 0xFF:
            raise ReaderError("PN532: bad DCS")
        if size == 1 and rx[body] == 0x7F:
            raise ReaderError("PN532: error frame (command 0x%02x refused)" % code)
        if size < 2 or rx[body] != _CHIP or rx[body + 1] != code + 1:
            raise ReaderError("PN532: wrong response to command 0x%02x" % code)
        self._data = body + 2
        return size - 2
