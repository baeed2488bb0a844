"""Throughput of the harness: engine, harness, and Hypothesis's own cost.

Measures, in one run, on one core (rates are per second of CPU time of this process, so
that other load on the machine disturbs them less; wall-clock rates are in the JSON):

(a) raw engine events per second: scenarios recorded once from a harness run are
    replayed on fresh games of the reference engine, timing only ``new_game``,
    ``apply`` and ``observe`` (no Hypothesis, no invariants);
(b) harness steps per second: ``harness.runner.run`` on the reference engine with every
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

The last line is ``harness efficiency: R`` with R = (b) / (c); the target is R >= 0.5.
``--profile`` adds a cProfile of (b), by own time and by cumulative time, for finding hot
spots. ``--json PATH`` writes the figures.

    python benchmarks/throughput.py [--examples N] [--repeat K] [--profile] [--json PATH]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
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

import harness.machine as machine_module  # noqa: E402
from harness.adapters.reference import ReferenceAdapter  # noqa: E402
from harness.decider import ReplayDecider  # noqa: E402
from harness.execution import Stats  # noqa: E402
from harness.machine import Recorder, make_machine  # noqa: E402
from harness.protocol import EngineInfo, IllegalAction  # noqa: E402
from harness.runner import run  # noqa: E402

STEPS_PER_EXAMPLE = 20


# --------------------------------------------------------------------------- (a)
def record_scenarios(examples: int, seed: int) -> list[dict]:
    """Boards, events and decisions of ``examples`` harness examples on the reference engine."""
    sessions = []
    original = machine_module.Session

    class RecordingSession(original):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            sessions.append(self)

    machine_module.Session = RecordingSession
    try:
        run(ReferenceAdapter(), max_examples=examples, seed=seed, database=None, shrink=False)
    finally:
        machine_module.Session = original
    return [{"board": s.board, "steps": [dict(step) for step in s.steps]} for s in sessions if s.steps]


def engine_events_per_second(scenarios: list[dict], repeat: int) -> dict:
    """Replay ``scenarios`` on the reference engine (new_game + apply + observe only)."""
    engine = ReferenceAdapter()
    events = sum(len(s["steps"]) for s in scenarios)
    prepared = [(s["board"], [(step["event"], step.get("decisions", [])) for step in s["steps"]]) for s in scenarios]
    best = None
    for _ in range(repeat):
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
def harness_steps_per_second(examples: int, seed: int) -> dict:
    cpu = time.process_time()
    result = run(ReferenceAdapter(), max_examples=examples, seed=seed, database=None)
    cpu = time.process_time() - cpu
    if result.violation is not None:
        raise SystemExit(f"the reference engine broke {result.violation.invariant}: fix that first")
    return {"examples": result.stats.examples, "steps": result.stats.steps, "seconds": result.seconds,
            "cpu_seconds": cpu, "per_second": result.stats.steps / cpu,
            "per_wall_second": result.stats.steps / result.seconds}


# --------------------------------------------------------------------------- (c)
def _template_object() -> dict:
    """One observed object of the reference engine, as a template with every protocol field."""
    board = {"players": [{"id": "P1"}, {"id": "P2"}],
             "objects": [{"id": "x", "card": "Grizzly Bears", "owner": "P1"}]}
    return ReferenceAdapter().new_game(board).observe()["objects"]["x"]


class _StubGame:
    """A game that does nothing. It observes the board's objects on the battlefield, with
    every protocol field (from a template), creatures and Auras as the board says, so the
    machine's preconditions and target choices work as with a real engine."""

    __slots__ = ("_observation",)
    template: dict = {}

    def __init__(self, board):
        objects = {}
        for o in board["objects"]:
            aura = o.get("attached_to") is not None
            objects[o["id"]] = {
                **self.template, "name": o["card"], "owner": o["owner"], "controller": o.get("controller", o["owner"]),
                "token": o.get("token", False), "attached_to": o.get("attached_to"),
                "types": ["Enchantment"] if aura else ["Creature"], "subtypes": ["Aura"] if aura else [],
                "supertypes": ["Legendary"] if o["card"].startswith("Isamaru") else [],
                "keywords": ["umbra armor"] if aura else ["deathtouch"] if o["card"] == "Typhoid Rats" else [],
                "counters": dict(o.get("counters", {})),
            }
        self._observation = {"players": {}, "objects": objects, "zones": {}, "log": []}

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
    if not _StubGame.template:
        _StubGame.template = _template_object()
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
    from harness.loading import load_engine

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


# --------------------------------------------------------------------------- main
def profile_harness(examples: int, seed: int, top: int) -> str:
    profiler = cProfile.Profile()
    profiler.enable()
    run(ReferenceAdapter(), max_examples=examples, seed=seed, database=None)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=400, help="examples per measurement (default 400)")
    parser.add_argument("--repeat", type=int, default=3, help="repeat (b) and (c) K times, keep the median (default 3)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--profile", action="store_true", help="also print a cProfile of (b)")
    parser.add_argument("--json", dest="json_path", default=str(ROOT / "benchmarks" / "results" / "throughput.json"))
    args = parser.parse_args(argv)

    scenarios = record_scenarios(args.examples, args.seed)
    raw = engine_events_per_second(scenarios, args.repeat)
    print(f"(a) engine:  {raw['per_second']:9.0f} events/s  ({raw['events']} events in {raw['scenarios']} "
          f"recorded scenarios, best of {args.repeat}: {raw['seconds']:.2f} s; new_game + apply + observe)")

    harness_runs, bare_runs = [], []
    for i in range(args.repeat):  # interleaved, so that other load on the machine hits both alike
        harness_runs.append(harness_steps_per_second(args.examples, args.seed + i))
        bare_runs.append(bare_steps_per_second(args.examples, args.seed + i))
    b = statistics.median(r["per_second"] for r in harness_runs)
    c = statistics.median(r["per_second"] for r in bare_runs)
    print(f"(b) harness: {b:9.0f} steps/s   (reference engine, every invariant; median of {args.repeat} runs of "
          f"{args.examples} examples: {[round(r['per_second']) for r in harness_runs]})")
    print(f"(c) bare:    {c:9.0f} steps/s   (same rules, trivial bodies; median of {args.repeat} runs: "
          f"{[round(r['per_second']) for r in bare_runs]})")
    cost = protocol_cost(args.examples, args.seed, args.repeat)
    rate = cost["per_second"]
    print(f"(d) tiny engine in-process: {rate['in_process']:7.0f} steps/s; over the protocol: {rate['protocol']:7.0f} "
          f"steps/s (ratio {cost['ratio']:.2f}, +{cost['ms_per_step_added']:.3f} ms per step)"
          + (f"; Node.js engine: {rate['node']:7.0f} steps/s" if "node" in rate else "; node not installed"))
    if args.profile:
        print(profile_harness(args.examples, args.seed, 40))
    figures = {"engine_events_per_second": raw, "harness": harness_runs, "bare": bare_runs, "protocol": cost,
               "harness_steps_per_second": b, "bare_steps_per_second": c, "efficiency": b / c,
               "python": sys.version.split()[0]}
    if args.json_path:
        path = Path(args.json_path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    print(f"harness efficiency: {b / c:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
