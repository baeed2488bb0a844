"""The wire protocol: schemas agree with harness.protocol, real exchanges validate, and a
child engine that crashes, hangs, prints garbage or exits mid-apply is a finding, never the
end of the run."""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from harness.wire import schemas
from harness.interfaces.cli import main
from harness.running.decider import ReplayDecider
from harness.connection.loading import EngineLoadError, load_engine
from harness.protocol import ENGINE_METHODS, ERROR_CODES, HARNESS_METHODS, PROTOCOL_VERSION, EngineInfo, IllegalAction
from harness.connection.rpc import ProcessEngine
from harness.running.runner import run
from invariants.generic import OBJECT_FIELDS

from .conftest import FORKS, ROOT, board

FAULTY = ROOT / "tests" / "process_engines" / "faulty_engine.py"
SERVE = [sys.executable, "-m", "harness.serve"]


def faulty(mode: str) -> str:
    return f"exec:{sys.executable} {FAULTY} {mode}"


# --------------------------------------------------------------------------- schemas
def test_message_schema_agrees_with_the_protocol_module():
    messages = schemas.load("messages")
    defs = messages["$defs"]
    methods = set(ENGINE_METHODS) | set(HARNESS_METHODS)
    assert set(defs["request"]["properties"]["method"]["enum"]) == methods
    assert {k[: -len("_params")] for k in defs if k.endswith("_params")} == methods
    assert {k[: -len("_result")] for k in defs if k.endswith("_result")} == methods
    assert sorted(defs["error"]["properties"]["code"]["enum"]) == sorted(ERROR_CODES.values())
    info = schemas.load("engine_info")
    assert info["properties"]["protocol"]["const"] == PROTOCOL_VERSION
    assert set(info["properties"]) == {f.name for f in dataclasses.fields(EngineInfo)} | {"protocol"}


def test_observation_schema_agrees_with_the_observation_shape():
    obj = schemas.load("observation")["$defs"]["object"]
    assert set(obj["required"]) == set(OBJECT_FIELDS)
    json_type = {str: "string", int: "integer", bool: "boolean", dict: "object", list: "array", type(None): "null"}
    for name, kind in OBJECT_FIELDS.items():
        spec = obj["properties"][name]
        if "$ref" in spec:
            spec = schemas.load("observation")["$defs"][spec["$ref"].split("/")[-1]]
        expected = {json_type[k] for k in (kind if isinstance(kind, tuple) else (kind,))}
        declared = spec.get("type") or ("string" if "enum" in spec else None)
        assert set([declared] if isinstance(declared, str) else declared) == expected, name


