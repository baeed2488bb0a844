"""How long ``import cards`` and the first look-up of a card of the card database take.

Runs ``python -c "import cards; cards.card('Hill Giant')"`` in fresh subprocesses (the
database is read at a process's first look-up of a card outside the curated pool: the
sorted file is bisected for the card's line, one record parsed) and, in the same run, ``python -c "pass"`` as the
interpreter's own start-up baseline. Prints the median seconds of each (``--repeat``
runs, default 5), the ratio of the two and the target; the last line is always::

    card lookup: S s (xR of python -c pass; target < 0.5 s)

The exit code is 1 when the median is 0.5 s or more (the target), else 0.

    python benchmarks/card_lookup.py
    python benchmarks/card_lookup.py --repeat 9 --card "Delver of Secrets"
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_SECONDS = 0.5


def _seconds(code: str) -> float:
    """Wall seconds of one fresh ``python -c code`` (run from the project's folder)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))}
    env.pop("RULESFUZZ_ORACLE", None)  # the database alone: no --oracle files
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True)
    return time.perf_counter() - started


def measure(repeat: int = 5, name: str = "Hill Giant") -> dict[str, float]:
    """``{"seconds": median of import + first look-up of ``name``, "baseline": median of
    python -c pass, "ratio": their ratio}``, each over ``repeat`` fresh processes (the two
    alternate, so load on the machine falls on both)."""
    lookup, baseline = [], []
    for _ in range(repeat):
        baseline.append(_seconds("pass"))
        lookup.append(_seconds(f"import cards; cards.card({name!r})"))
    seconds, base = statistics.median(lookup), statistics.median(baseline)
    return {"seconds": seconds, "baseline": base, "ratio": seconds / base if base > 0 else float("inf")}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="fresh processes of each kind (default 5)")
    parser.add_argument("--card", default="Hill Giant", help="the card looked up (default Hill Giant)")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat: expected a positive number")
    figures = measure(args.repeat, args.card)
    print(f"python -c pass: {figures['baseline']:.3f} s (median of {args.repeat})")
    print(f"import cards; cards.card({args.card!r}): {figures['seconds']:.3f} s (median of {args.repeat})")
    print(f"card lookup: {figures['seconds']:.3f} s (x{figures['ratio']:.2f} of python -c pass; "
          f"target < {TARGET_SECONDS} s)")
    return 0 if figures["seconds"] < TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
