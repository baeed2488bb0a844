"""The bug-finding benchmark: does the harness find every planted bug, and how fast?

Runs ``harness.running.runner.run`` against every mutant of ``tests/mutants`` (forks of the
reference engine with one realistic rules bug each) with several fixed seeds and a budget
of examples per run (deterministic: the same seeds and budget find the same bugs on any
machine, at any load), in two modes:

* invariant-only: the rules and generic invariants are the only oracle;
* differential: also compared with the reference engine after every event
  (``against=ReferenceAdapter()``).

For each mutant it reports, in one column per mode, whether the bug was found (on how
many seeds) and the examples to the first failure (median over seeds; the budget is in
examples, so this is the figure that compares runs), with the seconds beside them
(median; CPU seconds of the process running the harness, from the start of the run to
the first failing example, before shrinking; wall-clock seconds are in the JSON), the size of the shrunk scenario (events,
board objects; median over seeds), the invariant that caught it, and how long shrinking
took (at most ``--shrink-seconds`` of wall time per failure; Hypothesis alone would go
on for up to 300 s). A mutant counts as detected in a mode only
if every seed found it. ``--quick`` doesn't shrink (it is a detection gate): its sizes
are those of the first failing example.

It also runs the clean reference engine, in both modes, with ``--reference-examples``
examples per seed: any violation there is a false positive; and once more (seed 0,
invariant-only, the same number of examples) under coverage.py, to report the reference
engine's line and branch coverage that budget reaches (``harness.connection.engine_coverage``).

Results go to a table on stdout and a JSON file (``--json``, default
``benchmarks/results/bugfinding.json``). The last line is always::

    detected D/N differential, I/N invariant-only, false positives F

Targets (printed with the table): differential mode detects every mutant; invariant-only
at least 90% (mutants with a known invariant gap, ``INVARIANT_GAP``, count as misses);
median examples to failure at most 100 in both modes; no false positive. The exit code is
0 when differential mode detects every mutant and there is no false positive.

    python benchmarks/bugfinding.py                 # full: 3 seeds, 3,000 examples per run, shrinking
    python benchmarks/bugfinding.py --quick         # 2 seeds, 1,500 examples per run, no shrinking
    python benchmarks/bugfinding.py --mutant umbra_taps_creature --seeds 3 --budget 200
    python benchmarks/bugfinding.py --jobs 1        # one process (default: one per core)
    python benchmarks/bugfinding.py --quick --workers 2   # the findings of rulesfuzz run --workers 2

Every run explores, as ``rulesfuzz run`` does by default (``harness.running.explore``: a
failure is reduced, not shrunk); ``--hypothesis`` runs every one under Hypothesis's engine
instead (``rulesfuzz run --hypothesis``: failures shrunk). A run stops at its first finding,
so the budget is only spent on a miss. Every run uses
``database=None`` (no example database), so results don't depend on failures saved by
earlier runs.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.options import positive_int  # noqa: E402

MODES = ("differential", "invariant-only")
#: Presets: ``budget`` is examples per mutant run, ``reference`` examples per seed and mode
#: of the clean reference engine (the false-positive check).
FULL = {"seeds": 3, "budget": 3000, "reference": 2000, "shrink": True, "jobs": os.cpu_count() or 1}
SHRINK_SECONDS = 20.0  # Hypothesis's own limit is 300 s of shrinking per failure
QUICK = {"seeds": 2, "budget": 1500, "reference": 300, "shrink": False, "jobs": os.cpu_count() or 1}
TARGET_INVARIANT_ONLY = 0.9
TARGET_MEDIAN_EXAMPLES = 100


# --------------------------------------------------------------------------- one run
def _timed_recorder():
    """A Recorder subclass that notes when the first failure was seen (before shrinking):
    ``first_failure`` is ``(perf_counter, process_time)`` at that moment."""
    from harness.running.machine import Recorder

    class TimedRecorder(Recorder):
        first_failure = None

        def found(self, key, scenario, examples):
            if TimedRecorder.first_failure is None:
                TimedRecorder.first_failure = (time.perf_counter(), time.process_time())
            super().found(key, scenario, examples)

    return TimedRecorder


def run_one(task: dict) -> dict:
    """Run the harness once: ``task`` has ``engine`` (a mutant name or ``"reference"``),
    ``mode``, ``seed`` and ``budget`` (examples). Returns a plain dict (JSON-ready)."""
    import hypothesis.internal.conjecture.engine as hypothesis_engine

    import harness.running.run_state as run_state
    import harness.running.runner as runner
    from harness.adapters.reference import ReferenceAdapter

    _preload()

    if task["engine"] == "reference":
        engine = ReferenceAdapter()
    else:
        from tests.mutants import load

        engine = load(task["engine"])
    against = ReferenceAdapter() if task["mode"] == "differential" else None
    shrink_limit = task.get("shrink_seconds", SHRINK_SECONDS)
    hypothesis_engine.MAX_SHRINKING_SECONDS = shrink_limit
    recorder_class = _timed_recorder()
    original = run_state.Recorder  # the recorder a run (harness.running.run_state.RunState) keeps
    run_state.Recorder = recorder_class
    started, started_cpu = time.perf_counter(), time.process_time()
    before = {"examples": 0, "steps": 0}  # of the slots that ran before the one running
    try:
        for examples, seed in _slots(int(task["budget"]), task["seed"], int(task.get("workers", 1))):
            result = runner.run(engine, max_examples=examples, seed=seed, database=None, against=against,
                                shrink=task.get("shrink", True), explore=task.get("explore", True))
            if result.violation is not None:
                break
            before = {"examples": before["examples"] + result.stats.examples,
                      "steps": before["steps"] + result.stats.steps}
    except Exception as exc:  # noqa: BLE001  a harness crash: report it, keep benchmarking
        return {**task, "detected": False, "error": f"{type(exc).__name__}: {exc}",
                "cpu_seconds": round(time.process_time() - started_cpu, 3),
                "seconds": round(time.perf_counter() - started, 3), "examples": 0, "steps": 0}
    finally:
        run_state.Recorder = original
    total, total_cpu = time.perf_counter() - started, time.process_time() - started_cpu
    out = {**task, "detected": result.violation is not None, "cpu_seconds": round(total_cpu, 3),
           "seconds": round(total, 3), "examples": before["examples"] + result.stats.examples,
           "steps": before["steps"] + result.stats.steps}
    if result.violation is not None:
        first_wall, first_cpu = recorder_class.first_failure or (started + total, started_cpu + total_cpu)
        scenario = result.scenario or {}
        out.update({
            "invariant": result.violation.invariant,
            "also": sorted({v.invariant for v in result.violations} - {result.violation.invariant}),
            "messages": list(result.violation.messages)[:3],
            "examples_to_failure": before["examples"] + result.examples_to_failure,
            "seconds_to_failure": round(first_cpu - started_cpu, 3),
            "wall_seconds_to_failure": round(first_wall - started, 3),
            "shrink_seconds": round(started_cpu + total_cpu - first_cpu, 3),
            "shrink_capped": bool(task.get("shrink", True)) and started + total - first_wall >= shrink_limit,
            "shrunk_steps": len(scenario.get("steps", [])),
            "shrunk_objects": len(scenario.get("board", {}).get("objects", [])),
            "scenario": scenario,
        })
    return out


def _slots(budget: int, seed: int, workers: int) -> list[tuple[int, int]]:
    """The ``(examples, seed)`` of each slot of a run of ``budget`` examples and ``seed`` with
    ``rulesfuzz run --workers N`` (``harness.running.workers.slots``; one slot, the run itself, for 1).
    What ``--workers N`` finds depends on its slots only, not on the processes they run in,
    so running them one after another here gives its findings; a slot's examples to failure
    count the examples of the slots before it."""
    from harness.running.workers import slots

    return [(slot.examples, slot.seed) for slot in slots(budget, seed, workers)]


def _preload() -> None:
    """Import every module a run may import, before the first run.

    Hypothesis mixes constants found in the project's imported modules into the data it
    generates, so a module imported halfway through the benchmark would change what later
    runs generate: loading them all first keeps every run reproducible from its seed.
    """
    import importlib
    import pkgutil

    for package in ("harness", "invariants", "reference_engine"):
        module = importlib.import_module(package)
        for info in pkgutil.walk_packages(module.__path__, package + "."):
            if not info.name.endswith("__main__"):
                importlib.import_module(info.name)


def reference_coverage(examples: int, seed: int = 0) -> dict:
    """Lines and branches of ``reference_engine/`` a run of ``examples`` examples reaches (coverage.py)."""
    import tempfile

    from harness.adapters.reference import ReferenceAdapter
    from harness.connection.engine_coverage import EngineCoverage
    from harness.running.runner import run

    engine = ReferenceAdapter()
    with tempfile.TemporaryDirectory() as tmp:
        with EngineCoverage(engine, f"{tmp}/coverage") as measuring:
            run(engine, max_examples=examples, seed=seed, database=None, shrink=False)
        summary = measuring.summary()
    return {"examples": examples, "seed": seed, **summary.to_json()}


# --------------------------------------------------------------------------- summary
def _median(values):
    return statistics.median(values) if values else None


def summarise(runs: list[dict], mutants: list[str], seeds: list[int]) -> dict:
    """Per mutant and mode: detection and costs over seeds; overall counts and medians."""
    by_key: dict[tuple, list[dict]] = {}
    for r in runs:
        by_key.setdefault((r["engine"], r["mode"]), []).append(r)
    table = {}
    for name in mutants:
        table[name] = {}
        for mode in MODES:
            rs = by_key.get((name, mode), [])
            found = [r for r in rs if r["detected"]]
            invariants = [r["invariant"] for r in found]
            table[name][mode] = {
                "detected": bool(rs) and len(found) == len(rs),
                "seeds_detected": len(found),
                "seeds": len(rs),
                # misses count as infinitely slow, so a mutant found on few seeds has a large median
                "median_seconds": _median([r["seconds_to_failure"] if r["detected"] else math.inf for r in rs]),
                "worst_seconds": max((r["seconds_to_failure"] if r["detected"] else math.inf for r in rs), default=None),
                "median_examples": _median([r["examples_to_failure"] if r["detected"] else math.inf for r in rs]),
                "worst_examples": max((r["examples_to_failure"] if r["detected"] else math.inf for r in rs),
                                      default=None),
                "median_shrunk_steps": _median([r["shrunk_steps"] for r in found]),
                "median_shrunk_objects": _median([r["shrunk_objects"] for r in found]),
                "invariant": max(set(invariants), key=invariants.count) if invariants else None,
                "median_shrink_seconds": _median([r["shrink_seconds"] for r in found]),
                "worst_shrink_seconds": max((r["shrink_seconds"] for r in found), default=None),
            }
    reference = [r for r in runs if r["engine"] == "reference"]
    false_positives = [r for r in reference if r["detected"]]
    totals = {}
    for mode in MODES:
        detected = sum(1 for name in mutants if table[name][mode]["detected"])
        medians = [table[name][mode]["median_seconds"] for name in mutants]
        all_ttf = [r["seconds_to_failure"] for r in runs if r["mode"] == mode and r["engine"] != "reference"
                   and r["detected"]]
        shrinks = [r["shrink_seconds"] for r in runs if r["mode"] == mode and r["engine"] != "reference"
                   and r["detected"]]
        all_examples = [r["examples_to_failure"] for r in runs if r["mode"] == mode and r["engine"] != "reference"
                        and r["detected"]]
        totals[mode] = {
            "detected": detected, "mutants": len(mutants),
            "median_examples": _median([table[name][mode]["median_examples"] for name in mutants]),
            "median_examples_over_detected_runs": _median(all_examples),
            "median_shrink_seconds": _median(shrinks), "worst_shrink_seconds": max(shrinks, default=None),
            "shrinks_capped": sum(1 for r in runs if r["mode"] == mode and r["engine"] != "reference"
                                  and r.get("shrink_capped")),
            "median_of_median_seconds": _median(medians),
            "median_seconds_over_detected_runs": _median(all_ttf),
        }
    return {"mutants": table, "totals": totals, "false_positives": false_positives,
            "reference_runs": [{k: v for k, v in r.items() if k != "scenario"} for r in reference]}


def _fmt(x, digits=1):
    if x is None:
        return "-"
    if x == math.inf:
        return "miss"
    if isinstance(x, float) and not x.is_integer():
        return f"{x:.{digits}f}"
    return str(int(x))


def print_table(summary: dict, rules: dict[str, str]) -> None:
    """One row per mutant; per mode: seeds that found it, median examples to failure (the
    deterministic figure), median CPU seconds to failure beside it; then the shrunk size
    and the invariant that caught it (differential mode's, else invariant-only's)."""
    header = (f"{'mutant':40} {'found diff':>10} {'ex diff':>7} {'s diff':>6}  {'found inv':>9} {'ex inv':>6} "
              f"{'s inv':>6} {'steps':>5} {'objs':>4}  caught by")
    print(header)
    print("-" * len(header))
    for name, modes in summary["mutants"].items():
        d, i = modes["differential"], modes["invariant-only"]
        caught = i["invariant"] or d["invariant"] or "-"
        print(f"{name:40} {d['seeds_detected']:>7}/{d['seeds']:<2} {_fmt(d['median_examples']):>7} "
              f"{_fmt(d['median_seconds'], 2):>6}  {i['seeds_detected']:>6}/{i['seeds']:<2} "
              f"{_fmt(i['median_examples']):>6} {_fmt(i['median_seconds'], 2):>6} "
              f"{_fmt(d['median_shrunk_steps']):>5} {_fmt(d['median_shrunk_objects']):>4}  {caught}"
              f"  (CR {rules.get(name, '?')})")


# --------------------------------------------------------------------------- main
def build_tasks(mutants, seeds, budget: int, shrink=True, shrink_seconds=SHRINK_SECONDS,
                reference_budget: int = QUICK["reference"], explore: bool = True, workers: int = 1) -> list[dict]:
    """The runs: every mutant x mode x seed with ``budget`` examples, and the reference
    engine in each mode and seed with ``reference_budget`` examples (none when 0); with
    ``explore`` (the default, as ``rulesfuzz run``'s), every run explores; without it, every run
    is a ``rulesfuzz run --hypothesis`` (Hypothesis's engine); with ``workers`` N > 1, cut into
    the slots of ``--workers N`` (:func:`_slots`)."""
    common = {"shrink": shrink, "shrink_seconds": shrink_seconds, "explore": explore, "workers": workers}
    tasks = [{"engine": name, "mode": mode, "seed": seed, "budget": budget, **common}
             for name in mutants for mode in MODES for seed in seeds]
    if reference_budget:
        tasks += [{"engine": "reference", "mode": mode, "seed": seed, "budget": reference_budget, **common}
                  for mode in MODES for seed in seeds]
    return tasks


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true",
                        help=f"short version: {QUICK['seeds']} seeds, {QUICK['budget']} examples per run, no shrinking")
    parser.add_argument("--seeds", type=positive_int, help=f"number of seeds, 0..N-1 (default {FULL['seeds']})")
    parser.add_argument("--budget", type=positive_int,
                        help=f"examples per mutant run (default {FULL['budget']}; --quick {QUICK['budget']})")
    parser.add_argument("--reference-examples", type=int, default=None,
                        help=f"examples per seed and mode of the clean reference engine (default {FULL['reference']}; "
                             f"--quick {QUICK['reference']}; 0: no false-positive check)")
    parser.add_argument("--no-shrink", action="store_true", help="don't shrink failures (implied by --quick)")
    parser.add_argument("--shrink-seconds", type=float, default=SHRINK_SECONDS,
                        help=f"stop shrinking one failure after this many seconds (default {SHRINK_SECONDS:g})")
    engines = parser.add_mutually_exclusive_group()
    engines.add_argument("--explore", action="store_true",
                         help="the default, as rulesfuzz run's: the rules on plain random draws, failures reduced")
    engines.add_argument("--hypothesis", action="store_true",
                         help="every run with Hypothesis's engine (rulesfuzz run --hypothesis): failures shrunk")
    parser.add_argument("--workers", type=positive_int, default=1,
                        help="cut every run into the slots of `rulesfuzz run --workers N` (run one after another: "
                             "its findings depend on the slots, not the processes; default 1, no slots)")
    parser.add_argument("--mutant", action="append", dest="mutants", metavar="NAME",
                        help="only this mutant (repeatable)")
    parser.add_argument("--jobs", type=int, default=None,
                        help="parallel processes (default: one per core; each run is timed in its own CPU seconds)")
    parser.add_argument("--json", dest="json_path", default=str(ROOT / "benchmarks" / "results" / "bugfinding.json"),
                        help="where to write the results (default benchmarks/results/bugfinding.json)")
    args = parser.parse_args(argv)

    from tests.mutants import MUTANTS

    preset = QUICK if args.quick else FULL
    seeds = list(range(args.seeds if args.seeds is not None else preset["seeds"]))
    budget = args.budget if args.budget is not None else preset["budget"]
    mutants = args.mutants or list(MUTANTS)
    unknown = [m for m in mutants if m not in MUTANTS]
    if unknown:
        parser.error(f"unknown mutant(s) {unknown}; known: {', '.join(MUTANTS)}")
    shrink = preset["shrink"] and not args.no_shrink
    args.jobs = args.jobs or preset["jobs"]
    reference_budget = args.reference_examples if args.reference_examples is not None else preset["reference"]
    if reference_budget < 0:
        parser.error(f"--reference-examples: expected 0 or more, got {reference_budget}")
    explore = not args.hypothesis
    tasks = build_tasks(mutants, seeds, budget, shrink, args.shrink_seconds, reference_budget, explore,
                        args.workers)
    print(f"bugfinding: {len(mutants)} mutants x {len(MODES)} modes x {len(seeds)} seeds, {budget} examples per run, "
          f"{f'shrinking (at most {args.shrink_seconds:g} s)' if shrink else 'no shrinking'}"
          f"{', --explore' if explore else ', --hypothesis'}"
          f"{f', cut into the slots of --workers {args.workers}' if args.workers > 1 else ''}; reference engine "
          f"{reference_budget} examples per seed and mode; {args.jobs} process(es)", flush=True)
    started = time.perf_counter()
    runs = []
    if args.jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        from concurrent.futures import as_completed

        # the long reference runs first, so that the short ones fill the gaps
        ordered = sorted(tasks, key=lambda t: t["engine"] != "reference")
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            for future in as_completed([pool.submit(run_one, task) for task in ordered]):
                r = future.result()
                runs.append(r)
                _progress(r)
    else:
        for task in tasks:
            r = run_one(task)
            runs.append(r)
            _progress(r)
    elapsed = time.perf_counter() - started

    summary = summarise(runs, mutants, seeds)
    print()
    print_table(summary, {name: MUTANTS[name].rule for name in mutants})
    if not shrink:
        print("(steps, objs: sizes of the first failing example; nothing was shrunk)")
    totals = summary["totals"]
    n = len(mutants)
    d, i = totals["differential"]["detected"], totals["invariant-only"]["detected"]
    fp = len(summary["false_positives"])
    print()
    for mode in MODES:
        t = totals[mode]
        print(f"{mode:15} detected {t['detected']}/{n}; median examples to failure {_fmt(t['median_examples'])} "
              f"(over detecting runs {_fmt(t['median_examples_over_detected_runs'])}); median seconds "
              f"{_fmt(t['median_of_median_seconds'], 2)} s (over detecting runs "
              f"{_fmt(t['median_seconds_over_detected_runs'], 2)} s)"
              + (f"; shrinking median {_fmt(t['median_shrink_seconds'], 1)} s, worst "
                 f"{_fmt(t['worst_shrink_seconds'], 1)} s, {t['shrinks_capped']} stopped at the limit"
                 if shrink else ""))
    reference_seconds = sum(r["cpu_seconds"] for r in summary["reference_runs"])
    reference_examples = sum(r["examples"] for r in summary["reference_runs"])
    print(f"reference       {reference_examples} examples in {reference_seconds:.0f} CPU s, false positives {fp}")
    engine_coverage = reference_coverage(reference_budget) if reference_budget else None
    if engine_coverage:
        lines, branches = engine_coverage["lines"], engine_coverage["branches"]
        print(f"reference engine coverage ({reference_budget} examples, seed 0): lines {lines['covered']}/"
              f"{lines['total']} ({lines['percent']}%), branches {branches['covered']}/{branches['total']} "
              f"({branches['percent']}%), {len(engine_coverage['never_reached'])} function(s) never reached")
    for r in summary["false_positives"]:
        print(f"  FALSE POSITIVE ({r['mode']}, seed {r['seed']}): {r['invariant']}: {r['messages']}")
    for r in runs:
        if r.get("error"):
            print(f"  HARNESS ERROR ({r['engine']}, {r['mode']}, seed {r['seed']}): {r['error']}")
    misses = [name for name in mutants if not summary["mutants"][name]["invariant-only"]["detected"]]
    targets = {
        "differential detects every mutant": d == n,
        f"invariant-only detects >= {TARGET_INVARIANT_ONLY:.0%}": i >= TARGET_INVARIANT_ONLY * n,
        f"median examples to failure <= {TARGET_MEDIAN_EXAMPLES} (both modes)": all(
            (totals[m]["median_examples"] or math.inf) <= TARGET_MEDIAN_EXAMPLES for m in MODES),
        "no false positive": fp == 0,
    }
    print("targets: " + "; ".join(f"{k}: {'yes' if v else 'NO'}" for k, v in targets.items()))
    if misses:
        print(f"invariant-only misses: {', '.join(misses)}")
    print(f"wall time {elapsed:.0f} s")

    if args.json_path:
        path = Path(args.json_path)
        path.parent.mkdir(parents=True, exist_ok=True)
        payload = {
            "settings": {"seeds": seeds, "budget_examples": budget, "shrink": shrink, "explore": explore,
                         "workers": args.workers,
                         "shrink_seconds": args.shrink_seconds,
                         "reference_examples": reference_budget,
                         "jobs": args.jobs, "quick": args.quick, "python": sys.version.split()[0],
                         "cpus": os.cpu_count()},
            "rules": {name: MUTANTS[name].rule for name in mutants},
            "bugs": {name: MUTANTS[name].bug for name in mutants},
            "summary": {k: v for k, v in summary.items() if k != "false_positives"},
            "false_positives": [{k: v for k, v in r.items()} for r in summary["false_positives"]],
            "targets": targets,
            "reference_engine_coverage": engine_coverage,
            "runs": runs,
            "wall_seconds": round(elapsed, 1),
        }
        path.write_text(json.dumps(_finite(payload), indent=1, default=_json_default) + "\n", encoding="utf-8")
        print(f"results: {path}")
    print(f"detected {d}/{n} differential, {i}/{n} invariant-only, false positives {fp}")
    return 0 if d == n and fp == 0 else 1


def _finite(value):
    """``value`` with infinities (runs that found nothing) as null, for strict JSON."""
    if isinstance(value, float) and math.isinf(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value


def _json_default(value):
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    return str(value)


def _progress(r: dict) -> None:
    if r.get("error"):
        what = f"HARNESS ERROR {r['error']}"
    elif r["detected"]:
        what = f"found by {r['invariant']} after {r['examples_to_failure']} examples, {r['seconds_to_failure']:.2f} s"
    else:
        what = f"nothing in {r['examples']} examples"
    print(f"  {r['engine']:42} {r['mode']:14} seed {r['seed']}: {what}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
