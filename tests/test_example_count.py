"""A budget of N examples that reports more than N explains the figure (issue "An adapter in an
afternoon"): Hypothesis counts toward ``max_examples`` only the examples it generated whole;
those it cut off when its choice buffer ran out (overrun), those declined or discarded, the
failures replayed from the example database and the examples run while shrinking are run (their
steps checked) but not counted. The summary says how many of each."""

from __future__ import annotations

from pathlib import Path

from harness.interfaces.cli import main
from harness.connection.loading import load_engine
from harness.reporting.report import example_breakdown
from harness.running.runner import count_outcomes, run

ROOT = Path(__file__).resolve().parent.parent
TINY = f"{ROOT / 'examples' / 'engines' / 'tiny' / 'engine.py'}:engine"


def test_hypothesis_statistics_are_counted_by_phase_and_status():
    outcomes: dict = {}
    count_outcomes(outcomes, {
        "reuse-phase": {"test-cases": [{"status": "interesting"}]},
        "generate-phase": {"test-cases": [{"status": "valid"}] * 5 + [{"status": "overrun"}] * 2
                           + [{"status": "invalid"}, {"status": "interesting"}]},
        "shrink-phase": {"test-cases": [{"status": "valid"}, {"status": "overrun"}]},
        "stopped-because": "settings.max_examples=6",
    })
    assert outcomes == {"replayed": 1, "generated": 6, "overrun": 2, "rejected": 1, "shrinking": 2}


def test_the_breakdown_explains_572_examples_of_a_budget_of_500():
    text = example_breakdown(572, {"generated": 500, "overrun": 72})
    assert text.startswith("500 generated within the --max-examples budget + 72 cut off when Hypothesis's choice "
                           "buffer ran out")
    assert "not counted toward the budget" in text
    replayed = example_breakdown(572, {"generated": 500, "replayed": 72})
    assert "72 replayed from the example database" in replayed
    assert example_breakdown(500, {"generated": 500}) is None  # nothing to explain
    assert "3 outside Hypothesis's phases" in example_breakdown(503, {"generated": 500})


def test_a_run_counts_its_examples_as_hypothesis_does(tmp_path, outside_coverage):
    result = run(load_engine(TINY), max_examples=150, seed=1, replay_dir=tmp_path, database=None, steps_per_example=20)
    outcomes = result.examples_by_outcome
    assert not result.findings and outcomes["generated"] == 150
    assert sum(outcomes.values()) == result.stats.examples  # every example started is accounted for
    assert result.stats.examples > 150 and set(outcomes) - {"generated"}, outcomes  # what the figure needs explained


def test_the_summary_says_why_there_are_more_examples_than_the_budget(tmp_path, capsys, outside_coverage):
    # Hypothesis's engine: its overruns and rejects are what the count explains
    assert main(["run", "--engine", TINY, "--max-examples", "150", "--seed", "1", "--database", "none", "--quiet",
                 "--replay-dir", str(tmp_path), "--hypothesis"]) == 0
    out = capsys.readouterr().out
    final = next(line for line in out.splitlines() if line.startswith("No violation in "))
    examples = int(final.split()[3])
    assert examples > 150 and "150 generated within the --max-examples budget + " in final, final
    assert f"the {examples} examples: 150 generated within the --max-examples budget" in out


def test_workers_add_up_their_slots_counts(tmp_path):
    from harness.running.workers import run_workers

    result = run_workers(TINY, workers=2, max_examples=40, seed=2, replay_dir=tmp_path, steps_per_example=10)
    assert result.examples_by_outcome["generated"] == 40
    assert sum(result.examples_by_outcome.values()) == result.stats.examples
