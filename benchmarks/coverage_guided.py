"""What ``--coverage-guided`` changes: the steps spent on what a run exercises least.

For each engine and seed, runs the same example budget three times with no example
database: unguided (the default), unguided in the guided run's chunks of examples
(``chunk=GUIDED_CHUNK``: Hypothesis runs of that many examples, which alone changes how
long examples are), and ``coverage_guided``. It prints per kind (CR rules, rulings,
cards) the steps on the least exercised quarter
(:func:`harness.reporting.rule_coverage.least_exercised`) and how many names were never exercised,
then the totals over seeds and the ratios of guided to each unguided mode. The last
line is::

    coverage-guided: least exercised quarter x R over unguided (rules x A, rulings x B, cards x C), x S over unguided in the same chunks

over every engine and seed. Budgets are in examples, so a loaded machine gives the same
figures, only later.

    python benchmarks/coverage_guided.py                                   # reference and tiny, 3 seeds
    python benchmarks/coverage_guided.py --engine reference --examples 300 --seeds 1 2 3 4
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

KINDS = ("rules", "rulings", "cards")
ENGINES = {"reference": "reference", "tiny": str(ROOT / "examples" / "engines" / "tiny" / "engine.py") + ":engine"}


def main(argv=None) -> int:
    from harness.generation.guidance import GUIDED_CHUNK
    from harness.connection.loading import load_engine
    from harness.reporting.rule_coverage import least_exercised
    from harness.running.runner import run

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", action="append", choices=sorted(ENGINES), help="default: reference and tiny")
    parser.add_argument("--examples", type=int, default=150, help="examples per run (default 150)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    args = parser.parse_args(argv)
    modes = {"unguided": {}, "chunked": {"chunk": GUIDED_CHUNK}, "guided": {"coverage_guided": True}}
    totals = {mode: dict.fromkeys(KINDS, 0) for mode in modes}
    for name in args.engine or ["reference", "tiny"]:
        for seed in args.seeds:
            for mode, options in modes.items():
                started = time.process_time()
                result = run(load_engine(ENGINES[name]), max_examples=args.examples, seed=seed, database=None,
                             **options)
                low = least_exercised(result.rule_coverage)
                for kind in KINDS:
                    totals[mode][kind] += low[kind]
                never = {k: len(result.rule_coverage[k]["never"]) for k in KINDS}
                print(f"{name:9} seed {seed} {mode:8}: least exercised quarter " +
                      ", ".join(f"{k} {low[k]} (never {never[k]})" for k in KINDS) +
                      f"; {result.stats.steps} steps, {time.process_time() - started:.1f} CPU s", flush=True)
    ratio = {k: totals["guided"][k] / totals["unguided"][k] if totals["unguided"][k] else float("nan") for k in KINDS}
    overall = sum(totals["guided"].values()) / max(1, sum(totals["unguided"].values()))
    chunked = sum(totals["guided"].values()) / max(1, sum(totals["chunked"].values()))
    print("totals: " + "; ".join(f"{mode} " + ", ".join(f"{k} {totals[mode][k]}" for k in KINDS) for mode in totals))
    print(f"coverage-guided: least exercised quarter x {overall:.2f} over unguided (" +
          ", ".join(f"{k} x {ratio[k]:.2f}" for k in KINDS) + f"), x {chunked:.2f} over unguided in the same chunks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
