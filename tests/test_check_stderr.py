"""`rulesfuzz check` on a process engine (``exec:``) shows the engine's stderr tail under a failed
check, as `rulesfuzz run` does under a finding (issue "An adapter in an afternoon"): the crash
the engine reported there, or what it logged before a wrong observation."""

from __future__ import annotations

import sys
from pathlib import Path

from harness.interfaces.cli import main
from harness.running.conformance import CheckResult, stderr_of
from harness.connection.rpc import EngineProcessError

ROOT = Path(__file__).resolve().parent.parent
FAULTY = ROOT / "tests" / "process_engines" / "faulty_engine.py"
TINY = ROOT / "examples" / "engines" / "tiny" / "engine.py"

#: The tiny engine, except that it observes P1's life as 20 whatever the board says, and says on
#: its stderr (where harness.serve sends an engine's prints) which field it read.
WRONG_LIFE = f'''
import sys
sys.path.insert(0, {str(TINY.parent)!r})
import engine as tiny


class Game:
    def __init__(self, game):
        self.game = game

    def apply(self, event, decider):
        return self.game.apply(event, decider)

    def observe(self):
        obs = self.game.observe()
        obs["players"]["P1"]["life"] = 20
        return obs


class Engine:
    info = tiny.engine.info

    def new_game(self, board):
        print("wrong-life engine: life read from players[0].starting_life", file=sys.stderr, flush=True)
        return Game(tiny.engine.new_game(board))


engine = Engine()
'''


def test_a_check_failed_by_a_crash_shows_the_engines_stderr(capsys):
    """The faulty engine (tiny underneath) dies of SIGSEGV on a sacrifice, having said so on its stderr."""
    code = main(["check", "--engine", f"exec:{sys.executable} {FAULTY} crash {TINY}:engine"])
    out = capsys.readouterr().out
    assert code == 1, out
    lines = out.splitlines()
    failed = next(i for i, line in enumerate(lines) if line.startswith("FAIL  illegal_changes_nothing:"))
    assert "exit code -11" in lines[failed]
    assert lines[failed + 1].startswith("      last ") and "of the engine's stderr:" in lines[failed + 1]
    shown = [line for line in lines[failed + 2:] if line.startswith("      | ")]
    assert any("faulty engine: about to crash on" in line for line in shown), out


def test_a_check_failed_without_an_exception_shows_the_engines_stderr_too(tmp_path, capsys):
    """A wrong observation is no exception of the engine: the stderr tail is read from the process."""
    path = tmp_path / "wrong_life.py"
    path.write_text(WRONG_LIFE, encoding="utf-8")
    code = main(["check", "--engine", f"exec:{sys.executable} -m harness.serve {path}:engine"])
    out = capsys.readouterr().out
    assert code == 1, out
    lines = out.splitlines()
    failed = next(i for i, line in enumerate(lines) if line.startswith("FAIL  board_round_trip:"))
    assert "players.P1: expected life 17" in lines[failed]
    assert "| wrong-life engine: life read from players[0].starting_life" in "\n".join(lines[failed + 1:failed + 13])


def test_an_in_process_engine_has_no_stderr_section(capsys):
    assert main(["check", "--engine", f"{TINY}:engine"]) == 0
    assert "stderr" not in capsys.readouterr().out


def test_the_tail_is_read_from_the_fault_or_its_message():
    fault = EngineProcessError("engine process closed its stdout", ["one", "two"])
    assert stderr_of(fault) == ["one", "two"]
    assert stderr_of(TimeoutError("no answer within 2 s\n  last lines of the engine's stderr:\n    | three")) == ["three"]
    assert stderr_of(KeyError("x")) == []
    assert str(CheckResult("x", False, "why", ("a",))).splitlines() == [
        "FAIL  x: why", "      last 1 line of the engine's stderr:", "      | a"]
