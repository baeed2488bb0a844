"""--workers N and --shard K/N: slots with derived seeds, total budgets, deterministic merged
findings, one-line bad values. Run on the tiny engine written from scratch
(examples/engines/tiny/engine.py) and on the reference engine; budgets are small."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from harness.interfaces.cli import main
from harness.reporting.report import run_report_schema
from harness.running.execution import Stats
from harness.running.workers import (
    SMALLEST_SLOT,
    SlotError,
    merge_stats,
    parse_shard,
    parse_workers,
    slot_seed,
    slot_sizes,
    slots,
)

from .conftest import ROOT, one_error_line
from .test_tiny_engine import BUG_INVARIANTS

TINY = str(ROOT / "examples/engines/tiny/engine.py")
BUGGY, CLEAN = f"{TINY}:buggy", f"{TINY}:engine"




def fuzz(folder, engine, *extra, examples=40):
    """A run into ``folder`` with its own fresh directory database; returns (exit code, JSON report)."""
    code = main(["run", "--engine", engine, "--max-examples", str(examples), "--database", str(folder / "db"),
                 "--replay-dir", str(folder / "replays"), "--json", str(folder / "run.json"), "--quiet",
                 *map(str, extra)])
    return code, json.loads((folder / "run.json").read_text())


def findings_of(report) -> dict:
    """finding key -> (board, events) of its shrunk scenario."""
    return {f["key"]: (f["scenario"]["board"], [s["event"] for s in f["scenario"]["steps"]])
            for f in report["findings"]}


@pytest.mark.parametrize("examples", [1, 7, 40, 200, 1001])
@pytest.mark.parametrize("workers, shards", [(1, 1), (2, 1), (3, 1), (1, 4), (2, 3)])
def test_budgets_are_totals_and_shards_together_are_the_workers(examples, workers, shards):
    every = [s for k in range(1, shards + 1) for s in slots(examples, 7, workers, (k, shards))]
    assert sum(s.examples for s in every) == examples
    # --shard K/N with W workers takes slots K-1, K-1+N, ... of a run of N*W processes: all
    # shards together are --workers N*W.
    assert sorted(every, key=lambda s: s.index) == slots(examples, 7, workers * shards)
    assert len({s.seed for s in every}) == len(every) == every[0].total
    for k in range(1, shards + 1):  # each shard takes its slots largest first
        sizes = [s.examples for s in slots(examples, 7, workers, (k, shards))]
        assert sizes == sorted(sizes, reverse=True)


@pytest.mark.parametrize("examples, parts", [(800, 2), (1001, 6), (40, 2), (9, 2), (1, 3), (5000, 16)])
def test_slots_shrink_so_that_workers_end_together(examples, parts):
    """Guided self-scheduling: rounds of ``parts`` slots, each of 1/(2*parts) of what is left,
    down to SMALLEST_SLOT examples, so the last slots a free worker takes are small."""
    sizes = slot_sizes(examples, parts)
    assert sum(sizes) == examples and sizes == sorted(sizes, reverse=True)
    assert all(size >= SMALLEST_SLOT for size in sizes[:-1])
    assert sizes[0] <= max(SMALLEST_SLOT, -(-examples // (2 * parts)))
    if examples >= 4 * parts * SMALLEST_SLOT:  # a budget worth splitting: at least 2 rounds, a small tail
        assert len(sizes) >= 2 * parts and sizes[-1] <= SMALLEST_SLOT
    assert slot_sizes(examples, 1) == [examples] and slot_sizes(0, parts) == []


def test_slot_seeds_are_derived_from_the_run_seed():
    assert slots(50, 7) == slots(50, 7, 1, (1, 1))
    assert [s.seed for s in slots(50, 7)] == [7]  # one slot: the run's own seed
    assert slot_seed(7, 1, 2) == slot_seed(7, 1, 2) != slot_seed(8, 1, 2)
    assert slot_seed(7, 0, 2) != slot_seed(7, 1, 2) != slot_seed(7, 1, 3)


def test_workers_auto_is_the_number_of_cores():
    assert parse_workers("auto") == len(os.sched_getaffinity(0))
    assert parse_workers("3") == 3


@pytest.mark.parametrize("flag, value, words", [
    ("--workers", "0", "expected a positive number or 'auto'"),
    ("--workers", "two", "expected a positive number or 'auto'"),
    ("--shard", "3/2", "1 <= K <= N"),
    ("--shard", "0/2", "1 <= K <= N"),
    ("--shard", "1/0", "1 <= K <= N"),
    ("--shard", "2", "1 <= K <= N"),
    ("--shard", "a/b", "1 <= K <= N"),
])
def test_bad_workers_and_shards_are_one_line_exit_2(flag, value, words, tmp_path, capsys):
    assert main(["run", "--engine", CLEAN, "--replay-dir", str(tmp_path), flag, value]) == 2
    line = one_error_line(capsys)
    assert flag in line and words in line
    with pytest.raises(SlotError):
        (parse_workers if flag == "--workers" else parse_shard)(value)


def test_a_shard_with_no_example_left_is_one_line_exit_2(tmp_path, capsys):
    assert main(["run", "--engine", CLEAN, "--replay-dir", str(tmp_path), "--max-examples", "2",
                 "--shard", "3/3", "--database", "none"]) == 2
    assert "leaves this part of the run no example" in one_error_line(capsys)


def test_merged_stats_are_sums():
    a, b = Stats(examples=3, steps=10), Stats(examples=4, steps=1)
    a.checked, b.checked = {"x": 2}, {"x": 3, "y": 1}
    a.declines, b.declines = {"board:token": 1}, {}
    total = merge_stats([a, b])
    assert (total.examples, total.steps, total.checked, total.declines) == (7, 11, {"x": 5, "y": 1},
                                                                             {"board:token": 1})


def test_two_workers_merge_distinct_findings_the_same_every_time(tmp_path, capsys):
    first, again = tmp_path / "first", tmp_path / "again"
    code, report = fuzz(first, BUGGY, "--workers", 2, "--keep-going")
    assert code == 1
    found = findings_of(report)
    # The tiny engine's cheapest planted bug: damage kept on a creature in the graveyard (CR 400.7).
    assert "generic.damage_only_on_battlefield" in found
    assert len(report["findings"]) == len(found)  # distinct keys
    # Every finding has its replay file in the replay folder; no slot folder is left behind.
    files = sorted((first / "replays").iterdir())
    assert sorted(str(p) for p in files) == sorted(f["replay_file"] for f in report["findings"])
    for finding in report["findings"]:
        assert main(["replay", finding["replay_file"], "--engine", BUGGY]) == 1
    # The same seed and worker count give the same findings.
    code_again, report_again = fuzz(again, BUGGY, "--workers", 2, "--keep-going")
    assert (code_again, findings_of(report_again)) == (code, found)


def test_shards_of_a_run_together_find_what_its_workers_find(tmp_path, capsys):
    """Shards 1/2 and 2/2 of a run (--explore, quick) together find what --workers 2 finds."""
    _, report = fuzz(tmp_path / "workers", BUGGY, "--workers", 2, "--keep-going", "--explore")
    found = findings_of(report)
    assert "generic.damage_only_on_battlefield" in found
    shards = {}
    for k in (1, 2):
        _, shard_report = fuzz(tmp_path / f"shard{k}", BUGGY, "--shard", f"{k}/2", "--keep-going", "--explore")
        for key, scenario in findings_of(shard_report).items():
            shards.setdefault(key, scenario)
    assert shards == found


def test_workers_budget_is_a_total_on_a_clean_engine(tmp_path, capsys):
    code, one = fuzz(tmp_path / "one", CLEAN, examples=20)
    code_two, two = fuzz(tmp_path / "two", CLEAN, "--workers", 2, examples=20)
    assert code == code_two == 0
    # Hypothesis may run a few examples beyond max_examples (each slot): about the same total, not twice.
    assert 20 <= two["stats"]["examples"] <= one["stats"]["examples"] + 6
    assert set(two["stats"]["invariants"]) == set(one["stats"]["invariants"])
    assert "No violation" in capsys.readouterr().out


def test_workers_against_the_reference_engine(tmp_path, capsys):
    """Differential mode with two workers: each worker loads both engines from their specs."""
    code, report = fuzz(tmp_path, CLEAN, "--workers", 2, "--against", "reference", examples=8)
    assert code == 0, capsys.readouterr()
    assert report["stats"]["invariants"]["differential.matches_reference"]["checked"] > 0


def test_ctrl_c_reaches_every_worker_and_keeps_what_was_found(tmp_path):
    """SIGINT to the rulesfuzz process alone (as `kill -INT` does; a terminal's Ctrl-C reaches every
    worker anyway): it is passed on to the workers, each ends with its findings, which are merged,
    reported and on disk; exit 1 since something was found."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "harness", "run", "--engine", BUGGY, "--max-examples", "1000000", "--workers", "2",
         "--keep-going", "--replay-dir", str(tmp_path / "replays"), "--database", "none", "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        # pytest-xdist workers ignore SIGINT and children inherit that: restore the default.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        ready = proc.stdout.readline()
        assert ready.startswith("rulesfuzz: fuzzing"), ready
        deadline = time.monotonic() + 60
        while not list((tmp_path / "replays").rglob("*.json")) and time.monotonic() < deadline:
            time.sleep(0.2)  # until a worker has saved its first finding
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 1, err
    assert "cut short (interrupted)" in out and "Traceback" not in err
    files = list((tmp_path / "replays").glob("*.json"))
    # which worker saved a finding first is the machine's timing: any of the planted bugs
    keys = {json.loads(p.read_text())["key"] for p in files}
    assert files and keys <= set().union(*BUG_INVARIANTS.values()), keys
    assert not any(p.name.startswith(".slot-") for p in (tmp_path / "replays").iterdir())


