"""A supervised run (issue 22 item 3): `rulesfuzz run` fuzzes in a child process; an engine that
ends that process (os._exit, a signal) is a finding (exit 1) with the last example's replay file;
an end outside the engine's code is exit 3; a finished run exits as it says."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from harness.running import scenario as scenario_file
from harness.reporting.report import run_report_schema
from harness.running.monitor import ENGINE, HARNESS, LOADING, ChildState, Monitor, new_monitor_file
from harness.running.supervisor import Verdict, crash_scenario, verdict

ROOT = Path(__file__).resolve().parent.parent

ENDING = '''
import os, signal
from harness.protocol import EngineInfo


class Game:
    def __init__(self):
        self.n = 0

    def apply(self, event, decider):
        self.n += 1
        if self.n >= 3:
            {how}

    def observe(self):
        return {{"players": {{}}, "objects": {{}}, "zones": {{}}, "log": []}}


class Ending:
    info = EngineInfo(name="ending", version="1", capabilities=frozenset({{"destroy", "damage"}}))

    def new_game(self, board):
        return Game()


engine = Ending()
'''


def _rulesfuzz(tmp_path, how: str, *extra):
    engine = tmp_path / "ending.py"
    engine.write_text(ENDING.format(how=how), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "harness", "run", "--engine", f"{engine}:engine", "--max-examples", "20",
         "--database", "none", "--quiet", "--replay-dir", str(tmp_path / "replays"),
         "--json", str(tmp_path / "run.json"), "--junit-xml", str(tmp_path / "run.xml"), *extra],
        cwd=ROOT, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("how, code", [("os._exit(0)", 0), ("os._exit(3)", 3),
                                       ("os.kill(os.getpid(), signal.SIGSEGV)", 128 + signal.SIGSEGV),
                                       ("os.kill(os.getpid(), signal.SIGABRT)", 128 + signal.SIGABRT)])
def test_an_engine_ending_the_fuzzing_process_is_a_finding(tmp_path, how, code):
    done = _rulesfuzz(tmp_path, how)
    assert done.returncode == 1, done.stdout + done.stderr
    key = f"generic.engine_does_not_raise[exit {code}]"
    assert key in done.stdout and "Traceback" not in done.stderr
    files = list((tmp_path / "replays").glob("*.json"))
    assert len(files) == 1
    saved = scenario_file.load(files[0])
    assert saved["key"] == key and len(saved["steps"]) == 3  # the board and the events up to the crashing call
    assert saved["violation"]["invariant"] == "generic.engine_does_not_raise"
    data = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, run_report_schema())
    assert (data["status"], data["exit_code"], [f["key"] for f in data["findings"]]) == ("findings", 1, [key])
    suite = ET.parse(tmp_path / "run.xml").getroot().find("testsuite")
    failure = suite.find("testcase[@name='generic.engine_does_not_raise']/failure")
    assert failure is not None and failure.get("type") == key


def test_the_replay_file_of_a_crash_replays_it_in_a_child_process(tmp_path):
    assert _rulesfuzz(tmp_path, "os._exit(5)").returncode == 1
    replay = next((tmp_path / "replays").glob("*.json"))
    done = subprocess.run([sys.executable, "-m", "harness", "replay", str(replay), "--engine",
                           f"{tmp_path / 'ending.py'}:engine", "--isolate"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 1 and "exit 5" in done.stdout, done.stdout + done.stderr


def test_unsupervised_keeps_the_old_behaviour(tmp_path):
    done = _rulesfuzz(tmp_path, "os._exit(4)", "--unsupervised")
    assert done.returncode == 4  # the engine ended rulesfuzz itself: what --unsupervised is for (pdb)


def test_a_clean_run_prints_and_exits_as_before(tmp_path):
    done = subprocess.run([sys.executable, "-m", "harness", "run", "--engine", "examples/engines/tiny/engine.py:engine",
                           "--max-examples", "10", "--database", "none", "--quiet", "--replay-dir",
                           str(tmp_path / "r")], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.count("No violation in") == 1 and done.stderr == ""


def test_workers_are_supervised_too(tmp_path):
    """With --workers each worker's death in engine code is its slot's finding; the run goes on."""
    done = _rulesfuzz(tmp_path, "os._exit(7)", "--workers", "2")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "generic.engine_does_not_raise[exit 7]" in done.stdout
    files = list((tmp_path / "replays").glob("*.json"))
    assert files and all(scenario_file.load(p)["key"] == "generic.engine_does_not_raise[exit 7]" for p in files)
    data = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, run_report_schema())
    assert data["status"] == "findings"


# ---------------------------------------------------------------- the decision, directly

def _state(phase, finished=None, board=None, steps=()):
    return ChildState(phase, finished, {"name": "e", "version": "1", "seed": 3}, board, list(steps))


def test_the_supervisors_decision():
    board = {"players": [{"id": "P1", "life": 20}, {"id": "P2", "life": 20}], "objects": []}
    assert verdict(0, _state(HARNESS, finished=0)) == Verdict("finished", 0)
    assert verdict(139, _state(ENGINE, finished=2)).kind == "finished"  # it said it finished: its code
    assert verdict(0, _state(ENGINE, board=board)) == Verdict("finding", 1)  # never 0 unless finished
    assert verdict(0, _state(HARNESS)) == Verdict("failed", 3)  # os._exit in the harness's own code
    assert verdict(137, _state(HARNESS)) == Verdict("failed", 3)
    assert verdict(139, _state(LOADING)) == Verdict("engine_load", 2)
    violations, scenario = crash_scenario(_state(ENGINE, board=board, steps=[
        {"event": {"type": "destroy", "targets": []}, "decisions": []}]), 134)
    assert scenario["key"] == "generic.engine_does_not_raise[exit 134]" and scenario["seed"] == 3
    assert violations[0].step == 1 and "SIGABRT" in violations[0].messages[0]


def test_the_monitor_records_the_example_and_the_phase(tmp_path):
    path = new_monitor_file(tmp_path)
    writer = Monitor(path)
    writer.meta("e", "1", 5)
    writer.board({"players": [], "objects": [{"id": "old"}]})
    writer.event({"type": "cast"})
    writer.board({"players": [], "objects": []})  # a new example replaces the last one
    writer.event({"type": "damage", "amount": 1})
    writer.step([{"player": "P1", "kind": "k", "options": ["a"], "answer": "a"}], "illegal_target")
    writer.event({"type": "destroy"})
    writer.map[0] = ENGINE
    state = Monitor(path).state()
    assert (state.phase, state.finished, state.meta["seed"]) == (ENGINE, None, 5)
    assert state.board == {"players": [], "objects": []}
    assert [s["event"]["type"] for s in state.steps] == ["damage", "destroy"]
    assert state.steps[0]["illegal"] == "illegal_target" and state.steps[0]["decisions"][0]["answer"] == "a"
    writer.finished(2)
    assert Monitor(path).state().finished == 2
    os.unlink(path)
