"""Throughput of the harness: engine, harness, and Hypothesis's own cost.

Measures, in one run, on one core (rates are per second of CPU time of this process, so
that other load on the machine disturbs them less; wall-clock rates are in the JSON):

(a) raw engine events per second: scenarios recorded once from a harness run (one of
    Hypothesis's engine, one with ``--explore``) are replayed on fresh games of the
    reference engine, timing only ``new_game``, ``apply`` and ``observe`` (no Hypothesis,
    no invariants);
(b) harness steps per second: ``harness.running.runner.run`` on the reference engine with every
    invariant (step and scenario scope), no example database;
(c) steps per second of a bare Hypothesis ``RuleBasedStateMachine`` with the same rules
    (the harness's own rules and strategies) and trivial bodies: a stub engine whose
    ``apply`` does nothing, no invariants.

(d) the cost of the wire protocol: harness steps per wall-clock second of the tiny engine
    (examples/engines/tiny) in-process and over the protocol (``--isolate``: the same
    engine behind ``python -m harness.serve``), same seeds, in one run, and their ratio
    (target >= 0.5); with ``node`` installed, also the Node.js engine
    (examples/engines/node). Wall-clock, because over the protocol the engine's time is
    spent in another process.

(e) the workers' scaling: steps per wall-clock second of ``--explore --workers N`` with
    1 and N worker processes, the same total budget, and their ratio (target >= 1.8 for
    2 workers on 2 cores), in ``--repeat`` turns: the median turn's. Each turn also measures
    the machine's own scaling on the same kind of work, as a control: the raw engine of (a)
    in 1 process, then in N at once (2.0 on 2 free cores; less when other virtual machines
    on the host slow the cores down), and the workers' scaling over the machine's. It also
    says where a shortfall goes: how busy the N workers were over the wall time (time
    lost to start-up or waiting is the harness's), and their CPU seconds per step over one
    worker's (a step that costs more CPU with N processes running is the machine's).

(b) is measured twice: with Hypothesis's engine driving the examples (``rulesfuzz run``)
and with ``--explore`` (the rules on plain random draws, :mod:`harness.running.explore`). (a),
(b) and (c) are measured in turns, ``--repeat`` times, so that other load on the machine
hits all alike. The headline is the **engine ratio** R: harness steps per second with
``--explore`` over raw engine events per second on scenarios of ``--explore`` runs, one
ratio per turn, their median (target >= 0.25; 1.0 would be a harness that costs
nothing beyond the engine; the determinism check alone replays part of every example).
The ratio with Hypothesis's engine is printed above it. A faster engine raises (a) too,
so both rates are printed. The last two lines are ``harness efficiency: R`` with
R = (b, --explore) / (c) and ``engine ratio: R``.

``--engine E`` (any engine spec ``rulesfuzz run`` takes, e.g.
``examples/engines/phase/engine.py:engine``) measures only (b) for that engine: harness
steps per CPU second and per wall-clock second, with Hypothesis's engine and with
``--explore``, every invariant its capabilities select, ``--keep-going`` without
shrinking (an engine with known findings is measured as it is fuzzed), medians of
``--repeat`` runs of ``--examples`` examples.

``--per-invariant`` runs (b) once more, exploring (the default mode), with every invariant's check timed: microseconds
per check and its share of the run's CPU time, costliest first (a scenario-scope
invariant is checked once per example). ``--no-protocol`` leaves (d) out.
``--profile`` adds a cProfile of (b), exploring, by own time and by cumulative time, for finding hot
spots. ``--json PATH`` writes the figures. Budgets are in examples, so every run does the
same work whatever the machine's load.

    python benchmarks/throughput.py [--engine E] [--examples N] [--repeat K] [--per-invariant] [--no-protocol]
                                    [--workers N] [--workers-examples M] [--no-workers]
                                    [--profile] [--json PATH]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, Phase, Verbosity, settings  # noqa: E402
from hypothesis import seed as hypothesis_seed  # noqa: E402
from hypothesis.stateful import get_state_machine_test  # noqa: E402

import harness.running.machine as machine_module  # noqa: E402
from harness.running import collector  # noqa: E402
from harness.adapters.reference import ReferenceAdapter  # noqa: E402
from harness.running.decider import ReplayDecider  # noqa: E402
from harness.running.execution import Stats  # noqa: E402
from harness.running.machine import Recorder, make_machine  # noqa: E402
from harness.protocol import EngineInfo, IllegalAction  # noqa: E402
from harness.running.runner import run  # noqa: E402
from harness.running.workers import run_workers  # noqa: E402

from benchmarks.options import positive_int  # noqa: E402

STEPS_PER_EXAMPLE = 20


# --------------------------------------------------------------------------- (a)
def record_scenarios(examples: int, seed: int, explore: bool = False) -> list[dict]:
    """Boards, events and decisions of ``examples`` harness examples on the reference engine
    (with ``explore``, of a ``--explore`` run: its boards and events, not Hypothesis's)."""
    sessions = []
    original = machine_module.Session

    class RecordingSession(original):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            sessions.append(self)

    machine_module.Session = RecordingSession
    try:
        run(ReferenceAdapter(), max_examples=examples, seed=seed, database=None, shrink=False, explore=explore)
    finally:
        machine_module.Session = original
    return [{"board": s.board, "steps": [dict(step) for step in s.steps]} for s in sessions if s.steps]


def engine_events_per_second(scenarios: list[dict], repeat: int) -> dict:
    """Replay ``scenarios`` on the reference engine (new_game + apply + observe only), with the
    garbage collector as a run sets it (:mod:`harness.running.collector`), so the engine's rate is its
    best under the same settings as the harness's."""
    engine = ReferenceAdapter()
    events = sum(len(s["steps"]) for s in scenarios)
    prepared = [(s["board"], [(step["event"], step.get("decisions", [])) for step in s["steps"]]) for s in scenarios]
    best = None
    for _ in range(repeat):
        with collector.tuned():
            started = time.process_time()
            for board, steps in prepared:
                game = engine.new_game(board)
                game.observe()
                for event, decisions in steps:
                    try:
                        game.apply(event, ReplayDecider(decisions))
                    except IllegalAction:
                        pass
                    game.observe()
            elapsed = time.process_time() - started
        best = elapsed if best is None else min(best, elapsed)
    return {"scenarios": len(scenarios), "events": events, "seconds": best, "per_second": events / best}


# --------------------------------------------------------------------------- (b)
def harness_steps_per_second(examples: int, seed: int, explore: bool = False) -> dict:
    cpu = time.process_time()
    result = run(ReferenceAdapter(), max_examples=examples, seed=seed, database=None, explore=explore)
    cpu = time.process_time() - cpu
    if result.violation is not None:
        raise SystemExit(f"the reference engine broke {result.violation.invariant}: fix that first")
    return {"examples": result.stats.examples, "steps": result.stats.steps, "seconds": result.seconds,
            "cpu_seconds": cpu, "per_second": result.stats.steps / cpu,
            "per_wall_second": result.stats.steps / result.seconds}


# --------------------------------------------------------------------------- (c)
class _StubGame:
    """A game that does nothing: its observation stays the reference engine's first
    observation of the board (every protocol field, real characteristics), so the
    machine's preconditions and target choices work as with a real engine."""

    __slots__ = ("_observation",)

    def __init__(self, board):
        self._observation = ReferenceAdapter().new_game(board).observe()

    def apply(self, event, decider):
        pass

    def observe(self):
        return self._observation


class _StubEngine:
    def __init__(self, capabilities):
        self.info = EngineInfo("stub", "0", frozenset(capabilities))

    def new_game(self, board):
        return _StubGame(board)


def bare_machine(counter: list):
    """The harness's state machine with trivial bodies: same rules, strategies and preconditions."""
    capabilities = ReferenceAdapter().info.capabilities
    base = make_machine(_StubEngine(capabilities), [], [], Stats(), Recorder(), None, None)

    def _apply(self, event, data):  # trivial body: count the step, nothing else
        counter[0] += 1

    return type("BareMachine", (base,), {"_apply": _apply})


def bare_steps_per_second(examples: int, seed: int) -> dict:
    counter = [0]
    machine = bare_machine(counter)
    test = get_state_machine_test(
        machine,
        settings=settings(max_examples=examples, stateful_step_count=STEPS_PER_EXAMPLE, deadline=None,
                          database=None, suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet,
                          phases=[Phase.explicit, Phase.reuse, Phase.generate]),
    )
    hypothesis_seed(seed)(test)
    started, cpu = time.perf_counter(), time.process_time()
    test()
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    return {"examples": examples, "steps": counter[0], "seconds": elapsed, "cpu_seconds": cpu,
            "per_second": counter[0] / cpu, "per_wall_second": counter[0] / elapsed}


# --------------------------------------------------------------------------- (d)
TINY = f"{ROOT / 'examples' / 'engines' / 'tiny' / 'engine.py'}:engine"
NODE = f"exec:node {ROOT / 'examples' / 'engines' / 'node' / 'engine.js'}"


def wall_steps_per_second(spec: str, examples: int, seed: int, isolate: bool = False) -> dict:
    """One harness run of the engine ``spec``: steps per wall-clock second (start-up excluded)."""
    from harness.connection.loading import load_engine

    engine = load_engine(spec, isolate=isolate)
    try:
        result = run(engine, max_examples=examples, seed=seed, database=None, shrink=False)
    finally:
        getattr(engine, "close", lambda: None)()
    if result.violation is not None:
        raise SystemExit(f"{spec} broke {result.violation.invariant}: fix that first")
    return {"examples": result.stats.examples, "steps": result.stats.steps, "seconds": result.seconds,
            "per_second": result.stats.steps / result.seconds}


def protocol_cost(examples: int, seed: int, repeat: int) -> dict:
    """(d): the tiny engine in-process, over the protocol, and the Node.js engine; medians of ``repeat`` runs."""
    import shutil

    runs: dict[str, list] = {"in_process": [], "protocol": [], "node": []}
    for i in range(repeat):  # interleaved, so that other load on the machine hits all alike
        runs["in_process"].append(wall_steps_per_second(TINY, examples, seed + i))
        runs["protocol"].append(wall_steps_per_second(TINY, examples, seed + i, isolate=True))
        if shutil.which("node"):
            runs["node"].append(wall_steps_per_second(NODE, examples, seed + i))
    rate = {k: statistics.median(r["per_second"] for r in v) for k, v in runs.items() if v}
    return {"runs": runs, "per_second": rate, "ratio": rate["protocol"] / rate["in_process"],
            "ms_per_step_added": 1000 * (1 / rate["protocol"] - 1 / rate["in_process"])}


# --------------------------------------------------------------------------- per invariant
def per_invariant_cost(examples: int, seed: int, explore: bool = True) -> dict:
    """One harness run of the reference engine with each invariant's check timed (CPU time), in
    ``rulesfuzz run``'s default mode, exploration (``explore=False``: Hypothesis's engine).

    Returns ``{"cpu_seconds": total, "steps": n, "explore": bool, "invariants": {name: {"checks": n,
    "seconds": s, "us_per_check": u, "share": fraction of the run}}}``.
    """
    import dataclasses

    import invariants as registry

    spent: dict[str, list] = {}
    originals = dict(registry.REGISTRY)

    def timed(inv):
        check, cell = inv.check, spent.setdefault(inv.name, [0, 0.0])
        clock = time.process_time

        def check_timed(arg):
            started = clock()
            try:
                return check(arg)
            finally:
                cell[0] += 1
                cell[1] += clock() - started

        return dataclasses.replace(inv, check=check_timed)

    registry.REGISTRY.update({name: timed(inv) for name, inv in originals.items()})
    try:
        cpu = time.process_time()
        result = run(ReferenceAdapter(), max_examples=examples, seed=seed, database=None, shrink=False,
                     explore=explore)
        cpu = time.process_time() - cpu
    finally:
        registry.REGISTRY.update(originals)
    # Every invariant the run judged with: "checks" counts the calls of its check, "skipped" the
    # steps the schedule left it out of (harness.running.invariant_schedule: it can't apply there).
    judged = result.stats.checked
    table = {name: {"checks": n, "skipped": max(judged.get(name, n) - n, 0), "seconds": t,
                    "us_per_check": 1e6 * t / n if n else 0.0, "share": t / cpu}
             for name, (n, t) in sorted(spent.items(), key=lambda kv: -kv[1][1]) if n or judged.get(name)}
    return {"cpu_seconds": cpu, "steps": result.stats.steps, "explore": explore, "invariants": table}


def print_per_invariant(cost: dict, top: int | None = None) -> None:
    total = sum(row["seconds"] for row in cost["invariants"].values())
    print(f"per invariant ({cost['steps']} steps, {cost['cpu_seconds']:.2f} CPU s; invariants "
          f"{total:.2f} s = {total / cost['cpu_seconds']:.0%} of the run, {1e6 * total / max(cost['steps'], 1):.0f} us "
          f"per step):")
    print(f"  {'invariant':58} {'checks':>7} {'skipped':>7} {'us/check':>9} {'share':>6}")
    for name, row in list(cost["invariants"].items())[:top]:
        print(f"  {name:58} {row['checks']:>7} {row.get('skipped', 0):>7} {row['us_per_check']:>9.1f} "
              f"{row['share']:>6.1%}")


# --------------------------------------------------------------------------- main
def profile_harness(examples: int, seed: int, top: int, explore: bool = True) -> str:
    """A cProfile of a harness run of the reference engine in ``rulesfuzz run``'s default mode,
    exploration (``explore=False``: Hypothesis's engine), by own and by cumulative time."""
    profiler = cProfile.Profile()
    profiler.enable()
    run(ReferenceAdapter(), max_examples=examples, seed=seed, database=None, explore=explore)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def _replay_turns(scenarios: list[dict], turns: int, done=None) -> float:
    """Wall seconds to replay ``scenarios`` ``turns`` times on the reference engine (as (a) does);
    put in ``done`` (a queue) when given."""
    started = time.perf_counter()
    for _ in range(turns):
        engine_events_per_second(scenarios, 1)
    elapsed = time.perf_counter() - started
    if done is not None:
        done.put(elapsed)
    return elapsed


def machine_scaling(scenarios: list[dict], workers: int, turns: int = 4) -> float:
    """The machine's own scaling on the same kind of work, a control for (e): the raw engine
    replaying ``scenarios`` ``turns`` times in this process, then in ``workers`` processes at
    once, each the same work; ``workers`` x the first wall time over the second. 2.0 for 2
    processes on 2 free cores; less when the cores are slowed by load this process can't see
    (other virtual machines on the host)."""
    from multiprocessing import get_context

    alone = _replay_turns(scenarios, turns)
    context = get_context("fork" if sys.platform.startswith("linux") else "spawn")
    done = context.Queue()
    started = time.perf_counter()
    processes = [context.Process(target=_replay_turns, args=(scenarios, turns, done)) for _ in range(workers)]
    for process in processes:
        process.start()
    for _ in processes:
        done.get()
    for process in processes:
        process.join()
    return workers * alone / (time.perf_counter() - started)


def workers_scaling(examples: int, seed: int, workers: int, repeat: int = 1, scenarios: list[dict] | None = None) -> dict:
    """(e) Harness steps per wall-clock second of ``rulesfuzz run --explore --workers N`` on the
    reference engine for N = 1 and ``workers``, the same total budget of ``examples``
    (worker processes started included), and their ratio (target >= 1.8 with 2 workers
    on 2 cores). Measured in ``repeat`` turns, 1 worker first in odd turns and N first in
    even ones (a drift of the machine's speed hits both alike); ``rates`` and ``scaling``
    are those of the turn with the median scaling (the lower middle one for an even
    count), ``turns`` every turn's scaling: one turn is a single wall-clock sample, which
    other load on the machine moves by a fifth either way. With ``scenarios`` (recorded as
    for (a)), each turn also measures :func:`machine_scaling`, the machine's own scaling on
    the raw engine: ``machine`` is their median, ``machine_turns`` every turn's, and
    ``efficiency`` the median over turns of the harness's scaling over the machine's.
    Each rate has its run's ``cpu_seconds`` (this process's for 1 worker, which runs in it;
    the worker processes' for N): ``busy`` is the median over turns of the N workers' CPU
    seconds over N times the wall time (1.0: no worker ever waited), ``cpu_per_step`` the
    median of their CPU seconds per step over one worker's (1.0: a step costs the same with N
    processes running at once; above it, the cost of running them at once on this machine)."""
    turns = []
    for turn in range(repeat):
        rates = {}
        order = (1, workers) if turn % 2 == 0 else (workers, 1)
        for n in dict.fromkeys(order):
            cpu_before = _cpu_seconds(n)
            result = run_workers("reference", workers=n, max_examples=examples, seed=seed, database="none",
                                 explore=True)
            if result.findings:
                raise SystemExit(f"the reference engine broke {result.findings[0].key}: fix that first")
            rates[n] = {"examples": result.stats.examples, "steps": result.stats.steps, "seconds": result.seconds,
                        "per_second": result.stats.steps / result.seconds,
                        "cpu_seconds": _cpu_seconds(n) - cpu_before}
        turns.append({"rates": rates, "scaling": rates[workers]["per_second"] / rates[1]["per_second"]})
        one, many = rates[1], rates[workers]
        if workers > 1 and one["cpu_seconds"] > 0 and many["steps"] and one["steps"]:
            turns[-1]["busy"] = many["cpu_seconds"] / (workers * many["seconds"])
            turns[-1]["cpu_per_step"] = (many["cpu_seconds"] / many["steps"]) / (one["cpu_seconds"] / one["steps"])
        if scenarios is not None:
            turns[-1]["machine"] = machine_scaling(scenarios, workers)
    middle = sorted(turns, key=lambda t: t["scaling"])[(len(turns) - 1) // 2]
    figures = {"workers": workers, "rates": middle["rates"], "scaling": middle["scaling"],
               "turns": [round(t["scaling"], 3) for t in turns]}
    if scenarios is not None:
        figures["machine_turns"] = [round(t["machine"], 3) for t in turns]
        figures["machine"] = statistics.median(t["machine"] for t in turns)
        figures["efficiency"] = statistics.median(t["scaling"] / t["machine"] for t in turns)
    for key in ("busy", "cpu_per_step"):
        if all(key in t for t in turns):
            figures[key] = statistics.median(t[key] for t in turns)
    return figures


def _cpu_seconds(workers: int) -> float:
    """CPU seconds (user + system) of a run of ``workers`` so far: this process's for one worker
    (it runs in this process), else those of the ended child processes (the workers, once joined)."""
    if workers <= 1:
        return time.process_time()
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def engine_steps_per_second(spec: str, examples: int, seed: int, explore: bool = False) -> dict:
    """(b) for any engine ``spec``: one harness run, every invariant, --keep-going, no shrinking."""
    from harness.connection.loading import load_engine

    engine = load_engine(spec)
    try:
        cpu = time.process_time()
        result = run(engine, max_examples=examples, seed=seed, database=None, shrink=False, keep_going=True,
                     explore=explore)
        cpu = time.process_time() - cpu
    finally:
        getattr(engine, "close", lambda: None)()
    return {"examples": result.stats.examples, "steps": result.stats.steps, "seconds": result.seconds,
            "cpu_seconds": cpu, "per_second": result.stats.steps / cpu if cpu else 0.0,
            "per_wall_second": result.stats.steps / result.seconds if result.seconds else 0.0,
            "findings": sorted({f.key for f in getattr(result, "findings", None) or ()})}


def measure_engine(spec: str, examples: int, seed: int, repeat: int, json_path: str | None) -> int:
    """``--engine E``: (b) of that engine in both modes, medians of ``repeat`` runs."""
    figures = {}
    for label, explore in (("hypothesis", False), ("explore", True)):
        try:
            runs = [engine_steps_per_second(spec, examples, seed + i, explore=explore) for i in range(repeat)]
        except Exception as exc:  # a harness mode that can't run this engine: say so, measure the rest
            figures[label] = {"error": f"{type(exc).__name__}: {exc}"}
            print(f"(b) {spec}: {label} not measured: {type(exc).__name__}: {exc}")
            continue
        cpu = statistics.median(r["per_second"] for r in runs)
        wall = statistics.median(r["per_wall_second"] for r in runs)
        figures[label] = {"runs": runs, "per_second": cpu, "per_wall_second": wall}
        mode = "Hypothesis's engine" if not explore else "--explore"
        print(f"(b) {spec}: {cpu:7.1f} steps/s per CPU second, {wall:7.1f} per wall second ({mode}, every "
              f"invariant, --keep-going without shrinking; median of {repeat} runs of {examples} examples: "
              f"{[round(r['per_second'], 1) for r in runs]})")
    if json_path:
        path = Path(json_path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"engine": spec, "examples": examples, "repeat": repeat, **figures}, indent=2)
                        + "\n")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=positive_int, default=400, help="examples per measurement (default 400)")
    parser.add_argument("--repeat", type=positive_int, default=3,
                        help="repeat (a), (b) and (c) K times, interleaved, and (e) K times; keep the medians "
                             "(default 3)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--profile", action="store_true", help="also print a cProfile of (b)")
    parser.add_argument("--per-invariant", action="store_true", help="also time every invariant's check")
    parser.add_argument("--no-protocol", action="store_true", help="leave out (d), the wire protocol's cost")
    parser.add_argument("--workers", type=positive_int, default=os.cpu_count() or 1,
                        help="(e): compare 1 and N worker processes (default: the number of cores)")
    parser.add_argument("--workers-examples", type=positive_int, default=None,
                        help="total examples of each (e) run (default 4 x --examples)")
    parser.add_argument("--no-workers", action="store_true", help="leave out (e), the workers' scaling")
    parser.add_argument("--json", dest="json_path", default=str(ROOT / "benchmarks" / "results" / "throughput.json"))
    parser.add_argument("--engine", default=None,
                        help="measure only (b), harness steps per second, of this engine (any --engine spec)")
    parser.add_argument("--compare", metavar="REV", default=None,
                        help="first measure this revision against git revision REV, in their own processes, "
                             "interleaved (benchmarks/compare.py): 'reference engine vs REV' and 'harness vs REV'")
    args = parser.parse_args(argv)
    comparison = None
    if args.compare:
        from benchmarks.compare import CompareError, compare, print_comparison

        try:
            comparison = compare(args.compare, args.examples, args.seed, turns=args.repeat)
        except CompareError as exc:
            print(f"throughput.py: --compare {args.compare}: {exc}", file=sys.stderr)
            return 2
        print_comparison(comparison)
    if args.engine:
        default_json = str(ROOT / "benchmarks" / "results" / "throughput.json")
        return measure_engine(args.engine, args.examples, args.seed, args.repeat,
                              None if args.json_path == default_json else args.json_path)

    hypothesis_scenarios = record_scenarios(args.examples, args.seed)
    explore_scenarios = record_scenarios(args.examples, args.seed, explore=True)
    raw_h, raw_x, harness_runs, explore_runs, bare_runs = [], [], [], [], []
    for i in range(args.repeat):  # interleaved, so that other load on the machine hits all alike
        raw_h.append(engine_events_per_second(hypothesis_scenarios, 1))
        harness_runs.append(harness_steps_per_second(args.examples, args.seed + i))
        raw_x.append(engine_events_per_second(explore_scenarios, 1))
        explore_runs.append(harness_steps_per_second(args.examples, args.seed + i, explore=True))
        bare_runs.append(bare_steps_per_second(args.examples, args.seed + i))

    def median(runs):
        return statistics.median(r["per_second"] for r in runs)

    a_h, a, b0, b, c = median(raw_h), median(raw_x), median(harness_runs), median(explore_runs), median(bare_runs)
    ratio = statistics.median(x["per_second"] / e["per_second"] for x, e in zip(explore_runs, raw_x))
    ratio_h = statistics.median(x["per_second"] / e["per_second"] for x, e in zip(harness_runs, raw_h))
    raw = dict(raw_x[len(raw_x) // 2], per_second=a)
    print(f"(a) engine:  {a:9.0f} events/s  ({raw['events']} events of {raw['scenarios']} scenarios recorded from an "
          f"--explore run; {a_h:.0f} events/s on those of Hypothesis's engine; new_game + apply + observe, "
          f"median of {args.repeat})")
    print(f"(b) harness: {b0:9.0f} steps/s   (reference engine, every invariant, Hypothesis's engine; median of "
          f"{args.repeat} runs of {args.examples} examples: {[round(r['per_second']) for r in harness_runs]})")
    print(f"    --explore: {b:7.0f} steps/s   (the same, examples run outside Hypothesis's engine: "
          f"{[round(r['per_second']) for r in explore_runs]})")
    print(f"(c) bare:    {c:9.0f} steps/s   (same rules, trivial bodies; median of {args.repeat} runs: "
          f"{[round(r['per_second']) for r in bare_runs]})")
    cost = None
    if not args.no_protocol:
        cost = protocol_cost(args.examples, args.seed, args.repeat)
        rate = cost["per_second"]
        print(f"(d) tiny engine in-process: {rate['in_process']:7.0f} steps/s; over the protocol: "
              f"{rate['protocol']:7.0f} steps/s (ratio {cost['ratio']:.2f}, +{cost['ms_per_step_added']:.3f} ms per "
              f"step)" + (f"; Node.js engine: {rate['node']:7.0f} steps/s" if "node" in rate else "; node not installed"))
    scaling = None
    if not args.no_workers:
        scaling = workers_scaling(args.workers_examples or 4 * args.examples, args.seed, args.workers, args.repeat,
                                  scenarios=explore_scenarios)
        one, many = scaling["rates"][1], scaling["rates"][args.workers]
        print(f"(e) workers: {one['per_second']:7.0f} steps/s with 1, {many['per_second']:7.0f} with {args.workers} "
              f"(--explore, {one['examples']} examples in all, wall clock): scaling {scaling['scaling']:.2f} "
              f"(target >= {0.9 * args.workers:.1f} on {os.cpu_count()} cores; median of {args.repeat} turns: "
              f"{scaling['turns']})")
        print(f"    the machine's own scaling on the raw engine, same turns: {scaling['machine']:.2f} "
              f"({scaling['machine_turns']}); the workers' over the machine's: {scaling['efficiency']:.2f}")
        if "busy" in scaling:
            print(f"    the {args.workers} workers were busy {scaling['busy']:.2f} of the wall time; CPU per step "
                  f"x{scaling['cpu_per_step']:.2f} of one worker's (medians: what running {args.workers} processes "
                  f"at once costs each on this machine)")
    invariant_cost = None
    if args.per_invariant:
        invariant_cost = per_invariant_cost(args.examples, args.seed)
        print_per_invariant(invariant_cost)
    if args.profile:
        print(profile_harness(args.examples, args.seed, 40))
    figures = {"engine_events_per_second": raw, "engine": raw_x, "engine_hypothesis_scenarios": raw_h,
               "harness": harness_runs, "explore": explore_runs, "bare": bare_runs, "protocol": cost,
               "workers": scaling, "harness_steps_per_second": b0, "explore_steps_per_second": b,
               "bare_steps_per_second": c, "efficiency": b / c, "engine_ratio": ratio,
               "engine_ratio_hypothesis_engine": ratio_h, "per_invariant": invariant_cost,
               "compare": comparison, "python": sys.version.split()[0], "cores": os.cpu_count()}
    if args.json_path:
        path = Path(args.json_path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    print(f"engine ratio with Hypothesis's engine: {ratio_h:.2f} ({b0:.0f} steps/s over {a_h:.0f} events/s)")
    print(f"harness steps/s with --explore {b:.0f} over engine events/s {a:.0f} (target >= 0.25)")
    print(f"harness efficiency: {b / c:.2f}")
    if comparison is not None:  # repeated at the end, beside the ratio
        print(f"reference engine vs {comparison['rev']}: x{comparison['engine_ratio']:.2f}")
        print(f"harness vs {comparison['rev']}: x{comparison['harness_ratio']:.2f}")
    print(f"engine ratio: {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