EXITING_ENGINE = """
import os
from harness.protocol import EngineInfo


class Game:
    def apply(self, event, decider):
        os._exit(7)

    def observe(self):
        return {"players": {}, "objects": {}, "zones": {}, "log": []}


class Exiting:
    info = EngineInfo(name="exiting", version="1", capabilities=frozenset({"destroy", "damage"}))

    def new_game(self, board):
        return Game()


engine = Exiting()
"""


def test_a_worker_whose_engine_ends_the_process_is_one_line_exit_3(tmp_path, capsys):
    engine_file = tmp_path / "exiting.py"
    engine_file.write_text(EXITING_ENGINE, encoding="utf-8")
    assert main(["run", "--engine", f"{engine_file}:engine", "--workers", "2", "--max-examples", "4",
                 "--database", "none", "--quiet", "--replay-dir", str(tmp_path / "replays"),
                 "--json", str(tmp_path / "run.json"), "--junit-xml", str(tmp_path / "run.xml")]) == 3
    line = one_error_line(capsys)
    assert "ended without a result (exit code 7)" in line and "--isolate" in line
    # the reports are written too: status failed, exit code 3, the error, nothing found
    data = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, run_report_schema())
    assert (data["status"], data["exit_code"], data["findings"]) == ("failed", 3, [])
    assert "ended without a result (exit code 7)" in data["error"] and line.endswith(data["error"])
    suite = ET.parse(tmp_path / "run.xml").getroot().find("testsuite")
    error = suite.find("testcase[@name='run']/error")
    assert error.get("type") == "failed" and "exit code 7" in error.get("message")
    assert (suite.get("errors"), suite.get("failures")) == ("1", "0")
    if Path("/dev/full").exists():  # a report that can't be written then: said in one line, still exit 3
        assert main(["run", "--engine", f"{engine_file}:engine", "--workers", "2", "--max-examples", "4",
                     "--database", "none", "--quiet", "--replay-dir", str(tmp_path / "replays"),
                     "--json", "/dev/full"]) == 3
        err = capsys.readouterr().err
        assert "Traceback" not in err and [line.split(":")[1] for line in err.splitlines()] == [" error"] * 2
        assert "/dev/full" in err and "ended without a result (exit code 7)" in err
    # no slot wrote a file: the line points to no folder (none was made)
    assert "files so far" not in line and not (tmp_path / "replays").exists()
    # a slot that wrote a file: the line says where
    from harness.running.workers import SlotJob, WorkerFailed, collect

    jobs = [SlotJob(slot, CLEAN, None, "none", str(tmp_path / "kept"), False, True, {}) for slot in slots(40, 0, 2)]
    (tmp_path / "kept" / ".slot-1-of-5").mkdir(parents=True)
    (tmp_path / "kept" / ".slot-1-of-5" / "tiny-x-pending.json").write_text("{}", encoding="utf-8")
    with pytest.raises(WorkerFailed, match=r"files so far are in .*kept"):
        collect({0: ("end", None), 1: ("died", 7)}, {}, jobs, 2, running={1: 1})


