"""The board makes room in its heap when a chip is first sensed, inside the chip's settle
time, and again just before it settles if the steps between ate that room, rather than
leave the collection to the step that judges the move and lights the LEDs (firmware/app.py
`App._make_room`; on the emulated Pico a collection took 20-25 ms of that step). Runs on
CPython and MicroPython, with the platform's heap faked."""

from firmware import app as app_module
from tests.engine.checks import eq
from tests.fw.board import new_board, sq


class Heap:
    """`free` bytes of heap, back to `after` once collected; each collection notes how many
    chips the board had placed then."""

    def __init__(self, board, free, after):
        self.board = board
        self.free = free
        self.after = after
        self.collections = []

    def mem_free(self):
        return self.free

    def collect(self):
        self.collections.append(len(self.board.app.sensing.placed))
        self.free = self.after


def _with_heap(heap, run):
    real = (app_module.mem_free, app_module.collect)
    app_module.mem_free, app_module.collect = heap.mem_free, heap.collect
    try:
        run()
    finally:
        app_module.mem_free, app_module.collect = real


def test_a_short_heap_is_collected_while_the_chip_settles():
    board = new_board()
    heap = Heap(board, free=app_module.HEAP_ROOM - 1, after=2 * app_module.HEAP_ROOM)

    def play():
        board.put(sq("H8"), "5")
        board.run(100)  # sensed, not yet settled (300 ms): the collection is done now
        eq((heap.collections, len(board.app.sensing.placed)), ([0], 0))
        board.run(400)
        eq(board.app.sensing.placed.get(sq("H8")), "5")
        # room enough now: the next chip needs no collection
        board.place(sq("I8"), "+")
        eq(heap.collections, [0])
        heap.free = 1000  # the heap ran short again
        board.place(sq("J8"), "3")
        eq(heap.collections, [0, 2])

    _with_heap(heap, play)
    # the move was judged as on a board that never collects
    plain = new_board()
    for name, face in (("H8", "5"), ("I8", "+"), ("J8", "3")):
        plain.place(sq(name), face)
    eq(board.app.referee.verdict.score, plain.app.referee.verdict.score)
    eq(board.screen(), plain.screen())


def test_room_eaten_while_the_chip_settles_is_made_before_its_step():
    board = new_board()
    heap = Heap(board, free=app_module.HEAP_ROOM, after=2 * app_module.HEAP_ROOM)
    settle_ms = board.app.sensing.settle_ms
    period = board.app.period_ms

    def play():
        board.put(sq("H8"), "5")
        board.run(100)
        eq(heap.collections, [])  # room enough when the magnet appeared
        heap.free = app_module.STEP_ROOM  # the steps since left about what a step needs
        board.run(100)
        eq(heap.collections, [])
        heap.free = app_module.STEP_ROOM - 1
        board.run(settle_ms - 200 - 3 * period)
        eq(heap.collections, [])  # not while the chip is far from settling
        board.run(settle_ms)
        # collected once, in a step before the one that placed the chip
        eq((heap.collections, board.app.sensing.placed.get(sq("H8"))), ([0], "5"))

    _with_heap(heap, play)
