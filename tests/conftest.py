"""Shared fixtures: a clean reference engine, board builders, and a Hypothesis profile for CI."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from harness.adapters.reference import ReferenceAdapter

# A suite started in the background by a non-interactive shell (`cmd &` without job control) has
# SIGINT ignored, and every process it starts inherits that: the tests of Ctrl-C (they send SIGINT
# to rulesfuzz) need the disposition a terminal gives. A Python handler is reset to the default in
# the processes the tests start (exec), so they get Python's KeyboardInterrupt again.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

ROOT = Path(__file__).resolve().parent.parent
FORKS = ROOT / "examples" / "forks"

settings.register_profile("ci", deadline=None, suppress_health_check=list(HealthCheck), database=None)
settings.load_profile(os.environ.get("RULESFUZZ_HYPOTHESIS_PROFILE", "ci"))


#: The tests that run longest (tens of CPU-seconds each, most starting engine processes again
#: and again), longest first, as node id prefixes: collected before all others (the rest keep
#: their order), so that pytest-xdist's workers start them first and the run doesn't end with
#: one worker still on one of them while the other has nothing left (worksteal takes tests from
#: the end of a worker's queue: short ones, once these are first). A test that stops being slow
#: only loses its place at the front; none depends on it.
SLOW_FIRST = (
    # the longest under coverage at load 4 (two benchmarks beside the suite), longest first
    "tests/test_bugfinding.py::test_the_harness_finds_the_mutant[pokey_flip_keeps_pixie_die]",  # 305 examples
    "tests/test_benchmarks.py::test_bugfinding_explores_by_default_and_finds_the_mutant_in_both_modes",
    "tests/test_state_machine.py::test_reference_engine_runs_clean",
    "tests/test_pool_engine.py::test_buggy_gives_exactly_its_five_findings_in_one_keep_going_run",
    "tests/test_benchmarks.py::test_throughput_reports_the_engine_ratio_last_and_each_invariants_cost",
    "tests/test_playtest_engine.py::test_buggy_gives_both_findings",
    "tests/test_benchmarks.py::test_bugfinding_with_workers_finds_what_rulesfuzz_run_with_workers_finds",
    "tests/test_benchmarks.py::test_bugfinding_budgets_runs_in_examples_and_reports_examples_per_mode",
    "tests/test_guides.py::test_the_guide_does_what_it_says",
    *(f"tests/test_bugfinding.py::test_the_harness_finds_the_mutant[{name}]" for name in (
        "deathtouch_lethal_replaced_once", "stack_fizzled_spell_partly_resolves", "untap_cost_before_mana_check",
        "trample_deathtouch_lethal_is_toughness", "mana_reflection_doubles_untap_ability")),
    "tests/test_bugfinding.py::test_the_harness_finds_the_mutant",
)


@pytest.hookimpl(trylast=True)  # after pytest's own grouping by fixture scope
def pytest_collection_modifyitems(items):
    def rank(item) -> int:
        return next((i for i, prefix in enumerate(SLOW_FIRST) if item.nodeid.startswith(prefix)), len(SLOW_FIRST))

    items.sort(key=rank)  # stable: the same order in every xdist worker, as xdist requires


#: Child processes a test process may keep to its end: multiprocessing's resource tracker
#: (started once by the first spawn-context lock or value, it ends with this process).
LONG_LIVED_CHILDREN = ("multiprocessing.resource_tracker", "multiprocessing.forkserver")


def child_processes(pid: int | None = None) -> dict[int, str]:
    """The child processes of ``pid`` (default this one), each with its command line and state
    (``Z``: ended but never waited for), from /proc/PID/task/*/children (Linux); {} elsewhere."""
    out = {}
    for task in Path(f"/proc/{pid or os.getpid()}/task").glob("*"):
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue
        for child in map(int, children):
            try:
                command = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                state = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except (OSError, IndexError):
                continue  # gone meanwhile
            out[child] = f"{command.strip() or '?'} (state {state})"
    return out


@pytest.fixture(scope="session", autouse=True)
def every_module_imported():
    """Every module of the project's packages (``__main__`` aside) imported at the start of each
    test process's session, while coverage (when on) measures: a module first imported by a test
    that runs outside coverage's tracer (:func:`outside_coverage`) would have its module-level
    lines (definitions, tables) counted as never run."""
    import importlib
    import pkgutil

    for name in ("cards", "harness", "invariants", "reference_engine"):
        package = importlib.import_module(name)
        for found in pkgutil.walk_packages(package.__path__, f"{name}."):
            if not found.name.endswith(".__main__"):
                importlib.import_module(found.name)


@pytest.fixture(scope="session", autouse=True)
def every_child_process_is_reaped():
    """At the end of each test process's session, no child process it started is left, running
    or ended but never waited for (a zombie): every engine process, worker and helper a test
    starts is stopped and reaped, at the latest when nothing refers to it any more (after a
    garbage collection). Those still ending get up to 20 seconds (polled, not timed: on a loaded
    machine an engine process told to stop can take seconds to exit)."""
    yield
    import gc
    import time

    gc.collect()  # engines no test holds any more close their processes (harness.connection.rpc's finalizers)
    left: dict[int, str] = {}
    for _ in range(200):
        left = {pid: what for pid, what in child_processes().items()
                if not any(name in what for name in LONG_LIVED_CHILDREN)}
        if not left:
            return
        time.sleep(0.1)
    pytest.fail("child processes of the test process were left running or unreaped at the end of its session: "
                + "; ".join(f"{pid}: {what[:200]} (first seen alive after {_SEEN_AFTER.get(pid, 'the last test')})"
                            for pid, what in sorted(left.items())), pytrace=False)


#: Each child process seen alive at the end of a test: the first such test (the one that started
#: it, or left it to a finalizer), for :func:`every_child_process_is_reaped`'s message.
_SEEN_AFTER: dict[int, str] = {}


@pytest.fixture(autouse=True)
def children_seen_after_the_test(request):
    """Record after which test each child process was first seen alive. No assertion here: a
    child may rightly outlive its test until a garbage collection closes its engine."""
    yield
    for pid in child_processes():
        _SEEN_AFTER.setdefault(pid, request.node.nodeid)


@pytest.fixture(autouse=True)
def no_card_overlay_leaks():
    """Cards a test adds (an --oracle file, an engine's card_definitions) are the process's
    overlay (cards.add_records): forgotten after the test, so no other test of the same worker
    sees them (e.g. in `rulesfuzz cards --json`)."""
    yield
    import cards
    from cards import reader

    if cards.overlay() or cards.overlay_files():
        cards.clear_overlay()
        reader.model.cache_clear()


@pytest.fixture
def default_sigint():
    """Python's default SIGINT handler for the test (pytest-xdist workers ignore SIGINT), restored after."""
    original = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, original)


@pytest.fixture
def reference():
    return ReferenceAdapter()


def board(*objects, life=20):
    """A two-player board from object dicts; ``owner`` defaults to P1."""
    return {
        "players": [{"id": "P1", "life": life}, {"id": "P2", "life": life}],
        "objects": [{"owner": "P1", **o} for o in objects],
    }


def one_error_line(capsys) -> str:
    """The one line a command printed on stderr for bad input (exit 2), asserting it printed
    exactly one non-blank line there and no traceback anywhere."""
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out
    lines = [line for line in captured.err.splitlines() if line.strip()]
    assert len(lines) == 1, captured.err
    return lines[0]


@pytest.fixture
def outside_coverage():
    """Pause coverage.py's measurement (``.ci/run`` runs pytest with ``--cov``) for the test, if it is on.

    For the long runs: those that prove a run finds a bug (the mutant runs, the example forks' runs)
    and those that prove a run of hundreds of examples stays clean and reaches what it should (the
    state machine's clean runs, the area generation runs). They take most of the suite's CPU time,
    which coverage's tracer makes two to three times slower on Python 3.11, while the code they
    execute (the reference engine, the harness, the invariants) is measured through the tests that
    aim at it: the rules and invariant cases, the engine's own tests, the CLI's and the short runs. In an xdist
    worker ``Coverage.stop()`` stops recording but leaves its tracer installed on the thread, still
    costing nearly as much (and so pytest-cov's ``no_cover`` mark does), hence the
    ``sys.settrace(None)``; ``start()`` installs a new tracer.
    """
    import sys

    import coverage

    measuring = coverage.Coverage.current()
    if measuring is None:
        yield
        return
    measuring.stop()
    sys.settrace(None)
    try:
        yield
    finally:
        measuring.start()


def watching(engine, on_apply):
    """``engine`` (protocol ``Engine``) whose games call ``on_apply(event)`` before each ``apply``:
    for tests that look at the harness's state while an engine call runs."""

    class Watched:
        info = engine.info

        def new_game(self, board):
            game = engine.new_game(board)

            class Game:
                def apply(self, event, decider):
                    on_apply(event)
                    return game.apply(event, decider)

                def observe(self):
                    return game.observe()

            return Game()

    return Watched()


def project(folder, text: str):
    """``folder`` made a project: a ``pyproject.toml`` with a ``[project]`` table and ``text``
    (``[tool.rulesfuzz]`` settings, say) after it; returns ``folder``."""
    (folder / "pyproject.toml").write_text("[project]\nname = 'my-engine'\n\n" + text, encoding="utf-8")
    return folder