def test_run_workers_python_api_on_the_reference_engine(tmp_path):
    """The API benchmarks use (benchmarks/throughput.py's workers scaling): the same run as the CLI's."""
    from harness.running.workers import run_workers

    result = run_workers("reference", workers=2, max_examples=10, replay_dir=tmp_path, steps_per_example=5)
    from harness.adapters.reference import ReferenceAdapter

    assert result.engine == ReferenceAdapter().info.name and not result.findings
    assert 10 <= result.stats.examples <= 16 and result.stats.steps > 0


def test_workers_on_an_engine_in_another_language(tmp_path, capsys):
    """Each worker starts its own child of an exec: engine (the Node.js example engine, with its
    planted bug of damage kept on a creature put into a graveyard, CR 400.7)."""
    node = f"exec:node {ROOT / 'examples/engines/node/engine.js'} --bug damage_kept_off_battlefield"
    code, report = fuzz(tmp_path, node, "--workers", 2, examples=20)
    assert code == 1
    assert [f["key"] for f in report["findings"]] == ["generic.damage_only_on_battlefield"]
    assert main(["replay", report["findings"][0]["replay_file"], "--engine", node]) == 1


def test_a_worker_interrupted_while_starting_loses_nothing_the_others_found():
    """A Ctrl-C that reaches a worker still starting (before its run had a result): the other
    workers' results are kept and the run is cut short, not ended with nothing (exit 130
    with their findings lost). Only when no slot has a result is it an interrupt."""
    from harness.running.runner import RunResult
    from harness.running.workers import SlotJob, WorkerFailed, collect, slots

    jobs = [SlotJob(slot, "reference", None, "none", None, False, True, {}) for slot in slots(100, 0, workers=3)]
    found = RunResult("engine", Stats(examples=4))
    other = RunResult("engine", Stats(examples=5))
    ends = {0: ("end", "interrupted"), 1: ("end", "interrupted"), 2: ("died", -2)}
    assert collect(ends, {4: other, 0: found}, jobs, 3, interrupted=True) == ([found, other], "interrupted")
    ended = {0: ("end", None), 1: ("end", None), 2: ("end", None)}
    assert collect(ended, {1: other, 0: found}, jobs, 3) == ([found, other], None)
    assert collect({**ended, 1: ("end", "time budget")}, {0: found}, jobs, 3) == ([found], "time budget")
    # no slot has a result: an empty one, interrupted (its reports are written; was a KeyboardInterrupt)
    assert collect(ends, {}, jobs, 3, interrupted=True) == ([], "interrupted")
    with pytest.raises(WorkerFailed, match=r"worker 3/3 ended without a result \(exit code 7\) in slot 5/"):
        collect({**ended, 2: ("died", 7)}, {0: found}, jobs, 3, running={2: 4})  # no Ctrl-C: the engine ended it
    with pytest.raises(WorkerFailed, match="worker 2/3 failed"):
        collect({**ended, 1: ("error", "Traceback ...")}, {0: found}, jobs, 3, interrupted=True)


