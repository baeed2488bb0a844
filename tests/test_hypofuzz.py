"""Continuous fuzzing under HypoFuzz (docs/running-at-scale.md): under ``hypothesis fuzz`` the pytest
plugin's item is a ``pytest.Function`` of the engine's Hypothesis test, whose database is
``--rulesfuzz-database``; the plugin's ordinary item on that database replays what HypoFuzz found.

The first tests need no HypoFuzz (they fake its ``in_hypofuzz_run``). The last two run HypoFuzz
itself, the optional extra ``rulesfuzz[hypofuzz]`` (not installed by ``.[test]`` nor by CI: see
docs/running-at-scale.md for why), and are skipped without it. The buggy engine is the tiny engine
written from scratch (examples/engines/tiny/engine.py) with one planted bug: a creature dealt damage
by a deathtouch source is not destroyed (CR 704.5h), which the invariant ``sba.deathtouch_damage``
catches; its board must hold a deathtouch creature (Typhoid Rats) that deals damage.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from .conftest import ROOT

pytest_plugins = ["pytester"]

TINY = ROOT / "examples/engines/tiny/engine.py"
DEATHTOUCH_IGNORED = textwrap.dedent(f"""\
    import importlib.util
    spec = importlib.util.spec_from_file_location("tiny_engine", {str(TINY)!r})
    tiny = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tiny)
    engine = tiny.TinyEngine(bugs={{"deathtouch_ignored"}})
    """)
FAKE_HYPOFUZZ_RUN = textwrap.dedent("""\
    import sys, types
    sys.modules["hypofuzz.detection"] = types.SimpleNamespace(in_hypofuzz_run=lambda: True)
    """)


def nodeid(spec: str) -> str:
    return f"rulesfuzz::rulesfuzz_engine[{spec}]"


@pytest.mark.parametrize("ci", [None, "true"], ids=["CI unset", "CI=true"])
def test_under_hypofuzz_the_item_is_a_hypothesis_function_on_the_rulesfuzz_database(pytester, monkeypatch, ci):
    """What HypoFuzz collects (``pytest --collect-only -m hypothesis``, as HypoFuzz runs it): the item,
    a ``pytest.Function`` marked ``hypothesis``, whose test's database is the session's default one,
    ``--rulesfuzz-database``, and which is not derandomized (HypoFuzz leaves out a derandomized test).
    With ``CI`` set, Hypothesis's default profile is its ``ci`` one (derandomize=True, no database):
    a team running HypoFuzz in a CI job must still get the item fuzzed."""
    pytester.makeconftest(FAKE_HYPOFUZZ_RUN + textwrap.dedent("""\
        def pytest_collection_finish(session):
            from hypothesis import settings
            for item in session.items:
                chosen = item.obj._hypothesis_internal_use_settings
                print("ITEM", type(item).__name__, [m.name for m in item.iter_markers()], chosen.derandomize,
                      chosen.database is settings().database, type(settings().database).__name__,
                      settings().database.path)
        """))
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    spec = f"{TINY}:buggy"
    result = pytester.runpytest_subprocess("-p", "no:xdist", "-s", "--collect-only", "-m", "hypothesis",
                                           f"--rulesfuzz-engine={spec}", f"--rulesfuzz-database={pytester.path / 'db'}")
    assert result.ret == 0, result.stdout.lines[-10:]
    line = next(line for line in result.stdout.lines if line.startswith("ITEM "))
    assert line.startswith("ITEM RulesfuzzFunction ") and "'hypothesis'" in line and "'rulesfuzz'" in line
    assert line.endswith(f" False True DirectoryBasedExampleDatabase {pytester.path / 'db'}")
    result.stdout.fnmatch_lines([f"*rulesfuzz_engine[[]{spec}[]]*"])


def test_under_hypofuzz_a_database_its_processes_cant_share_is_a_usage_error(pytester, monkeypatch):
    pytester.makeconftest(FAKE_HYPOFUZZ_RUN)
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    result = pytester.runpytest_subprocess("-p", "no:xdist", "--collect-only", f"--rulesfuzz-engine={TINY}:buggy",
                                           "--rulesfuzz-database=memory")
    assert result.ret == 4
    assert "--rulesfuzz-database memory: HypoFuzz's workers and dashboard share the example database" in \
        result.stderr.str()


def test_failures_saved_under_hypofuzzs_key_are_adopted_under_the_runs():
    from hypothesis.database import InMemoryExampleDatabase

    from harness.generation import hypothesis_shim
    from harness.pytest_plugin import adopt_hypofuzz_failures

    db = InMemoryExampleDatabase()
    theirs = hypothesis_shim.state_machine_key(nodeid("x.py:engine").encode())
    db.save(theirs, b"choices-1")
    db.save(theirs, b"choices-2")
    db.save(theirs + b".secondary", b"not shrunk")  # HypoFuzz's unshrunk failures stay its own
    assert adopt_hypofuzz_failures(db, nodeid("x.py:engine"), b"tiny") == 2
    assert set(db.fetch(hypothesis_shim.state_machine_key(b"tiny"))) == {b"choices-1", b"choices-2"}
    assert adopt_hypofuzz_failures(db, nodeid("x.py:engine"), b"tiny") == 0  # once


# ------------------------------------------------------------------ HypoFuzz itself (rulesfuzz[hypofuzz])
#: Set by .ci/run's HypoFuzz stage, which installs the extra in an environment of its own: there a
#: missing HypoFuzz fails these tests instead of skipping them.
REQUIRED = "RULESFUZZ_REQUIRE_HYPOFUZZ"


def _needs_hypofuzz():
    if os.environ.get(REQUIRED):
        import hypofuzz  # noqa: F401  ImportError fails the test: the CI stage installed the extra

        return hypofuzz
    return pytest.importorskip("hypofuzz", reason="HypoFuzz is not installed: it is the optional extra "
                               "rulesfuzz[hypofuzz] (pip install -e '.[hypofuzz]'), not part of .[test]; "
                               ".ci/run tests it in an environment of its own (its licence: "
                               "docs/running-at-scale.md)")


#: HypoFuzz's own worker loop (hypofuzz.hypofuzz.FuzzWorker) on one target, seeded, in a child
#: process: HypoFuzz's collection runs pytest inside it. Prints one JSON line.
DRIVER = textwrap.dedent("""\
    import json, sys
    from random import Random
    from hypofuzz import detection
    detection._in_hypofuzz_run = True  # what `hypothesis fuzz` sets
    from hypofuzz.collection import collect_tests
    from hypofuzz.database import FailureState

    seed, cap, *pytest_args = sys.argv[1:]
    collected = collect_tests(pytest_args)
    [target] = collected.fuzz_targets
    target.random, target.provider.random = Random(int(seed)), Random(int(seed) + 1)
    target._enter_fixtures()
    runs = 0
    while not target.has_found_failure and target.provider.ninputs < int(cap):
        target.run_one()
        runs += 1
    shrunk = list(target.database.failures(state=FailureState.SHRUNK).fetch(target.database_key))
    tracebacks = [target.database.failure_observations(state=FailureState.SHRUNK).fetch(target.database_key, c)
                  for c in shrunk]
    print(json.dumps({"nodeid": target.nodeid, "inputs": target.provider.ninputs, "found": target.has_found_failure,
                      "shrunk": len(shrunk),
                      "tracebacks": [o.metadata.traceback for o in tracebacks if o is not None]}))
    """)


def test_hypofuzz_finds_a_planted_bug_and_the_plugin_item_replays_it_first(tmp_path):
    """HypoFuzz's worker loop, seeded, on the tiny engine with deathtouch ignored, until it saves a
    shrunk failure (at most 2000 inputs): the failure is sba.deathtouch_damage (CR 704.5h), its replay
    file is kept, and the plugin's item on the same database replays it first."""
    _needs_hypofuzz()
    (tmp_path / "deathtouch_ignored.py").write_text(DEATHTOUCH_IGNORED)
    spec = f"{tmp_path / 'deathtouch_ignored.py'}:engine"
    options = [f"--rulesfuzz-engine={spec}", f"--rulesfuzz-database={tmp_path / 'db'}",
               f"--rulesfuzz-replay-dir={tmp_path / 'replays'}"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", DRIVER, "0", "2000", "-p", "no:cacheprovider", "-p", "no:xdist",
                           *options], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"HypoFuzz found the bug after {result['inputs']} inputs")  # shown with -s: what the test measured
    assert result["nodeid"] == nodeid(spec)
    assert result["found"] and result["shrunk"] == 1, result
    assert "Finding_sba_deathtouch_damage" in result["tracebacks"][0]
    assert (tmp_path / "replays" / "tiny-buggy-sba.deathtouch_damage-pending.json").exists()

    replayed = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist",
                               "--rulesfuzz-examples=1", "--rulesfuzz-seed=1", *options],
                              cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert replayed.returncode == 1, replayed.stdout[-3000:]
    assert "REPLAYED from the example database" in replayed.stdout
    assert "VIOLATION sba.deathtouch_damage" in replayed.stdout


