"""``rulesfuzz run --engine-coverage``: coverage.py measures the engine's own source.

On the tiny engine (written from scratch): totals of lines and branches, coverage.py's
data file, the functions never reached (an engine that doesn't claim ``sacrifice`` never
has its sacrifice rules called); the reference engine's package; an ``exec:`` engine is
not applicable (said, and the run goes on); a data file that can't be written is bad input.
"""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import coverage
import pytest

from harness.interfaces import cli
from harness.connection.engine_coverage import EngineCoverage, NotApplicable, engine_sources
from harness.connection.loading import load_engine
from harness.running.runner import run

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "examples" / "engines" / "tiny" / "engine.py"


def test_the_tiny_engine_is_measured_with_a_data_file_and_json(tmp_path, capsys):
    data, report = tmp_path / "engine.coverage", tmp_path / "run.json"
    code = cli.main(["run", "--engine", f"{TINY}:engine", "--max-examples", "40", "--database", "none", "--quiet",
                     "--replay-dir", str(tmp_path / "out"), "--engine-coverage", str(data), "--json", str(report)])
    out = capsys.readouterr().out
    assert code == 0
    assert f"Engine coverage ({TINY}): lines " in out and "branches" in out
    measured = json.loads(report.read_text())["engine_coverage"]
    assert 0 < measured["lines"]["covered"] <= measured["lines"]["total"]
    assert 0 < measured["branches"]["covered"] <= measured["branches"]["total"]
    assert measured["sources"] == [str(TINY)] and measured["data_file"] == str(data)
    reached = {"TinyGame.apply", "TinyGame.observe", "TinyGame._state_based_actions", "TinyGame._sacrifice"}
    assert not reached & {name.split(":")[-1] for name in measured["never_reached"]}
    saved = coverage.CoverageData(basename=str(data))
    saved.read()
    assert [str(TINY)] == [f for f in saved.measured_files()]
    assert saved.has_arcs()  # branch coverage was measured


def test_a_run_in_worker_processes_is_measured_in_each_and_combined(tmp_path, capsys):
    """With --workers 2 the engine runs in two worker processes, not in the run's: each
    measures the engine's source, and their data is combined into the run's data file
    (coverage.py's parallel data files), which is all that is left on disk."""
    data, report = tmp_path / "engine.coverage", tmp_path / "run.json"
    code = cli.main(["run", "--engine", f"{TINY}:engine", "--max-examples", "40", "--database", "none", "--quiet",
                     "--replay-dir", str(tmp_path / "out"), "--engine-coverage", str(data), "--json", str(report),
                     "--workers", "2"])
    out = capsys.readouterr().out
    assert code == 0
    assert f"Engine coverage ({TINY}): lines " in out
    payload = json.loads(report.read_text())
    assert all(payload["slots"]["taken"])  # both workers ran slots
    measured = payload["engine_coverage"]
    assert 0 < measured["lines"]["covered"] <= measured["lines"]["total"]
    reached = {"TinyGame.apply", "TinyGame.observe", "TinyGame._state_based_actions", "TinyGame._deal_damage"}
    assert not reached & {name.split(":")[-1] for name in measured["never_reached"]}
    saved = coverage.CoverageData(basename=str(data))
    saved.read()
    assert list(saved.measured_files()) == [str(TINY)] and saved.has_arcs()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["engine.coverage", "run.json"]


def test_functions_never_reached_are_listed(tmp_path):
    """An engine that claims no ``sacrifice`` is never asked to sacrifice: the tiny engine's
    sacrifice rules (CR 701.17a) are listed as never reached; its damage rules are not."""
    wrapper = tmp_path / "no_sacrifice.py"
    wrapper.write_text(textwrap.dedent(f"""
        import importlib.util
        from harness.protocol import EngineInfo
        spec = importlib.util.spec_from_file_location("tiny_for_coverage", {str(TINY)!r})
        tiny = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(tiny)

        class NoSacrifice:
            game_class = tiny.TinyGame
            info = EngineInfo("tiny-no-sacrifice", "1", tiny.CAPABILITIES - {{"sacrifice"}}, cards=frozenset(tiny.CARDS))
            def new_game(self, board):
                return tiny.TinyGame(board, frozenset())

        engine = NoSacrifice()
    """))
    engine = load_engine(f"{wrapper}:engine")
    assert engine_sources(engine) == [str(wrapper), str(TINY)]
    with EngineCoverage(engine, tmp_path / "data") as measuring:
        assert run(engine, max_examples=40, seed=0, database=None, shrink=False).violation is None
    summary = measuring.summary()
    names = {name.split(":")[-1] for name in summary.never_reached}
    assert "TinyGame._sacrifice" in names
    assert "TinyGame._deal_damage" not in names and "TinyGame._cast" not in names
    assert "TinyGame._sacrifice" in summary.describe(limit=100)


def test_the_reference_engine_is_measured_as_its_package():
    assert engine_sources(load_engine("reference")) == [str(ROOT / "reference_engine")]
    fork = load_engine(f"{ROOT / 'tests' / 'mutants' / 'umbra_taps_creature.py'}:engine")
    assert engine_sources(fork) == [str(ROOT / "tests" / "mutants" / "umbra_taps_creature.py"),
                                    str(ROOT / "reference_engine")]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_an_exec_engine_is_not_applicable_and_the_run_goes_on(tmp_path, capsys):
    node = f"exec:node {ROOT / 'examples' / 'engines' / 'node' / 'engine.js'}"
    with pytest.raises(NotApplicable):
        engine_sources(load_engine(node))
    code = cli.main(["run", "--engine", node, "--max-examples", "5", "--database", "none", "--quiet",
                     "--replay-dir", str(tmp_path / "out"), "--engine-coverage", str(tmp_path / "data")])
    captured = capsys.readouterr()
    assert code == 0
    assert "--engine-coverage: not applicable to an engine in another process" in captured.err
    assert "Engine coverage (" not in captured.out and not (tmp_path / "data").exists()


@pytest.mark.parametrize("where", ["folder", "missing/data"])
def test_a_data_file_that_cannot_be_written_is_bad_input(tmp_path, capsys, where):
    (tmp_path / "folder").mkdir()
    code = cli.main(["run", "--engine", f"{TINY}:engine", "--max-examples", "5", "--database", "none",
                     "--engine-coverage", str(tmp_path / where)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "--engine-coverage" in err[0]