def test_findings_depend_on_the_slots_not_on_which_worker_ran_them(tmp_path):
    """The same slots run one after another in this process and by two and three worker processes
    taking them as they come free: the same findings (key and shrunk scenario), each slot
    reading the example database as it was when the run started."""
    from harness.running.workers import SlotJob, run_slots

    runs = {}
    for workers in (1, 2, 3):
        folder = tmp_path / str(workers)
        jobs = [SlotJob(slot, BUGGY, None, str(folder / "db"), str(folder / "replays"), False, True,
                        {"keep_going": True, "steps_per_example": 8, "explore": True}) for slot in slots(80, 3, 2)]
        result = run_slots(jobs, "tiny", workers)
        runs[workers] = {f.key: (f.scenario["board"], [s["event"] for s in f.scenario["steps"]])
                         for f in result.findings}
        assert result.slots["slots"] == len(jobs) and sum(result.slots["taken"]) == len(jobs)
        assert len(result.slots["taken"]) == min(workers, len(jobs))
    assert runs[1] and runs[1] == runs[2] == runs[3]
    assert "generic.damage_only_on_battlefield" in runs[1]


LATE_SECOND_WORKER = """
import multiprocessing
import os
import time
from pathlib import Path

from examples.engines.tiny.engine import TinyEngine

# Worker process 2 takes its slot as soon as it starts, then loads this engine: it waits (up
# to 3 s) until the run's example database holds something, as a worker whose slot begins
# late (a slow engine start, a busy core) would, after the other worker ran its slots.
if multiprocessing.current_process().name == "rulesfuzz-worker-2":
    folder, until = Path(os.environ["RULESFUZZ_TEST_DATABASE"]), time.monotonic() + 3
    while time.monotonic() < until and not (folder.is_dir() and any(folder.iterdir())):
        time.sleep(0.05)

engine = TinyEngine(bugs={"deathtouch_ignored"})
"""