def test_hypothesis_fuzz_on_the_command_line_saves_the_bug_in_the_shared_database(tmp_path):
    """``hypothesis fuzz -n 1 --no-dashboard -- --rulesfuzz-engine=...`` (the hub, its worker process)
    on the tiny engine's three planted bugs until its database holds a shrunk failure of the item; then
    its processes are ended. HypoFuzz has no seed and runs until stopped: the test stops it (a 600 s
    guard, not a measurement)."""
    _needs_hypofuzz()
    from hypothesis.database import DirectoryBasedExampleDatabase
    from hypofuzz.database import FailureState, HypofuzzDatabase

    from harness.generation import hypothesis_shim

    spec = f"{TINY}:buggy"
    hypothesis_cli = os.path.join(os.path.dirname(sys.executable), "hypothesis")
    child = subprocess.Popen([hypothesis_cli, "fuzz", "-n", "1", "--no-dashboard", "--", "-p", "no:cacheprovider",
                              "-p", "no:xdist", f"--rulesfuzz-engine={spec}", f"--rulesfuzz-database={tmp_path / 'db'}",
                              f"--rulesfuzz-replay-dir={tmp_path / 'replays'}"],
                             cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, start_new_session=True)
    key = hypothesis_shim.state_machine_key(nodeid(spec).encode())
    shrunk = []
    try:
        guard = time.monotonic() + 600
        while not shrunk and child.poll() is None and time.monotonic() < guard:
            time.sleep(0.5)
            if (tmp_path / "db").is_dir():
                shrunk = list(HypofuzzDatabase(DirectoryBasedExampleDatabase(tmp_path / "db"))
                              .failures(state=FailureState.SHRUNK).fetch(key))
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGTERM)  # the hub, its worker and its multiprocessing manager
        try:
            output, _ = child.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            output, _ = child.communicate()
    assert shrunk, output[-3000:]
    assert "using 1 process to fuzz 1 test" in output
    assert list((tmp_path / "replays").glob("tiny-buggy-*-pending.json"))