def test_schemas_reject_what_the_protocol_forbids():
    assert schemas.problems({"players": [], "objects": []}, "board")  # at least one player
    assert schemas.problems({"protocol": 1, "name": "x", "version": "1"}, "engine_info")  # no capabilities
    assert schemas.problems({"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "no"}}, "messages")
    assert schemas.message_problems({"jsonrpc": "2.0", "id": 1, "method": "roll_die",
                                     "params": {"player": "P1", "sides": 0}}, "roll_die")
    assert not schemas.message_problems({"jsonrpc": "2.0", "id": "h1", "method": "flip_coin",
                                         "params": {"player": "P1"}}, "flip_coin")


def test_a_real_exchange_validates_against_the_schemas():
    """Every message of a session with the reference engine behind the bridge matches its schema."""
    trace: list = []
    engine = ProcessEngine([*SERVE, "reference"], trace=trace)
    game = engine.new_game(board({"id": "a", "card": "Grizzly Bears"}, {"id": "u", "card": "Hyena Umbra",
                                                                        "attached_to": "a"}))
    game.apply({"type": "destroy", "targets": ["a"], "cant_be_regenerated": False}, ReplayDecider([], strict=False))
    with pytest.raises(IllegalAction) as refused:
        game.apply({"type": "sacrifice", "object": "nobody"}, ReplayDecider([], strict=False))
    assert refused.value.reason and game.observe()["objects"]["a"]["zone"] == "battlefield"
    del game, refused  # the traceback held the game
    gc.collect()
    engine.new_game(board({"id": "b", "card": "Grizzly Bears"}))  # sends the dispose of the first game
    engine.close()
    methods, checked = {}, set()
    for _, message in trace:
        if "method" in message:
            methods[message.get("id")] = message["method"]
            method = message["method"]
        else:
            method = methods[message["id"]]
        assert not schemas.message_problems(message, method), (message, schemas.message_problems(message, method))
        checked.add(method if "method" in message else f"{method} answer")
    assert {"initialize", "new_game", "apply", "dispose", "shutdown", "apply answer"} <= checked


# --------------------------------------------------------------------------- the bridge
def _run_and_close(spec: str, isolate: bool, **options):
    """``run`` of ``spec`` (in process, or behind harness.serve with ``isolate``); the engine is
    closed when the run ends (the child of --isolate is not left to the finalizer)."""
    engine = load_engine(spec, isolate=isolate)
    try:
        return run(engine, **options)
    finally:
        getattr(engine, "close", lambda: None)()


def test_isolated_run_finds_what_the_in_process_run_finds(tmp_path):
    """Same seed, same engine, in-process and behind harness.serve: the same reduced finding,
    exploring (the default of ``rulesfuzz run``)."""
    spec = f"{FORKS / 'umbra_taps_creature.py'}:engine"
    results = []
    for isolate in (False, True):
        result = _run_and_close(spec, isolate, max_examples=300, seed=5, replay_dir=tmp_path / str(isolate),
                                database=None, explore=True)
        assert result.violation is not None
        results.append((result.violation.invariant, result.scenario["board"], result.scenario["steps"],
                        result.examples_to_failure))
    assert results[0] == results[1]


def test_bad_exec_specs_fail_at_load_with_one_line(tmp_path, capsys):
    for spec, says in (("exec:", "no command"), ("exec:/no/such/engine --x", "can't start"),
                       # (ended before it read initialize or before it answered: which one comes first
                       # is the machine's timing, so either is said)
                       (f"exec:{sys.executable} -c pass", ("closed its stdout", "exited (code 0) before reading")),
                       (f"exec:{sys.executable} -c \"print('hello')\"", "not JSON")):
        code = main(["run", "--engine", spec, "--replay-dir", str(tmp_path), "--database", "none"])
        err = capsys.readouterr().err
        said = any(s in err for s in ((says,) if isinstance(says, str) else says))
        assert code == 2 and said and err.count("\n") >= 1 and "Traceback" not in err, err


def test_an_engine_that_answers_initialize_wrongly_is_refused_at_load():
    script = ("import sys,json; m=json.loads(sys.stdin.readline()); "
              "print(json.dumps({'jsonrpc':'2.0','id':m['id'],'result':{'protocol':1,'name':'x'}}), flush=True)")
    with pytest.raises(EngineLoadError, match="'version' must be a non-empty string"):
        load_engine(f"exec:{sys.executable} -c \"{script}\"")


def test_the_bridge_refuses_another_protocol_version():
    proc = subprocess.run([*SERVE, "reference"], input='{"jsonrpc":"2.0","id":1,"method":"initialize",'
                          '"params":{"protocol":99}}\n', capture_output=True, text=True, cwd=ROOT, timeout=60)
    answer = json.loads(proc.stdout.splitlines()[0])
    assert answer["error"]["code"] == ERROR_CODES["protocol_version"]


# --------------------------------------------------------------------------- isolation
@pytest.mark.parametrize("mode,says", [
    ("crash", "exit code -11"),
    ("garbage", "not JSON"),
    ("exit_mid_apply", "exit code 7"),
    ("unexpected", "answered id 424242"),
    ("wrong_result", "answer to apply is not an object"),
    ("hang", "within 2 s"),
])
def test_a_misbehaving_child_is_a_finding_with_its_stderr(mode, says, tmp_path):
    # Only the hang waits for the timeout: the others keep the default, so a loaded machine can't fake a hang.
    timeout = 2.0 if mode == "hang" else 10.0
    engine = load_engine(faulty(mode), step_timeout=timeout)
    result = run(engine, max_examples=60, seed=1, replay_dir=tmp_path, database=None, step_timeout=timeout,
                 steps_per_example=8, shrink=False)
    assert result.violation is not None and result.violation.invariant == "generic.engine_does_not_raise"
    message = "\n".join(result.violation.messages)
    assert says in message and f"about to {mode} on" in message, message
    assert result.replay_path is not None and result.replay_path.exists()
    assert json.loads(result.replay_path.read_text())["steps"][-1]["event"]["type"] == "sacrifice"
    # The child was stopped; the next game gets a fresh one.
    try:
        fresh = engine.new_game(board({"id": "a", "card": "Grizzly Bears"}))
        assert fresh.observe()["objects"]["a"]["zone"] == "battlefield"
        assert engine.restarts >= 1
    finally:
        engine.close()  # the fresh child is stopped here, not left to a finalizer


def test_a_crashing_child_is_reported_shrunk_and_replays(tmp_path, capsys):
    # Four events per example: seed 2 first crashes on four events and 23 objects, shrunk to one
    # event (each shrinking step that crashes starts a new child: with six events it took 3 times as long).
    code = main(["run", "--engine", faulty("crash"), "--max-examples", "200", "--seed", "2", "--replay-dir",
                 str(tmp_path), "--database", "none", "--quiet", "--steps", "4"])
    out = capsys.readouterr().out
    assert code == 1, out
    assert "generic.engine_does_not_raise" in out and "exit code -11" in out and "about to crash" in out
    replays = list(tmp_path.glob("*.json"))
    assert len(replays) == 1 and "pending" not in replays[0].name
    steps = json.loads(replays[0].read_text())["steps"]
    assert [s["event"]["type"] for s in steps] == ["sacrifice"]  # shrunk to the one event that crashes it
    assert main(["replay", str(replays[0]), "--engine", faulty("crash")]) == 1
    assert main(["replay", str(replays[0]), "--engine", faulty("clean")]) == 0


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1][0] != "Z"
    except OSError:
        return False


def test_ctrl_c_reaches_the_harness_not_the_engine_and_is_no_finding(tmp_path):
    """A terminal's Ctrl-C (SIGINT to the foreground process group) while the child hangs in apply."""
    pidfile = tmp_path / "pids"
    proc = subprocess.Popen(
        [sys.executable, "-m", "harness", "run", "--engine", faulty("hang"), "--max-examples", "1000",
         "--step-timeout", "120", "--replay-dir", str(tmp_path / "replays"), "--database", "none", "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        env={**os.environ, "RULESFUZZ_TEST_PIDFILE": str(pidfile)},
        start_new_session=True,  # stands for the terminal's foreground process group
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 60
        while not (pidfile.exists() and "hang" in pidfile.read_text()):
            assert time.monotonic() < deadline and proc.poll() is None, "the engine never reached its hang"
            time.sleep(0.05)
        engine_pids = [int(line.split()[-1]) for line in pidfile.read_text().split("\n") if line]
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, (out, err)
    assert "cut short (interrupted)" in out and "No violation in" in out and "Replay file" not in out, out
    assert not list((tmp_path / "replays").glob("*.json"))
    time.sleep(0.2)
    assert not [pid for pid in engine_pids if _alive(pid)]


def test_processes_an_engine_started_are_stopped_with_it(tmp_path):
    """Each child starts a helper process (as an engine's launcher or server would): whether the
    child crashed (SIGSEGV on every sacrifice: a fresh child per fault) or exited after shutdown
    at the end of the run, its helpers are stopped with it, not left running after the run."""
    pidfile = tmp_path / "pids"
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "harness", "run", "--engine", faulty("crash"), "--max-examples", "30", "--seed",
             "2", "--replay-dir", str(tmp_path), "--database", "none", "--quiet", "--steps", "6", "--keep-going",
             "--no-shrink"],  # every sacrifice still crashes a child: the repeats the run goes on to count
            capture_output=True, text=True, cwd=ROOT, timeout=300,
            env={**os.environ, "RULESFUZZ_TEST_PIDFILE": str(pidfile), "RULESFUZZ_TEST_HELPER": "1"})
        assert proc.returncode == 1, proc.stderr
        helpers = [int(line.split()[1]) for line in pidfile.read_text().splitlines() if line.startswith("helper")]
        assert len(helpers) >= 2  # the crashed children's, and the last child's
        time.sleep(0.2)
        assert not [pid for pid in helpers if _alive(pid)]
    finally:
        for line in pidfile.read_text().splitlines() if pidfile.exists() else ():
            if line.startswith("helper"):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(int(line.split()[1]), signal.SIGKILL)


# --------------------------------------------------------------------------- the records of harness.protocol
def _json_types(annotation) -> set[str]:
    """The JSON types a Python annotation of harness.protocol allows."""
    import types
    import typing

    origin = typing.get_origin(annotation)
    if origin in (typing.Required, typing.NotRequired):
        return _json_types(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        return set().union(*(_json_types(a) for a in typing.get_args(annotation)))
    if origin is typing.Literal:
        return {"null" if v is None else "string" for v in typing.get_args(annotation)}
    if annotation is typing.Any:
        return {"any"}
    simple = {str: "string", int: "integer", bool: "boolean", type(None): "null", list: "array", dict: "object"}
    base = origin or annotation
    if isinstance(base, type) and typing.is_typeddict(base):
        return {"object"}
    return {simple[base]}


def _schema_types(spec: dict, root: dict) -> set[str]:
    if "$ref" in spec:
        ref = spec["$ref"]
        if ref.startswith("#/$defs/"):
            return _schema_types(root["$defs"][ref.split("/")[-1]], root)
        return {"object"}  # another file: boards, events and observations are objects
    if "const" in spec:
        return {"integer" if isinstance(spec["const"], int) else "string"}
    if "enum" in spec:
        return {"null" if v is None else "string" for v in spec["enum"]}
    kind = spec.get("type", "any")
    return set([kind] if isinstance(kind, str) else kind)


@pytest.mark.parametrize("record,schema,where", [
    ("PlayerSpec", "board", ("properties", "players", "items")),
    ("ObjectSpec", "board", ("$defs", "object")),
    ("BoardSpec", "board", ()),
    ("Event", "event", ()),
    ("ObservedPlayer", "observation", ("properties", "players", "additionalProperties")),
    ("ObservedObject", "observation", ("$defs", "object")),
    ("LogEntry", "observation", ("$defs", "log_entry")),
    ("Observation", "observation", ()),
])
def test_each_schema_has_the_fields_and_types_of_its_record_in_harness_protocol(record, schema, where):
    """harness/protocol.py is the single source of shapes: the same fields with the same JSON types."""
    import typing

    import harness.protocol as protocol

    root = schemas.load(schema)
    node = root
    for key in where:
        node = node[key]
    cls = getattr(protocol, record)
    hints = typing.get_type_hints(cls, include_extras=True)
    assert set(node["properties"]) == set(hints), record
    for name, annotation in hints.items():
        expected, declared = _json_types(annotation), _schema_types(node["properties"][name], root)
        assert expected == declared or "any" in expected, (record, name, expected, declared)
    assert set(node.get("required", ())) <= set(hints), record


def test_the_tiny_engine_gives_the_same_findings_in_process_and_over_the_protocol(tmp_path):
    """tiny's buggy variant, same seed, in-process and behind harness.serve: the same distinct findings
    (seed 3 meets all three within a budget of 25, which keep-going spends whole)."""
    spec = f"{ROOT / 'examples' / 'engines' / 'tiny' / 'engine.py'}:buggy"
    found = []
    for isolate in (False, True):
        result = _run_and_close(spec, isolate, max_examples=25, seed=3, replay_dir=tmp_path / str(isolate),
                                database=None, keep_going=True)
        found.append(sorted((f.key, json.dumps(f.scenario["board"]), json.dumps(f.scenario["steps"]))
                            for f in result.findings))
    assert len(found[0]) == 3 and found[0] == found[1]  # the three planted bugs, the same way


FAULTY_JS = ROOT / "tests" / "process_engines" / "faulty_engine.js"


@pytest.mark.parametrize("mode", ["crash"])
def test_keep_going_reports_a_child_fault_and_a_rules_bug_each_with_its_replay_file(mode, tmp_path, capsys, outside_coverage):
    """One Node.js child with two bugs: it dies on every sacrifice, and damage to a player hits the wrong one."""
    if shutil.which("node") is None:
        pytest.fail("node is not installed; .ci/run installs it")
    spec = f"exec:node {FAULTY_JS} {mode} --bug damage_to_wrong_player"
    code = main(["run", "--engine", spec, "--keep-going", "--max-examples", "100", "--seed", "1", "--replay-dir",
                 str(tmp_path), "--database", "none", "--quiet"])
    out = capsys.readouterr().out
    assert code == 1, out
    replays = sorted(p.name for p in tmp_path.glob("*.json"))
    assert [n for n in replays if "engine_does_not_raise" in n] and [n for n in replays if "player_loses_life" in n], \
        (replays, out)
    assert not [name for name in replays if "pending" in name]
    assert f"about to {mode}" in out
    for replay in tmp_path.glob("*.json"):  # each replays to its finding on a fresh child
        assert main(["replay", str(replay), "--engine", spec]) == 1
