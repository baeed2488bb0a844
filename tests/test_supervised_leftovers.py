"""Leftovers of the supervised run (issue "An adapter in an afternoon"):

(a) a crash the ``--baseline`` lists is a known finding under the supervisor as any known finding
    is unsupervised (harness.reporting.baseline: reported, marked known, exit 0 when every finding is
    known), not exit 1;
(b) a Ctrl-C before any slot ran (``--workers 1``) prints the interrupt summary, writes the
    ``--json`` report and exits 130 (README "Exit codes": interrupted with nothing found), not
    "rulesfuzz: interrupted" alone."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from harness.reporting.report import run_report_schema

from .test_supervisor import ENDING

ROOT = Path(__file__).resolve().parent.parent
KEY = "generic.engine_does_not_raise[exit 5]"


def _baseline(tmp_path, key: str) -> Path:
    path = tmp_path / "baseline.json"
    path.write_text(json.dumps({"format": "rulesfuzz-baseline/1", "findings": [{"key": key, "reason": "issue 7"}]}),
                    encoding="utf-8")
    return path


def _supervised_crash(tmp_path, baseline: Path):
    engine = tmp_path / "ending.py"
    engine.write_text(ENDING.format(how="os._exit(5)"), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "harness", "run", "--engine", f"{engine}:engine", "--max-examples", "20",
         "--database", "none", "--quiet", "--replay-dir", str(tmp_path / "replays"), "--json",
         str(tmp_path / "run.json"), "--baseline", str(baseline)],
        cwd=ROOT, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("listed", [KEY, "generic.engine_does_not_raise"])  # the key, or its bare invariant name
def test_a_crash_in_the_baseline_is_a_known_finding_under_the_supervisor(tmp_path, listed):
    done = _supervised_crash(tmp_path, _baseline(tmp_path, listed))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "KNOWN (baseline: issue 7)" in done.stdout and f"{KEY} (known)" in done.stdout
    assert "a known finding (baseline: issue 7)" in done.stdout and "Traceback" not in done.stderr
    data = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, run_report_schema())
    assert (data["status"], data["exit_code"]) == ("known_findings_only", 0)
    assert [(f["key"], f["known"]) for f in data["findings"]] == [(KEY, "issue 7")]


def test_a_crash_the_baseline_does_not_list_still_fails(tmp_path):
    done = _supervised_crash(tmp_path, _baseline(tmp_path, "generic.engine_does_not_raise[exit 6]"))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "KNOWN" not in done.stdout
    assert json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))["status"] == "findings"


# The run, with a hook that holds the fuzzing process at the start of the run, before any slot
# (or example) ran, until a SIGINT arrives: it says READY on stderr, the test sends SIGINT.
HELD_AT_START = """
import sys, time
from harness.running import interrupts
import {module} as hooked

original = hooked.{function}

def held(*args, **kwargs):
    print("READY", file=sys.stderr, flush=True)
    for _ in range(6000):  # until the SIGINT (a minute at most: then the run just goes on)
        if interrupts.requested():
            break
        time.sleep(0.01)
    return original(*args, **kwargs)

hooked.{function} = held
from harness.interfaces.console import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("split, module, function", [
    (["--workers", "1", "--shard", "1/2"], "harness.running.workers", "work"),  # slots, in this process: none started
    (["--workers", "1"], "harness.running.runner", "make_machine"),  # the plain run, before its first example
])
def test_a_ctrl_c_before_any_slot_ran_prints_the_summary_writes_the_report_and_exits_130(
        tmp_path, split, module, function):
    report = tmp_path / "run.json"
    proc = subprocess.Popen(
        [sys.executable, "-c", HELD_AT_START.format(module=module, function=function), "run", "--engine",
         "examples/engines/tiny/engine.py:engine", "--max-examples", "1000", "--database", "none",
         "--replay-dir", str(tmp_path / "replays"), "--json", str(report), *split],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        # pytest-xdist workers ignore SIGINT and children inherit that: restore the default.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        ready = proc.stderr.readline()
        assert ready.strip() == "READY", ready + proc.stderr.read()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 130, out + err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert "The run was cut short (interrupted)" in out and "No violation in 0 examples" in out
    data = json.loads(report.read_text(encoding="utf-8"))
    jsonschema.validate(data, run_report_schema())
    assert (data["status"], data["exit_code"], data["cut_short"], data["stats"]["examples"]) == (
        "interrupted", 130, "interrupted", 0)
