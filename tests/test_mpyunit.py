"""Self-test of the MicroPython test runner (tests/mpyunit.py) and its host side (mpyhost).

tests/mpyunit_sample.py holds tests with known outcomes; they must come out exactly the same
on CPython and on MicroPython, and match what pytest itself collects from that file.
"""

from __future__ import annotations

from tests import mpyhost, mpyunit
from tests.mpyunit_sample import EXPECTED
from tools.mpyrun import REPO_ROOT

SAMPLE = "tests.mpyunit_sample"


def check_sample_records(records: list[dict], done: dict | None) -> None:
    failed = sum(1 for error in EXPECTED.values() if error is not None)
    assert done == {"module": SAMPLE, "tests": len(EXPECTED), "failed": failed}
    assert [r["test"] for r in records] == sorted(EXPECTED)
    for record in records:
        name = record["test"]
        assert record["error"] == EXPECTED[name], name
        assert record["ok"] is (EXPECTED[name] is None), name
        if record["ok"]:
            assert record["traceback"] is None, name
        else:
            assert "Traceback" in record["traceback"], name
            assert name in record["traceback"], name


def test_sample_on_cpython(capsys):
    assert mpyunit.run_module(SAMPLE) == sum(1 for e in EXPECTED.values() if e is not None)
    parsed = mpyhost.parse(capsys.readouterr().out)
    check_sample_records(parsed.records, parsed.done)
    assert parsed.unfinished is None


def test_sample_on_micropython():
    run = mpyhost.run_module(SAMPLE)
    assert run.result.ok, run.report()
    check_sample_records(run.records, run.done)
    assert run.unfinished is None
    assert len(run.failures()) == run.done["failed"]


def test_pytest_collects_the_same_tests():
    collected = mpyhost.pytest_collect([REPO_ROOT / "tests" / "mpyunit_sample.py"])
    assert collected.names == {SAMPLE: set(EXPECTED)}, collected.output


def test_import_error_is_reported():
    run = mpyhost.run_module("tests.no_such_module")
    assert run.done is None
    assert run.records == []
    assert run.result.exit_code == 1
    assert "ImportError" in run.result.stderr


def test_parse_finds_markers_after_printed_text():
    out = (
        'MPYUNIT-START {"test": "test_a"}\nnoise\n'
        'partial lineMPYUNIT {"test": "test_a", "ok": true}\n'
        'MPYUNIT-DONE {"tests": 1}\n'
    )
    parsed = mpyhost.parse(out)
    assert parsed.records == [{"test": "test_a", "ok": True}]
    assert parsed.done == {"tests": 1}
    assert parsed.unfinished is None


def test_parse_names_the_test_that_never_finished():
    out = 'MPYUNIT-START {"test": "test_a"}\nMPYUNIT {"test": "test_a", "ok": true}\n'
    out += 'MPYUNIT-START {"test": "test_b"}\n'
    parsed = mpyhost.parse(out)
    assert parsed.done is None
    assert parsed.unfinished == "test_b"


def test_out_of_fuel_names_the_test():
    run = mpyhost.run_module("tests.mpyunit_spin", fuel=200_000_000)
    assert run.result.out_of_fuel, run.report()
    assert run.done is None
    assert [r["test"] for r in run.records] == ["test_a_passes"]
    assert run.unfinished == "test_b_spins_forever"
    assert "test_b_spins_forever never finished" in run.report()


def test_main_exit_status(capsys):
    assert mpyunit.main([SAMPLE]) == 1
    assert mpyunit.main([]) == 0
    capsys.readouterr()


def test_module_fuel_budget():
    assert mpyhost.module_fuel("tests.mpyunit_spin") == 1_000_000_000
    assert mpyhost.module_fuel(SAMPLE) == mpyhost.MODULE_FUEL
    assert mpyhost.module_fuel("tests.no_such_module") == mpyhost.MODULE_FUEL
