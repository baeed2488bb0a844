"""`rulesfuzz run`, `replay` and `check` called in-process (a team's script, a test) shut down the
engine processes they started when they end, found or not, whether the run ended normally or on bad input: an engine
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


@pytest.fixture
def engines_held(monkeypatch):
    """Every engine the command loads, held (as a team's script holding what it loaded would): its
    process must be shut down by the command, not when nothing refers to the engine any more."""
    from harness.connection import loading
    from harness.interfaces import cli

    held: list = []

    def load_and_hold(*args, **kwargs):
        engine = loading.load_engine(*args, **kwargs)
        held.append(engine)
        return engine

    monkeypatch.setattr(cli, "load_engine", load_and_hold)
    return held


@pytest.mark.parametrize("against", [False, True], ids=["engine", "engine-and-against"])
def test_the_engine_processes_of_a_replay_are_shut_down_when_it_ends(against, tmp_path, capsys, engines_held):
    """A replay file written by a run of the tiny engine (written from scratch), replayed on it served
    from a child (``--isolate``; with ``--against`` an ``exec:`` tiny engine too): no process left."""
    replays = tmp_path / "replays"
    buggy = TINY.replace(":engine", ":buggy")
    assert main(["run", "--engine", buggy, "--max-examples", "300", "--database", "none", "--quiet", "--no-shrink",
                 "--replay-dir", str(replays)]) == 1
    capsys.readouterr()
    found = sorted(replays.glob("*.json"))
    assert found
    engines_held.clear()
    gc.disable()
    try:
        before = _engine_children()
        extra = ["--against", f"exec:python3 -m harness.serve {ROOT / 'examples/engines/tiny/engine.py'}:engine"] \
            if against else []
        code = main(["replay", str(found[0]), "--engine", buggy, "--isolate", *extra])
        assert code in (0, 1), capsys.readouterr().err
        assert len(engines_held) == (2 if against else 1)
        assert _engine_children() == before
    finally:
        gc.enable()


def test_the_engine_process_of_a_check_is_shut_down_when_it_ends(capsys, engines_held):
    gc.disable()
    try:
        before = _engine_children()
        assert main(["check", "--engine", TINY, "--isolate"]) == 0, capsys.readouterr().out
        assert len(engines_held) == 1
        assert _engine_children() == before
    finally:
        gc.enable()
