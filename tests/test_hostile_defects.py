"""Hostile trials (issue 22, items 5 and 6): each test is one defect the trials found, and
failed before its fix. Engines here wrap the tiny engine (examples/engines/tiny), a
known-good engine, with one hostile habit that is not a rules bug."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness.reporting import report
from harness.interfaces.cli import main

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "examples" / "engines" / "tiny" / "engine.py"


def _tiny():
    spec = importlib.util.spec_from_file_location("tiny_engine_for_hostile_defects", TINY)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


tiny = _tiny()


def _update_in_place(old: dict, new: dict) -> None:
    """Make ``old`` equal to ``new``, keeping every dict of ``old`` that is still there (the aliasing)."""
    for key in list(old):
        if key not in new:
            del old[key]
    for key, value in new.items():
        if isinstance(value, dict) and isinstance(old.get(key), dict):
            _update_in_place(old[key], value)
        else:
            old[key] = value


class AliasingGame:
    """The tiny engine's game, observed as one dict returned every time and changed in place by ``apply``."""

    def __init__(self, board):
        self.inner = tiny.TinyGame(board, frozenset())
        self.state = self.inner.observe()

    def apply(self, event, decider):
        try:
            return self.inner.apply(event, decider)
        finally:
            _update_in_place(self.state, self.inner.observe())

    def observe(self):
        return self.state


class Aliasing:
    info = tiny.engine.info

    def new_game(self, board):
        return AliasingGame(board)


aliasing = Aliasing()


def test_an_engine_that_returns_one_dict_changed_in_place_is_not_a_rules_violation(tmp_path):
    """(a) The harness keeps what it observed, not the engine's dict: an engine that changes its
    observation in place at the next ``apply`` judges as clean as the engine it wraps."""
    code = main(["run", "--engine", f"{__file__}:aliasing", "--max-examples", "15", "--seed", "0",
                 "--database", "none", "--replay-dir", str(tmp_path / "out"), "--quiet"])
    assert code == 0


def _scenario(objects: int, steps: int) -> dict:
    return {"format": "rulesfuzz-scenario/2",
            "board": {"players": [{"id": "P1", "life": 20}, {"id": "P2", "life": 20}],
                      "objects": [{"id": f"c{i}", "card": "Grizzly Bears", "owner": "P1"} for i in range(objects)]},
            "steps": [{"event": {"type": "pass_step"}, "decisions": []} for _ in range(steps)]}


