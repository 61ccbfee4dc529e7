"""Simulated CircuitPython `digitalio`, after its documented API (shared-bindings/digitalio).

`DigitalInOut(pin)` claims the pin (a second claim raises ValueError) and starts as an input
with no pull. Misuse raises as CircuitPython does: setting `value` on an input, reading or
setting `pull` on an output or `drive_mode` on an input (AttributeError), any use after
`deinit()` (ValueError). The level it drives or reads is the pin's simulated wire
(microcontroller.Pin.level); an input reads what the outside world drives, else its pull.
"""


class _Enum:
    def __init__(self, kind, name):
        self._text = "digitalio.%s.%s" % (kind, name)

    def __repr__(self):
        return self._text


class Direction:
    INPUT = _Enum("Direction", "INPUT")
    OUTPUT = _Enum("Direction", "OUTPUT")


class Pull:
    UP = _Enum("Pull", "UP")
    DOWN = _Enum("Pull", "DOWN")


class DriveMode:
    PUSH_PULL = _Enum("DriveMode", "PUSH_PULL")
    OPEN_DRAIN = _Enum("DriveMode", "OPEN_DRAIN")


class DigitalInOut:
    def __init__(self, pin):
        pin.claim(self)
        self._pin = pin
        self._direction = Direction.INPUT
        self._pull = None
        self._drive_mode = DriveMode.PUSH_PULL
        self._out = False
        self._settle()

    # -- context manager and life cycle -------------------------------------------------------

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()

    def deinit(self):
        if self._pin is not None:
            self._pin.release(self)
            self._pin = None

    def deinited(self):
        return self._pin is None

    def _live(self):
        if self._pin is None:
            raise ValueError(
                "Object has been deinitialized and can no longer be used. Create a new object."
            )
        return self._pin

    @property
    def pin(self):
        """Simulation only: the claimed microcontroller.Pin (None after deinit)."""
        return self._pin

    # -- the wire -----------------------------------------------------------------------------

    def _settle(self):
        pin = self._pin
        if self._direction is Direction.OUTPUT:
            if self._drive_mode is DriveMode.OPEN_DRAIN and self._out:
                level = 1 if pin.external is None else pin.external  # released: pulled up
            else:
                level = 1 if self._out else 0
        elif pin.external is not None:
            level = pin.external
        else:
            level = 1 if self._pull is Pull.UP else 0  # floating reads 0 here
        pin.set_level(level)

    # -- the API ------------------------------------------------------------------------------

    def switch_to_output(self, value=False, drive_mode=DriveMode.PUSH_PULL):
        self._live()
        if drive_mode not in (DriveMode.PUSH_PULL, DriveMode.OPEN_DRAIN):
            raise TypeError("drive_mode must be a DriveMode")
        self._direction = Direction.OUTPUT
        self._drive_mode = drive_mode
        self._pull = None
        self._out = bool(value)
        self._settle()

    def switch_to_input(self, pull=None):
        self._live()
        if pull not in (None, Pull.UP, Pull.DOWN):
            raise TypeError("pull must be a Pull or None")
        self._direction = Direction.INPUT
        self._pull = pull
        self._settle()

    @property
    def direction(self):
        self._live()
        return self._direction

    @direction.setter
    def direction(self, d):
        if d is Direction.OUTPUT:
            self.switch_to_output()
        elif d is Direction.INPUT:
            self.switch_to_input()
        else:
            raise TypeError("direction must be a Direction")

    @property
    def value(self):
        pin = self._live()
        if self._direction is Direction.OUTPUT and self._drive_mode is DriveMode.PUSH_PULL:
            return self._out
        return bool(pin.level)

    @value.setter
    def value(self, v):
        self._live()
        if self._direction is Direction.INPUT:
            raise AttributeError("Cannot set value when direction is input.")
        self._out = bool(v)
        self._settle()

    @property
    def pull(self):
        self._live()
        if self._direction is Direction.OUTPUT:
            raise AttributeError("Pull not used when direction is output.")
        return self._pull

    @pull.setter
    def pull(self, p):
        self._live()
        if self._direction is Direction.OUTPUT:
            raise AttributeError("Pull not used when direction is output.")
        self.switch_to_input(p)

    @property
    def drive_mode(self):
        self._live()
        if self._direction is Direction.INPUT:
            raise AttributeError("Drive mode not used when direction is input.")
        return self._drive_mode

    @drive_mode.setter
    def drive_mode(self, m):
        self._live()
        if self._direction is Direction.INPUT:
            raise AttributeError("Drive mode not used when direction is input.")
        self.switch_to_output(self._out, m)
