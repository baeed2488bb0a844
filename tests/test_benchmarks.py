"""The benchmarks run, on tiny budgets: their output lines and JSON figures, their bad options.

They are scripts (``benchmarks/*.py``), not timed tests: nothing here asserts a speed.
"""

from __future__ import annotations

import importlib.util
import json
import statistics
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"benchmark_{name}", ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_throughput_reports_the_engine_ratio_last_and_each_invariants_cost(tmp_path, capsys, outside_coverage):
    throughput = _load("throughput")
    out = tmp_path / "throughput.json"
    assert throughput.main(["--examples", "4", "--repeat", "1", "--no-protocol", "--per-invariant",
                            "--workers", "2", "--workers-examples", "6", "--json", str(out)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-1].startswith("engine ratio: ")
    assert lines[-2].startswith("harness efficiency: ")
    figures = json.loads(out.read_text())
    ratio = figures["explore_steps_per_second"] / figures["engine_events_per_second"]["per_second"]
    assert figures["engine_ratio"] == pytest.approx(ratio)
    assert float(lines[-1].split(": ")[1]) == pytest.approx(ratio, abs=0.006)
    scaling = figures["workers"]
    assert set(scaling["rates"]) == {"1", "2"} and scaling["rates"]["2"]["examples"] == 6
    assert scaling["scaling"] == pytest.approx(scaling["rates"]["2"]["per_second"] / scaling["rates"]["1"]["per_second"])
    assert scaling["turns"] == [pytest.approx(scaling["scaling"], abs=0.001)]  # --repeat 1: one turn
    assert any(line.startswith("(e) workers:") for line in lines)
    assert 0 < scaling["machine"] and len(scaling["machine_turns"]) == 1 and scaling["efficiency"] > 0
    # the workers' CPU seconds are measured: busy at most the whole wall time (start-up included)
    assert all(scaling["rates"][n]["cpu_seconds"] > 0 for n in ("1", "2"))
    assert 0 < scaling["busy"] <= 1.05 and scaling["cpu_per_step"] > 0
    assert any(line.strip().startswith("the 2 workers were busy") for line in lines)
    assert figures["per_invariant"]["explore"] is True  # the default mode of rulesfuzz run
    timed = figures["per_invariant"]["invariants"]
    import invariants
    from harness.adapters.reference import ReferenceAdapter

    claimed = set(ReferenceAdapter().info.capabilities)
    expected = {i.name for scope in ("step", "scenario") for i in invariants.select(claimed, scope=scope)}
    assert "generic.json_round_trip" in timed and "generic.determinism" in timed
    # each judged every step: its check called, or left out where it can't apply (on=, on_log=)
    assert all(row["checks"] + row["skipped"] > 0 and row["us_per_check"] >= 0 for row in timed.values())
    assert any(row["skipped"] > 0 for row in timed.values()) and timed["generic.json_round_trip"]["skipped"] == 0
    assert expected <= set(timed)


def test_bugfinding_budgets_runs_in_examples_and_reports_examples_per_mode(tmp_path, capsys, outside_coverage):
    bugfinding = _load("bugfinding")
    out = tmp_path / "bugfinding.json"
    code = bugfinding.main(["--mutant", "umbra_taps_creature", "--seeds", "1", "--budget", "60", "--hypothesis",
                            "--reference-examples", "3", "--jobs", "1", "--no-shrink", "--json", str(out)])
    text = capsys.readouterr().out
    assert code == 0
    assert "60 examples per run" in text and ", --hypothesis;" in text.splitlines()[0]
    header = next(line for line in text.splitlines() if line.startswith("mutant"))
    assert "ex diff" in header and "ex inv" in header and "s diff" in header and "s inv" in header
    assert text.strip().splitlines()[-1] == "detected 1/1 differential, 1/1 invariant-only, false positives 0"
    report = json.loads(out.read_text())
    assert report["settings"]["budget_examples"] == 60 and report["settings"]["explore"] is False
    assert not any(r["explore"] for r in report["runs"])
    row = report["summary"]["mutants"]["umbra_taps_creature"]
    for mode in ("differential", "invariant-only"):
        assert 1 <= row[mode]["median_examples"] <= 60
        assert report["summary"]["totals"][mode]["median_examples"] == row[mode]["median_examples"]
    covered = report["reference_engine_coverage"]
    assert covered["examples"] == 3 and 0 < covered["branches"]["covered"] <= covered["branches"]["total"]
    assert "reference engine coverage (3 examples, seed 0): lines" in text
    runs = [r for r in report["runs"] if r["engine"] == "umbra_taps_creature"]
    assert all(r["examples_to_failure"] <= 60 and r["seconds_to_failure"] >= 0 for r in runs)


def test_bugfinding_explores_by_default_and_finds_the_mutant_in_both_modes(tmp_path, capsys, outside_coverage):
    """Like ``rulesfuzz run``, the benchmark explores unless told ``--hypothesis``."""
    bugfinding = _load("bugfinding")
    out = tmp_path / "bugfinding.json"
    code = bugfinding.main(["--mutant", "umbra_taps_creature", "--seeds", "1", "--budget", "100",
                            "--reference-examples", "3", "--jobs", "1", "--json", str(out)])
    text = capsys.readouterr().out
    assert code == 0 and ", --explore;" in text.splitlines()[0]
    assert text.strip().splitlines()[-1] == "detected 1/1 differential, 1/1 invariant-only, false positives 0"
    report = json.loads(out.read_text())
    assert report["settings"]["explore"] is True
    assert all(r["explore"] and r["shrunk_steps"] <= 2 for r in report["runs"] if r["engine"] != "reference")


def test_bugfinding_with_workers_finds_what_rulesfuzz_run_with_workers_finds(tmp_path, capsys, outside_coverage):
    """``--workers 2`` cuts every run into the slots of ``rulesfuzz run --workers 2``: the mutant
    is caught by the invariant the CLI's run with 2 worker processes reports first, and its
    examples to failure count the slots' examples, within the budget."""
    from tests.mutants import MUTANTS

    bugfinding = _load("bugfinding")
    out = tmp_path / "bugfinding.json"
    code = bugfinding.main(["--mutant", "umbra_taps_creature", "--seeds", "1", "--budget", "100", "--workers", "2",
                            "--explore", "--reference-examples", "3", "--jobs", "1", "--json", str(out)])
    text = capsys.readouterr().out
    assert code == 0 and "cut into the slots of --workers 2" in text.splitlines()[0]
    report = json.loads(out.read_text())
    assert report["settings"]["workers"] == 2
    run = next(r for r in report["runs"] if r["engine"] == "umbra_taps_creature" and r["mode"] == "invariant-only")
    assert run["detected"] and run["workers"] == 2 and 1 <= run["examples_to_failure"] <= run["examples"] <= 100
    assert bugfinding._slots(100, 0, 2)[0] != (100, 0)  # not the run of one process
    from harness.interfaces.cli import main

    assert main(["run", "--engine", MUTANTS["umbra_taps_creature"].spec, "--workers", "2", "--max-examples", "100",
                 "--seed", "0", "--database", "none", "--quiet", "--replay-dir", str(tmp_path / "replays"),
                 "--json", str(tmp_path / "run.json"), "--explore"]) == 1
    cli_run = json.loads((tmp_path / "run.json").read_text())
    assert cli_run["findings"][0]["key"] == run["invariant"]
    # with seed 0 the first slot finds it, at the same example as the CLI's run with 2 workers
    assert run["examples_to_failure"] == cli_run["findings"][0]["examples_to_find"] <= 8


def test_bugfinding_is_deterministic_in_examples(tmp_path, capsys):
    """The same seed and example budget find the bug after the same number of examples."""
    bugfinding = _load("bugfinding")
    task = {"engine": "umbra_taps_creature", "mode": "invariant-only", "seed": 1, "budget": 60, "shrink": False}
    first, second = bugfinding.run_one(dict(task)), bugfinding.run_one(dict(task))
    assert first["detected"] and second["detected"]
    assert first["examples_to_failure"] == second["examples_to_failure"]


@pytest.mark.parametrize("script, argv", [
    ("bugfinding", ["--budget", "0"]), ("bugfinding", ["--budget", "ten"]), ("bugfinding", ["--seeds", "-1"]),
    ("bugfinding", ["--mutant", "no_such_mutant"]), ("bugfinding", ["--reference-examples", "-5"]),
    ("bugfinding", ["--explore", "--hypothesis"]),
    ("throughput", ["--examples", "0"]), ("throughput", ["--repeat", "x"]), ("throughput", ["--workers", "0"]),
    ("throughput", ["--workers-examples", "many"]),
])
def test_benchmarks_refuse_bad_options_in_one_line(script, argv, capsys):
    module = _load(script)
    with pytest.raises(SystemExit) as exc:
        module.main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("usage:") is False and "error:" in err[-1]


def test_the_workers_scaling_is_the_median_turns(monkeypatch):
    """(e) in three turns whose scalings are 2.0, 1.5 and 1.9 (1 worker first in odd turns, 2
    first in even ones): the reported turn is the 1.9 one; the machine's control turns
    (1.9, 2.0, 1.5) give its median and the median of the workers' scaling over it."""
    from types import SimpleNamespace

    throughput = _load("throughput")
    seconds = {1: iter([10.0, 10.0, 10.0]), 2: iter([5.0, 10 / 1.5, 10 / 1.9])}
    order = []

    def fake_run(spec, workers, **kwargs):
        order.append(workers)
        return SimpleNamespace(findings=[], seconds=next(seconds[workers]), stats=SimpleNamespace(examples=8, steps=1000))

    machine = iter([1.9, 2.0, 1.5])
    monkeypatch.setattr(throughput, "run_workers", fake_run)
    monkeypatch.setattr(throughput, "machine_scaling", lambda scenarios, workers: next(machine))
    scaling = throughput.workers_scaling(8, 0, 2, repeat=3, scenarios=[])
    assert order == [1, 2, 2, 1, 1, 2]
    assert scaling["turns"] == [2.0, 1.5, 1.9]
    assert scaling["scaling"] == pytest.approx(1.9) and scaling["rates"][2]["per_second"] == pytest.approx(190)
    assert scaling["machine_turns"] == [1.9, 2.0, 1.5] and scaling["machine"] == pytest.approx(1.9)
    assert scaling["efficiency"] == pytest.approx(statistics.median([2.0 / 1.9, 1.5 / 2.0, 1.9 / 1.5]))


def test_the_machine_scaling_control_runs_the_raw_engine_in_processes():
    """The control of (e) on a few recorded scenarios: a positive ratio, at most the process count
    with some slack for a lucky turn (it is wall clock)."""
    throughput = _load("throughput")
    scenarios = throughput.record_scenarios(3, 0, explore=True)
    assert scenarios
    assert 0 < throughput.machine_scaling(scenarios, 2, turns=1) < 3


def test_compare_measures_two_revisions_in_their_own_processes():
    """``throughput.py --compare REV``: REV's tree is exported and both revisions run in their own
    processes on scenarios REV recorded; one turn gives one ratio of each kind (here HEAD against
    itself, so both rates are real measurements of the same code)."""
    from benchmarks.compare import compare

    result = compare("HEAD", examples=3, seed=0, turns=1, repeat=1)
    assert result["rev"] == "HEAD"
    assert len(result["engine"]) == len(result["harness"]) == len(result["rates"]) == 1
    rate = result["rates"][0]
    assert rate["engine"]["this"] > 0 and rate["engine"]["HEAD"] > 0
    assert rate["harness"]["this"] > 0 and rate["harness"]["HEAD"] > 0
    assert result["engine_ratio"] == rate["engine"]["this"] / rate["engine"]["HEAD"]


def test_compare_with_an_unknown_revision_is_one_line_and_exit_2(capsys):
    from benchmarks import throughput

    assert throughput.main(["--compare", "no-such-revision-xyz", "--examples", "2", "--repeat", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no-such-revision-xyz" in err[0]