def test_a_slot_begun_late_never_replays_a_failure_another_worker_found(tmp_path, monkeypatch):
    """Slot 1 of 2 (seed 3, 8 examples of 4 events) doesn't meet the 704.5h bug that slot 0
    finds. When worker 2 begins slot 1 only after worker 1 ended, slot 1 still reads the
    example database as it was when the run started: worker 1's failure is not replayed in
    it (no repeat, not from the database), as when the slots run one after another in this
    process; the failure is in the database once the run ended, for the next run."""
    from harness.running.workers import SlotJob, run_slots

    engine_file = tmp_path / "late_second_worker.py"
    engine_file.write_text(LATE_SECOND_WORKER, encoding="utf-8")
    runs = {}
    for workers in (1, 2):
        folder = tmp_path / str(workers)
        monkeypatch.setenv("RULESFUZZ_TEST_DATABASE", str(folder / "db"))
        jobs = [SlotJob(slot, f"{engine_file}:engine", None, str(folder / "db"), str(folder / "replays"), False,
                        True, {"steps_per_example": 4}) for slot in slots(16, 3, 2)]
        result = run_slots(jobs, "tiny", workers)
        runs[workers] = {f.key: (f.repeats, f.from_database, f.scenario["steps"]) for f in result.findings}
        assert any((folder / "db").iterdir()), (workers, runs, result.slots, getattr(result, "error", None))
    assert runs[1] == runs[2]
    assert "sba.deathtouch_damage" in runs[1]


def tiny_in_workers(path, when: str, then: str, bugs: str = "set()") -> str:
    """Write to ``path`` an engine file: the tiny engine with ``bugs`` (Python, e.g. ``"BUGS"``),
    whose ``new_game`` runs ``then`` when ``when`` holds (Python, with ``WORKER``: this worker
    process's number, 0 outside workers); returns its engine spec."""
    path.write_text(f"""
import multiprocessing
import os
import time
from pathlib import Path

from examples.engines.tiny.engine import BUGS, TinyEngine

NAME = multiprocessing.current_process().name
WORKER = int(NAME.rsplit("-", 1)[1]) if NAME.startswith("rulesfuzz-worker-") else 0


class TinyInWorkers(TinyEngine):
    def new_game(self, board):
        if {when}:
            {then}
        return super().new_game(board)


engine = TinyInWorkers(bugs={bugs})
""", encoding="utf-8")
    return f"{path}:engine"


