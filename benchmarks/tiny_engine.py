"""Fuzzing an engine written from scratch: the tiny engine (``examples/engines/tiny``).

Runs, with a fixed seed and no example database:

* ``tiny`` against the reference engine (differential mode) for ``--examples``
  examples (default 2,000): any finding is a false positive;
* ``tiny-buggy`` (three planted bugs of different kinds) in one ``keep_going`` run per
  mode: differential (the differential oracle alone, against the reference engine) and
  invariant-only (the rules and generic invariants alone). In each mode each planted
  bug must be found, as its own finding, with no other finding.

A planted bug counts as found in a mode when a finding with one of its keys
(:data:`BUG_KEYS`) is reported. Results go to a table on stdout and a JSON file
(``--json``, default ``benchmarks/results/tiny_engine.json``). The last line is::

    tiny: clean over N examples (F false positives); buggy: D/3 differential, I/3 invariant-only

The exit code is 0 when the clean run has no finding and did test (not mostly declined),
and both modes find all three bugs and nothing else.

    python benchmarks/tiny_engine.py                   # 2,000 examples
    python benchmarks/tiny_engine.py --examples 200    # quicker
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TINY = ROOT / "examples" / "engines" / "tiny" / "engine.py"
MATCHES_REFERENCE = "differential.matches_reference"
#: The finding keys that show each planted bug: the rules invariants that catch it, then its
#: differential key (the first differing field).
BUG_KEYS = {
    "deathtouch_ignored": ("zones.destroyed_without_replacement_leaves", "sba.deathtouch_damage",
                           f"{MATCHES_REFERENCE}[objects.*.zone]"),
    "damage_kept_off_battlefield": ("generic.damage_only_on_battlefield",
                                    f"{MATCHES_REFERENCE}[objects.*.damage]"),
    "damage_to_wrong_player": ("damage.player_loses_life", f"{MATCHES_REFERENCE}[players.*.life]"),
}


def load_tiny():
    """The tiny engine's module (``engine``, ``buggy``, ``BUGS``)."""
    spec = importlib.util.spec_from_file_location("tiny_engine_benchmark", TINY)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fuzz(engine, *, examples: int, seed: int, against: bool, keep_going: bool, oracle_only: bool = False):
    """One run of ``harness.running.runner.run`` (``oracle_only``: the differential invariant alone);
    returns ``(RunResult, wall seconds)``."""
    from harness.adapters.reference import ReferenceAdapter
    from harness.running.runner import run

    started = time.perf_counter()
    result = run(engine, max_examples=examples, seed=seed, database=None,
                 against=ReferenceAdapter() if against else None, keep_going=keep_going,
                 invariant_names=[MATCHES_REFERENCE] if oracle_only else None)
    return result, time.perf_counter() - started


def bugs_found(keys: list[str], mode: str) -> tuple[dict[str, str | None], list[str]]:
    """Which planted bug each key shows (``{bug: key or None}``) and the keys that show none."""
    found: dict[str, str | None] = {bug: None for bug in BUG_KEYS}
    unexpected = []
    for key in keys:
        bug = next((b for b, k in BUG_KEYS.items() if key in k), None)
        if bug is None or key.startswith(MATCHES_REFERENCE) != (mode == "differential") or found[bug] is not None:
            unexpected.append(key)
        else:
            found[bug] = key
    return found, unexpected


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=2000, help="examples of the clean differential run")
    parser.add_argument("--buggy-examples", type=int, default=500, help="example budget of each buggy run")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, default=ROOT / "benchmarks" / "results" / "tiny_engine.json")
    args = parser.parse_args(argv)
    tiny = load_tiny()

    clean, clean_seconds = fuzz(tiny.engine, examples=args.examples, seed=args.seed, against=True, keep_going=True)
    stats = clean.stats
    early = getattr(stats, "early_declines", 0)
    tested = stats.examples - early
    report = {"clean": {"examples": stats.examples, "steps": stats.steps, "seconds": round(clean_seconds, 2),
                        "findings": [f.key for f in clean.findings], "declines": dict(getattr(stats, "declines", {})),
                        "early_declines": early}}
    print(f"tiny --against reference: {stats.examples} examples, {stats.steps} steps, {clean_seconds:.1f} s, "
          f"{len(clean.findings)} findings, {early} declined at once")
    for finding in clean.findings:
        print(f"  FALSE POSITIVE {finding.key}: {finding.violation.messages[0]}")

    ok = not clean.findings and tested * 2 > stats.examples
    detected = {}
    for mode in ("differential", "invariant-only"):
        differential = mode == "differential"
        result, seconds = fuzz(tiny.buggy, examples=args.buggy_examples, seed=args.seed, against=differential,
                               keep_going=True, oracle_only=differential)
        keys = [f.key for f in result.findings]
        found, unexpected = bugs_found(keys, mode)
        detected[mode] = sum(1 for k in found.values() if k)
        ok = ok and detected[mode] == len(BUG_KEYS) and not unexpected
        report[mode] = {"examples": result.stats.examples, "seconds": round(seconds, 2), "keys": keys,
                        "found": found, "unexpected": unexpected,
                        "examples_to_find": {f.key: f.examples_to_find for f in result.findings}}
        print(f"tiny-buggy {mode} --keep-going: {result.stats.examples} examples, {seconds:.1f} s")
        print(f"  {'planted bug':30} {'found as':55} examples to find")
        for bug, key in found.items():
            first = next((f.examples_to_find for f in result.findings if f.key == key), None)
            print(f"  {bug:30} {key or 'NOT FOUND':55} {first if first is not None else '-'}")
        for key in unexpected:
            print(f"  unexpected finding {key}")

    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"tiny: clean over {stats.examples} examples ({len(clean.findings)} false positives); "
          f"buggy: {detected['differential']}/3 differential, {detected['invariant-only']}/3 invariant-only")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
