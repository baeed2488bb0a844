"""This revision against another, in the same run: ``throughput.py --compare REV``.

REV's tree is exported (``git archive``) into a temporary folder and every measurement of
either revision runs in its own Python process, with that revision's packages first on
``sys.path`` (the driver checks it imported what it should), so neither revision's code or
warm caches help the other. Turns alternate which revision goes first.

- The scenarios are recorded once, by REV's harness on REV's reference engine, so both
  revisions can play them (REV's pool and event types); each revision's reference engine
  replays them (``engine_events_per_second``: new_game, apply, observe only).
- The harness: this revision's default mode (``harness_steps_per_second`` with
  ``explore=DEFAULT_EXPLORE``) against REV's ``--explore``, every invariant on, same seeds.

The figures are ratios of this revision's rate over REV's, the median over turns: the
lines ``reference engine vs REV: xF`` and ``harness vs REV: xF``.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Whether this revision's ``rulesfuzz run`` explores by default (``--explore``).
DEFAULT_EXPLORE = True

_DRIVER = r'''
import json, sys
tree, mode = sys.argv[1], sys.argv[2]
sys.path.insert(0, tree)
import harness
if not harness.__file__.startswith(tree):
    raise SystemExit(f"imported {harness.__file__}, not the tree {tree}")
from benchmarks import throughput
if mode == "record":
    examples, seed, out = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    with open(out, "w") as f:
        json.dump(throughput.record_scenarios(examples, seed, explore=True), f)
    print(json.dumps({"recorded": out}))
elif mode == "engine":
    with open(sys.argv[3]) as f:
        scenarios = json.load(f)
    print(json.dumps(throughput.engine_events_per_second(scenarios, int(sys.argv[4]))))
elif mode == "harness":
    examples, seed, explore = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1"
    print(json.dumps(throughput.harness_steps_per_second(examples, seed, explore=explore)))
'''


class CompareError(Exception):
    """REV can't be exported or one of the measuring processes failed (the message says which)."""


def export(rev: str, into: Path) -> Path:
    """Write the tree of ``rev`` (any git revision of this repository) into ``into``/tree.

    Raises :class:`CompareError` when git doesn't know ``rev``."""
    tree = into / "tree"
    tree.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev], capture_output=True)
    if archive.returncode != 0:
        raise CompareError(f"git archive {rev}: {archive.stderr.decode(errors='replace').strip()}")
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
    return tree


def _measure(driver: Path, tree: Path, *args: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, str(driver), str(tree), *args], capture_output=True, text=True,
                          cwd=tree, env=env)
    if done.returncode != 0:
        raise CompareError(f"{tree.name} {' '.join(args)}: exit {done.returncode}: {done.stderr.strip()[-800:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def compare(rev: str, examples: int, seed: int, turns: int, repeat: int = 3) -> dict:
    """Measure this revision against ``rev`` in ``turns`` interleaved turns.

    Returns ``{"rev", "engine": [x per turn], "harness": [x per turn], "engine_ratio",
    "harness_ratio", "rates": [...]}``: ratios are this revision's events/s (steps/s per CPU
    second) over REV's. ``examples`` is the number of examples recorded for the engine's
    scenarios and run by each harness measurement; turn t uses seed ``seed + t``.
    Raises :class:`CompareError`.
    """
    with tempfile.TemporaryDirectory(prefix="rulesfuzz-compare-") as tmp:
        tmp_path = Path(tmp)
        driver = tmp_path / "driver.py"
        driver.write_text(_DRIVER)
        old = export(rev, tmp_path)
        new = ROOT
        engine_x, harness_x, rates = [], [], []
        for turn in range(turns):
            scenarios = tmp_path / f"scenarios-{turn}.json"
            _measure(driver, old, "record", str(examples), str(seed + turn), str(scenarios))
            order = [(new, DEFAULT_EXPLORE), (old, True)]
            if turn % 2:
                order.reverse()
            engine, harness = {}, {}
            for tree, explore in order:
                engine[tree] = _measure(driver, tree, "engine", str(scenarios), str(repeat))["per_second"]
                harness[tree] = _measure(driver, tree, "harness", str(examples), str(seed + turn),
                                         "1" if explore else "0")["per_second"]
            engine_x.append(engine[new] / engine[old])
            harness_x.append(harness[new] / harness[old])
            rates.append({"engine": {"this": engine[new], rev: engine[old]},
                          "harness": {"this": harness[new], rev: harness[old]}})
    return {"rev": rev, "engine": engine_x, "harness": harness_x, "rates": rates,
            "engine_ratio": statistics.median(engine_x), "harness_ratio": statistics.median(harness_x)}


def print_comparison(result: dict) -> None:
    """The two lines of ``--compare``, then each turn's rates."""
    rev = result["rev"]
    print(f"reference engine vs {rev}: x{result['engine_ratio']:.2f}   (turns: "
          f"{', '.join(f'x{x:.2f}' for x in result['engine'])})")
    mode = "--explore" if DEFAULT_EXPLORE else "Hypothesis's engine"
    print(f"harness vs {rev}: x{result['harness_ratio']:.2f}   (this revision's default mode, {mode}, against "
          f"{rev}'s --explore; turns: {', '.join(f'x{x:.2f}' for x in result['harness'])})")
    for turn, rate in enumerate(result["rates"], 1):
        print(f"    turn {turn}: engine {rate['engine']['this']:.0f} vs {rate['engine'][rev]:.0f} events/s, "
              f"harness {rate['harness']['this']:.0f} vs {rate['harness'][rev]:.0f} steps/s")