def test_a_worker_on_a_slower_core_takes_fewer_slots(tmp_path):
    """Worker 1 is slowed down (40 ms a game): it is still on its first slot of 50 examples (2 s)
    while worker 2 runs all the others (150 examples of the tiny engine), so worker 2 takes
    more slots; the run reports how many each took, and its budget is still the total."""
    from harness.running.workers import run_workers

    spec = tiny_in_workers(tmp_path / "slow_first_worker.py", "WORKER == 1", "time.sleep(0.04)")
    result = run_workers(spec, workers=2, max_examples=200, seed=0, replay_dir=tmp_path,
                         explore=True, steps_per_example=5)
    assert not result.findings and result.cut_short is None
    assert result.slots == {"slots": len(slots(200, 0, 2)), "taken": result.slots["taken"]}
    slow, fast = result.slots["taken"]
    assert slow + fast == len(slots(200, 0, 2)) and slow < fast
    assert result.stats.examples >= 200


def test_the_time_budget_is_the_whole_runs_over_workers(tmp_path, monkeypatch):
    """--max-seconds with workers bounds the whole run, not each worker: its deadline is set once,
    as the run starts; no slot starts after it, and a running slot gets the time left (loading its
    engine included); the run says it was cut short by its time budget.

    Checked on what the workers did, not on how fast they did it: each game writes down when it
    starts, and none starts after the run's deadline but the one each worker had begun then (it
    stops at its next step). A loaded machine starts fewer games, or none when spawning the
    workers takes longer than the budget, and passes all the same; budgets of each worker's own
    (counted from when it started, or each slot's from its own start) start games after the
    run's deadline for as long as the workers took to start, 25 a second each."""
    from harness.running import workers

    deadlines = []
    run_processes = workers.run_processes

    def recording(jobs, count, deadline, *args, **kwargs):
        deadlines.append(deadline)  # the run's deadline, a time.time(), as its processes are given it
        return run_processes(jobs, count, deadline, *args, **kwargs)

    monkeypatch.setattr(workers, "run_processes", recording)
    starts = tmp_path / "starts"
    starts.mkdir()
    write_start = f"Path({str(starts)!r}, str(os.getpid())).open('a').write(repr(time.time()) + chr(10))"
    spec = tiny_in_workers(tmp_path / "slow.py", "True", f"{write_start}; time.sleep(0.04)")
    result = workers.run_workers(spec, workers=2, max_examples=100_000, seed=0, replay_dir=tmp_path,
                                 explore=True, steps_per_example=5, max_seconds=2.0)
    # the deadline ended it, not the examples (100 000 games of 0.04 s), and not before its time
    assert result.cut_short == "time budget" and not result.findings
    assert result.seconds >= 2.0 - 0.05  # (a margin for the clock being set meanwhile)
    (deadline,) = deadlines
    games = {path.name: [float(line) for line in path.read_text().split()] for path in starts.iterdir()}
    late = {pid: sum(start > deadline for start in times) for pid, times in games.items()}
    assert all(n <= 1 for n in late.values()), late
    assert result.stats.examples <= sum(len(times) for times in games.values())  # every example began a game


class _CtrlCWhileSending:
    """A worker's end of its pipe, on which a Ctrl-C (SIGINT to this process) arrives while the
    first slot's result is being sent; keeps the messages."""

    def __init__(self):
        self.messages = []

    def send(self, message):
        if message[0] == "ok" and not any(m[0] == "ok" for m in self.messages):
            os.kill(os.getpid(), signal.SIGINT)
        self.messages.append(message)

    def close(self):
        pass


