"""`rulesfuzz run` called in-process (a team's script, a test) shuts down the engine processes it
started when it ends, found or not, whether the run ended normally or on bad input: an engine
process left to the garbage collector outlives the run (before, a Node.js engine was still running
after ``main`` returned, until a collection found its ProcessEngine)."""

from __future__ import annotations

import gc
import shutil

import pytest

from harness.interfaces.cli import main

from .conftest import ROOT, child_processes

TINY = f"{ROOT / 'examples/engines/tiny/engine.py'}:engine"
NODE = f"exec:node {ROOT / 'examples/engines/node/engine.js'}"


def _engine_children() -> dict[int, str]:
    return {pid: what for pid, what in child_processes().items() if "engine" in what or "harness.serve" in what}


@pytest.mark.parametrize("engine, extra", [(TINY, ["--isolate"]), (NODE, []), (TINY, ["--isolate", "--invariant", "no.such_invariant"])],
                         ids=["isolated", "exec-node", "bad-input"])
def test_the_engine_processes_of_a_run_are_shut_down_when_it_ends(engine, extra, tmp_path, capsys):
    if engine == NODE and shutil.which("node") is None:
        pytest.fail("node is not installed; .ci/run installs it")
    gc.disable()  # the processes must be shut down by the run, not found by a collection
    try:
        before = _engine_children()
        code = main(["run", "--engine", engine, *extra, "--max-examples", "3", "--database", "none", "--quiet",
                     "--replay-dir", str(tmp_path / "replays")])
        assert code == (2 if "--invariant" in extra else 0), capsys.readouterr().err
        assert _engine_children() == before
    finally:
        gc.enable()