@pytest.mark.parametrize("objects, steps, what", [(10_001, 1, "10,001 objects"), (1, 10_001, "10,001 steps")])
def test_a_scenario_past_the_size_limits_is_bad_input_in_one_line(tmp_path, capsys, objects, steps, what):
    """(b) A huge scenario is not replayed for minutes: it is bad input (exit 2), said in one line."""
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(_scenario(objects, steps)))
    assert main(["replay", str(path), "--engine", f"{TINY}:engine"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and what in err


def test_printing_a_huge_scenario_summarises_it():
    """(b) Printing a scenario lists a bounded number of objects and events and says how many it left out."""
    text = report.describe_scenario(_scenario(5_000, 3_000))
    assert len(text.splitlines()) < 200
    assert "4,940 more objects" in text and "2,940 more events" in text
    assert "  3000. " in text  # the last event (usually the finding's) is shown


def test_an_aura_gone_by_a_state_based_action_is_named_not_counted_as_nothing_left():
    """(h) Umbra armor saves the Bears, but the engine logs the Aura's going as 704.5m (a
    state-based action), not as destroyed instead: the message says what was expected and
    what was seen, never "0 of them left the battlefield" about an Aura that left."""
    from invariants import REGISTRY, Transition

    from .test_invariants import BEARS_ALONE, GRAVEYARD, MURDER, enchanted_bears, sba, step, umbra_replaces

    before = enchanted_bears()
    after = step(before, {"b": {"damage": 0, **BEARS_ALONE}, "h": GRAVEYARD},
                 [umbra_replaces("h", "b"), sba("h", "704.5m")])
    messages = REGISTRY["umbra_armor.exactly_one_aura"].check(Transition(before, MURDER, after))
    assert len(messages) == 1
    assert "0 of them left the battlefield" not in messages[0]
    assert "expected 1 of them destroyed instead" in messages[0] and "['h'] left the battlefield by a state-based action" in messages[0]


def test_a_token_gone_without_its_log_entry_says_which_entry_is_missing():
    """(h) A token that ceased to exist with no log entry: the message names the entry expected
    (a zone_change to null, CR 704.5d), not just "vanished"."""
    from invariants import REGISTRY

    from .test_invariants import murdered_token, with_after

    t = with_after(murdered_token(), lambda o: o["log"].pop())
    messages = REGISTRY["generic.objects_conserved"].check(t)
    assert len(messages) == 1 and "zone_change" in messages[0] and "to null" in messages[0] and "704.5d" in messages[0]


FAULTY = ROOT / "tests" / "process_engines" / "faulty_engine.py"


@pytest.mark.parametrize("mode, says", [("garbage_once", "not JSON"), ("blank_once", ""),
                                        ("unexpected_once", "answered id 424242")])
def test_a_one_off_protocol_error_is_reported_as_a_protocol_error(mode, says, tmp_path, monkeypatch):
    """(c) A child engine that breaks the protocol once (the same example then passes when run
    again) is a protocol-error finding with the error's message, not "determinism ... failed once"."""
    from harness.connection.loading import load_engine
    from harness.running.runner import run

    monkeypatch.setenv("RULESFUZZ_TEST_ONCE", str(tmp_path / "once"))
    engine = load_engine(f"exec:{sys.executable} {FAULTY} {mode}", step_timeout=10.0)
    try:
        result = run(engine, max_examples=60, seed=1, replay_dir=tmp_path / "out", database=None, step_timeout=10.0,
                     steps_per_example=8, shrink=False)
    finally:
        engine.close()
    assert (tmp_path / "once").exists()
    assert result.violation is not None
    assert result.violation.invariant == "generic.engine_does_not_raise", result.violation
    message = "\n".join(result.violation.messages)
    assert says in message and f"about to {mode} on" in message, message
    assert "once" in message  # and it says it did not happen again


def test_a_determinism_finding_shows_the_fields_that_differ():
    """(c) A second run that differs says where: the first differing paths with both values."""
    from invariants import REGISTRY, ScenarioRun

    from .test_invariants import plain_bears

    first = [plain_bears(), plain_bears()]
    second = [plain_bears(), plain_bears(damage=1)]
    run = ScenarioRun({}, [{"type": "pass_step"}], first, lambda every_step=True: second if every_step else second[-1:])
    messages = REGISTRY["generic.determinism"].check(run)
    assert messages[0].startswith("a second run of the same scenario differs after step 1")
    assert "objects.b.damage: first run 0, second run 1" in messages[1:], messages


def test_a_determinism_finding_of_a_failed_second_run_says_why_it_failed():
    """(c) A second run that failed (a one-off error in the replay) says the error, not just "differs"."""
    from invariants import REGISTRY, ScenarioRun

    from .test_invariants import plain_bears

    first = [plain_bears(), plain_bears()]
    second = [plain_bears(), {"replay failed": "EngineFailed: the engine's answer is not JSON"}]
    run = ScenarioRun({}, [{"type": "pass_step"}], first, lambda every_step=True: second if every_step else second[-1:])
    messages = REGISTRY["generic.determinism"].check(run)
    assert messages == ["a second run of the same scenario failed at step 1: EngineFailed: the engine's answer is not JSON"]


def test_a_wrongly_typed_setting_is_bad_input_even_when_the_command_line_overrides_it(tmp_path, monkeypatch, capsys):
    """(e) ``engine = 5`` in ``[tool.rulesfuzz]`` is an error whether or not ``--engine`` is given."""
    (tmp_path / "pyproject.toml").write_text("[tool.rulesfuzz]\nengine = 5\n")
    monkeypatch.chdir(tmp_path)
    assert main(["run", "--engine", f"{TINY}:engine", "--max-examples", "2", "--database", "none", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "engine = 5: expected a string" in err and len(err.strip().splitlines()) == 1


def _with_stdout_closed(*argv: str, cwd=ROOT) -> subprocess.CompletedProcess:
    """``rulesfuzz ARGV`` with its stdout a pipe nobody reads (``| head`` after its first line:
    the reader is gone before the command writes)."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run([sys.executable, "-m", "harness", *argv], stdout=write, stderr=subprocess.PIPE,
                              stdin=subprocess.DEVNULL, text=True, cwd=cwd, timeout=120)
    finally:
        os.close(write)


def test_a_closed_stdout_pipe_does_not_change_the_exit_code():
    """(f) ``rulesfuzz cards | head`` exits 0, with no traceback (it was 141)."""
    done = _with_stdout_closed("cards")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr


def test_a_run_with_findings_piped_into_head_still_fails_and_writes_its_files(tmp_path):
    """(f) A run that finds a bug exits 1 and writes its replay file and JSON report though
    nobody reads its output."""
    done = _with_stdout_closed("run", "--engine", f"{TINY}:buggy", "--max-examples", "40", "--seed", "0",
                               "--database", "none", "--replay-dir", str(tmp_path / "out"),
                               "--json", str(tmp_path / "report.json"))
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert list((tmp_path / "out").glob("*.json")) and json.loads((tmp_path / "report.json").read_text())["findings"]


def test_replaying_a_folder_puts_bad_files_errors_on_stderr(tmp_path, capsys):
    """(g) ``replay DIR``: a bad file's error is on stderr (the outcomes table stays on stdout)."""
    (tmp_path / "bad.json").write_text("{not json")
    assert main(["replay", str(tmp_path), "--engine", f"{TINY}:engine"]) == 2
    out, err = capsys.readouterr()
    assert "not JSON" in err and "not JSON" not in out
    assert "bad input" in out  # the table of outcomes


@pytest.mark.parametrize("command", ["replay", "check", "plan"])
def test_every_step_timeout_option_has_help(command, capsys):
    """(g) ``replay --help`` (and check's, plan's) says what --step-timeout is."""
    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = capsys.readouterr().out
    assert "counts as a hang" in " ".join(out.split("--step-timeout STEP_TIMEOUT\n", 1)[-1].split("--", 1)[0].split())


def _children(pid: int) -> list[int]:
    """The child processes of ``pid`` (Linux: /proc/PID/task/*/children)."""
    out = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            out += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return out


def test_ctrl_c_while_the_workers_start_is_clean_and_writes_the_json(tmp_path):
    """(d) A terminal's Ctrl-C (SIGINT to the whole process group) while ``--workers`` processes
    are starting: one line, exit 130, no KeyboardInterrupt traceback (was: one per worker),
    and the --json report written, status interrupted, its slots filled."""
    import signal
    import time

    report_path = tmp_path / "report.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "harness", "run", "--engine", f"{TINY}:engine", "--workers", "2", "--max-examples",
         "100000", "--database", "none", "--replay-dir", str(tmp_path / "out"), "--json", str(report_path),
         "--quiet", "--unsupervised"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, start_new_session=True,
        # pytest-xdist workers ignore SIGINT and children inherit that: restore the default.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert proc.stdout.readline().startswith("rulesfuzz: fuzzing")
        for _ in range(2000):  # until the first worker process exists: it is importing now
            if _children(proc.pid):
                break
            time.sleep(0.005)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    data = json.loads(report_path.read_text())
    assert data["status"] == "interrupted"
    assert data["slots"] is not None and data["slots"]["slots"] >= 2


class DyingGame:
    """The tiny engine's game, but its process ends at the first cast (an engine's native crash)."""

    def __init__(self, board):
        self.inner = tiny.TinyGame(board, frozenset())

    def apply(self, event, decider):
        if event.get("type") == "cast":
            os._exit(7)
        return self.inner.apply(event, decider)

    def observe(self):
        return self.inner.observe()


class Dying:
    info = tiny.engine.info

    def new_game(self, board):
        return DyingGame(board)


dying = Dying()


def test_a_workers_death_leaves_the_json_report_with_its_slots(tmp_path):
    """(d) A worker process that dies ends the run (exit 3) with a --json report whose ``slots``
    say how many slots there were and how many each worker took (was: null)."""
    report_path = tmp_path / "report.json"
    done = subprocess.run(
        [sys.executable, "-m", "harness", "run", "--engine", f"{__file__}:dying", "--workers", "2",
         "--max-examples", "200", "--seed", "0", "--database", "none", "--replay-dir", str(tmp_path / "out"),
         "--json", str(report_path), "--quiet", "--unsupervised"],
        capture_output=True, stdin=subprocess.DEVNULL, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 3, done.stderr
    data = json.loads(report_path.read_text())
    assert data["status"] == "failed"
    assert data["slots"]["slots"] >= 2 and len(data["slots"]["taken"]) == 2 and sum(data["slots"]["taken"]) >= 1