def test_a_ctrl_c_while_a_worker_sends_a_slots_result_loses_nothing(tmp_path):
    """A Ctrl-C that reaches a worker process between two slots, while it sends the result of the
    one it ran: the result (with its findings) is still sent, the worker takes no other slot,
    and it ends as interrupted. (Was: the KeyboardInterrupt landed in the send and the slot's
    findings never reached the run.)"""
    import multiprocessing

    from harness.running.workers import SlotJob, _worker_process

    jobs = [SlotJob(slot, BUGGY, None, "none", str(tmp_path), False, True, {"steps_per_example": 4})
            for slot in slots(32, 3, 2)]
    conn = _CtrlCWhileSending()
    _worker_process(jobs, 0, 1, multiprocessing.Value("i", 0), None, conn)
    assert [m[0] for m in conn.messages] == ["start", "ok", "end"]
    assert conn.messages[1][2].findings and conn.messages[-1] == ("end", "interrupted")


def test_a_worker_whose_engine_ends_its_process_stops_the_run_at_once(tmp_path):
    """Worker 2's engine ends its process at its first game: the run fails at once, naming the
    worker, its exit code and its slot, instead of when worker 1 alone has run the whole
    budget (5000 examples: more than half a minute) only to fail then."""
    from harness.running.workers import WorkerFailed, run_workers

    spec = tiny_in_workers(tmp_path / "second_worker_exits.py", "WORKER == 2", "os._exit(3)")
    with pytest.raises(WorkerFailed, match=r"worker 2/2 ended without a result \(exit code 3\) in slot \d+/") as failed:
        run_workers(spec, workers=2, max_examples=5000, seed=0, replay_dir=tmp_path,
                    steps_per_example=5)
    slots_of_run = failed.value.result.slots  # counted, not timed: the run stopped with slots left
    assert sum(slots_of_run["taken"]) < slots_of_run["slots"]


def test_a_worker_that_dies_does_not_lose_what_the_other_slots_found(tmp_path, capsys):
    """Worker 2's engine ends its process once worker 1 has saved a failure of the tiny engine's
    planted bugs. The run exits 3 with one line naming the failed worker, and
    still reports the findings of the slots that ended, each with its replay file in the
    replay folder, which replays."""
    # worker 2 has no planted bug, and exits (code 7) at its first game after worker 1 saved a failure
    spec = tiny_in_workers(tmp_path / "second_worker_exits_later.py",
                           f"WORKER == 2 and any(Path({str(tmp_path / 'replays')!r}).rglob('*.json'))",
                           "os._exit(7)", bugs="set() if WORKER == 2 else BUGS")
    code = main(["run", "--engine", spec, "--workers", "2", "--max-examples", "3000", "--database", "none",
                 "--replay-dir", str(tmp_path / "replays"), "--steps", "5", "--json", str(tmp_path / "run.json"),
                 "--junit-xml", str(tmp_path / "run.xml")])
    out, err = capsys.readouterr()
    assert code == 3
    errors = [line for line in err.splitlines() if line.startswith("rulesfuzz: error:")]
    assert len(errors) == 1 and "worker 2/2 ended without a result (exit code 7)" in errors[0]
    assert "finding(s) of the slots that ended before a worker failed" in out
    files = sorted((tmp_path / "replays").glob("*.json"))
    # which slots had ended when worker 2 died is the machine's timing: any of the planted bugs
    keys = {json.loads(p.read_text())["key"] for p in files}
    assert files and keys <= set().union(*BUG_INVARIANTS.values()), keys
    assert all(str(p) in out for p in files)
    assert main(["replay", str(files[0]), "--engine", f"{TINY}:buggy"]) == 1
    # the reports carry them too (status failed, exit 3): a CI system shows the rules bugs found
    data = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, run_report_schema())
    assert (data["status"], data["exit_code"]) == ("failed", 3) and "worker 2/2" in data["error"]
    assert {f["replay_file"] for f in data["findings"]} == {str(p) for p in files}
    suite = ET.parse(tmp_path / "run.xml").getroot().find("testsuite")
    failed = {case.get("name") for case in suite.findall("testcase") if case.find("failure") is not None}
    assert keys <= failed
    assert suite.find("testcase[@name='run']/error").get("type") == "failed"
