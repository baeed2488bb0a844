"""The pytest plugin: ``pytest --rulesfuzz-engine=SPEC`` fuzzes an engine as a test item, with the
options of ``rulesfuzz run`` that CI needs. Tried on the reference engine, a fork, and the tiny
engine written from scratch (examples/engines/tiny/engine.py), whose first planted bug (damage
kept on a creature put into a graveyard, CR 400.7) seed 0 finds at once."""

from __future__ import annotations

import json

import harness.running.runner  # noqa: F401  imported before pytester's in-process runs, which restore sys.modules after each

from .conftest import FORKS, ROOT

pytest_plugins = ["pytester"]

TINY = ROOT / "examples/engines/tiny/engine.py"
BUGGY, CLEAN = f"{TINY}:buggy", f"{TINY}:engine"
FIRST_BUG = "generic.damage_only_on_battlefield"  # CR 400.7: seed 0 finds it on its first example


def fuzz(pytester, engine, *extra, examples=40):
    return pytester.runpytest("-p", "no:xdist", f"--rulesfuzz-engine={engine}", f"--rulesfuzz-examples={examples}",
                              "--rulesfuzz-replay-dir", str(pytester.path / "replays"), *extra)


def failure_text(result) -> list[str]:
    """The lines of the item's failure section (between its header and the summary)."""
    lines = result.stdout.lines
    start = next(i for i, line in enumerate(lines) if line.startswith("_") and " rulesfuzz[" in line)
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("=") or lines[i].startswith("- "))
    return [line for line in lines[start + 1:end] if line.strip()]


def test_plugin_passes_on_reference(pytester):
    pytester.makepyfile("def test_nothing():\n    pass\n")
    result = fuzz(pytester, "reference", "--rulesfuzz-database=none", examples=30)
    result.assert_outcomes(passed=2)


def test_plugin_fails_on_a_fork_with_the_report(pytester):
    # no-shrink (a setting of [tool.rulesfuzz] the item's run takes): the report of the finding as
    # found is what is asserted (shrinking it was 13 s of the suite); the tiny engine's tests shrink.
    pytester.makepyprojecttoml("[tool.rulesfuzz]\nno-shrink = true\n")
    result = fuzz(pytester, f"{FORKS / 'umbra_taps_creature.py'}:engine", "--rulesfuzz-database=none", examples=300)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*VIOLATION umbra_armor.not_regeneration*", "*Replay file:*"])
    assert "Not shrunk (no-shrink = true)" in failure_text(result)[0]


def test_the_failure_text_ends_with_the_replay_command(pytester):
    result = fuzz(pytester, BUGGY, "--rulesfuzz-database=none")
    result.assert_outcomes(failed=1)
    text = failure_text(result)
    assert any(f"VIOLATION {FIRST_BUG}" in line for line in text) and "  Rules: CR 120.3, 400.7" in text
    replay_file = next(line.split("Replay file: ")[1] for line in text if line.startswith("Replay file: "))
    assert text[-1] == f"Replay it:   rulesfuzz replay {replay_file} --engine {BUGGY}"
    assert json.loads((pytester.path / "replays" / replay_file.rsplit("/", 1)[1]).read_text())["key"] == FIRST_BUG


def test_keep_going_and_baseline(pytester):
    (pytester.path / "base.json").write_text(json.dumps({"format": "rulesfuzz-baseline/1", "findings": [
        {"key": FIRST_BUG, "reason": "damage in the graveyard: fixed in tiny 1.1"}]}))
    # Without --rulesfuzz-keep-going the run stops at its first finding, which the baseline knows: passes.
    fuzz(pytester, BUGGY, "--rulesfuzz-database=none", "--rulesfuzz-baseline=base.json").assert_outcomes(passed=1)
    # With it, the run goes on to another planted bug (deathtouch ignored, CR 704.5h, or Shock's damage
    # lost by the wrong player, 120.3a): new, so it fails, and the failure shows only the new finding,
    # after the table of all of them.
    result = fuzz(pytester, BUGGY, "--rulesfuzz-database=none", "--rulesfuzz-baseline=base.json",
                  "--rulesfuzz-keep-going")
    result.assert_outcomes(failed=1)
    text = "\n".join(failure_text(result))
    assert f"{FIRST_BUG} (known)" in text
    assert "VIOLATION damage.player_loses_life" in text or "VIOLATION sba.deathtouch_damage" in text
    assert f"VIOLATION {FIRST_BUG}" not in text


def test_against_the_reference_engine(pytester):
    result = fuzz(pytester, BUGGY, "--rulesfuzz-database=none", "--rulesfuzz-against=reference", examples=20)
    result.assert_outcomes(failed=1)
    assert failure_text(result)[-1].endswith(f"--engine {BUGGY} --against reference")
    fuzz(pytester, CLEAN, "--rulesfuzz-database=none", "--rulesfuzz-against=reference",
         examples=10).assert_outcomes(passed=1)


def test_max_seconds_bounds_the_run(pytester):
    # 3 s: far more than a first step takes even on a loaded machine (one ending before it fails the item, below)
    result = fuzz(pytester, CLEAN, "--rulesfuzz-database=none", "--rulesfuzz-max-seconds=3", examples=1_000_000)
    result.assert_outcomes(passed=1)


def test_a_time_budget_that_ends_before_the_first_step_fails_the_item(pytester):
    """Nothing tested is not a pass: the item fails, saying the time budget ran out first."""
    result = fuzz(pytester, CLEAN, "--rulesfuzz-database=none", "--rulesfuzz-max-seconds=0.000001")
    result.assert_outcomes(failed=1)
    assert any("ran out before the first step: nothing was tested" in line for line in failure_text(result))


def test_database_replays_a_saved_failure_first_and_says_so(pytester):
    database = f"--rulesfuzz-database={pytester.path / 'db'}"
    first = fuzz(pytester, BUGGY, database)
    first.assert_outcomes(failed=1)
    assert not any("REPLAYED" in line for line in failure_text(first))
    again = fuzz(pytester, BUGGY, database)
    again.assert_outcomes(failed=1)
    assert any("REPLAYED from the example database" in line for line in failure_text(again))


def test_the_item_is_collected_selected_and_deselected_like_any_test(pytester):
    pytester.makepyfile("def test_other():\n    pass\n")
    spec = f"--rulesfuzz-engine={CLEAN}"
    collected = pytester.runpytest("-p", "no:xdist", spec, "--collect-only", "-q")
    collected.stdout.fnmatch_lines(["*test_other*", f"rulesfuzz::rulesfuzz_engine[[]{CLEAN}[]]", "2 tests collected*"])
    only = pytester.runpytest("-p", "no:xdist", spec, "--rulesfuzz-examples=5", "--rulesfuzz-database=none",
                              "-k", "rulesfuzz_engine", "-v")
    only.assert_outcomes(passed=1, deselected=1)
    only.stdout.fnmatch_lines(["*rulesfuzz_engine*PASSED*"])
    without = pytester.runpytest("-p", "no:xdist", spec, "-m", "not rulesfuzz")
    without.assert_outcomes(passed=1, deselected=1)


def test_bad_options_are_usage_errors(pytester):
    for option, words in (("--rulesfuzz-database=bogus://x", "--rulesfuzz-database: bogus://x: unknown scheme"),
                          ("--rulesfuzz-baseline=missing.json", "--rulesfuzz-baseline:"),
                          ("--rulesfuzz-examples=0", "--rulesfuzz-examples: expected a positive number"),
                          ("--rulesfuzz-max-seconds=-1", "--rulesfuzz-max-seconds: expected a positive number"),
                          ("--rulesfuzz-max-seconds=nan", "--rulesfuzz-max-seconds: expected a positive number"),
                          ("--rulesfuzz-skip-invariant=generic.nope",
                           "--rulesfuzz-skip-invariant: unknown invariant(s) ?'generic.nope'?; see*"),
                          # A finding there would have no replay file: refused before fuzzing, as `run` does.
                          ("--rulesfuzz-replay-dir=a-file/replays",
                           "--rulesfuzz-replay-dir a-file/replays: */a-file is a file, not a folder")):
        (pytester.path / "a-file").write_text("not a folder")
        result = pytester.runpytest("-p", "no:xdist", f"--rulesfuzz-engine={BUGGY}", option)
        assert result.ret == 4, option  # pytest's usage error
        result.stderr.fnmatch_lines([f"ERROR: {words}*"])
    broken = fuzz(pytester, f"{TINY}:no_such_engine", "--rulesfuzz-database=none")
    broken.assert_outcomes(failed=1)
    assert [line for line in failure_text(broken)] == [
        next(line for line in failure_text(broken) if line.startswith("rulesfuzz: error: "))]


def test_skip_invariant_leaves_the_invariant_out(pytester):
    """--rulesfuzz-skip-invariant (repeatable): the tiny engine's first planted bug (CR 400.7) is
    found only by generic.damage_only_on_battlefield; skipping it (and the other two bugs'
    invariants) leaves a run of the buggy engine that finds nothing."""
    skips = [f"--rulesfuzz-skip-invariant={name}" for name in (FIRST_BUG, "damage.player_loses_life",
                                                                  "sba.deathtouch_damage",
                                                                  "zones.destroyed_without_replacement_leaves")]
    fuzz(pytester, BUGGY, "--rulesfuzz-database=none", *skips, examples=30).assert_outcomes(passed=1)
    fuzz(pytester, BUGGY, "--rulesfuzz-database=none", *skips[1:], examples=30).assert_outcomes(failed=1)


def test_readme_documents_every_plugin_option(pytester):
    import re

    options = set(re.findall(r"--rulesfuzz-[a-z-]+", "\n".join(pytester.runpytest("--help").stdout.lines)))
    assert len(options) >= 9
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert not [o for o in sorted(options) if o not in readme]


def test_a_profile_of_pyproject_gives_the_item_its_options(pytester):
    """`pytest --rulesfuzz-profile NAME`: the engine and budgets come from [tool.rulesfuzz] and the
    profile of the nearest pyproject.toml; the command line still wins."""
    pytester.makepyprojecttoml(f"""
[tool.rulesfuzz]
engine = "{BUGGY}"
database = "none"
replay-dir = "from-settings"

[tool.rulesfuzz.profiles.quick]
max-examples = 30
""")
    result = pytester.runpytest("-p", "no:xdist", "--rulesfuzz-profile=quick")
    result.assert_outcomes(failed=1)
    assert failure_text(result)[-1].endswith(f"--engine {BUGGY}")
    assert list((pytester.path / "from-settings").glob("tiny-buggy-*.json"))
    fixed = pytester.runpytest("-p", "no:xdist", "--rulesfuzz-profile=quick", f"--rulesfuzz-engine={CLEAN}")
    fixed.assert_outcomes(passed=1)
    unknown = pytester.runpytest("-p", "no:xdist", "--rulesfuzz-profile=nightly")
    assert unknown.ret == 4
    unknown.stderr.fnmatch_lines(["ERROR: --rulesfuzz-profile nightly: no such profile; known: explore, gate, quick*"])


def test_no_item_without_an_engine_or_a_profile(pytester):
    pytester.makepyprojecttoml(f'[tool.rulesfuzz]\nengine = "{CLEAN}"\n')
    pytester.makepyfile("def test_other():\n    pass\n")
    pytester.runpytest("-p", "no:xdist").assert_outcomes(passed=1)  # settings alone don't add the item


CRASHES_ON_SACRIFICE = f"""
import os
import sys

sys.path.insert(0, {str(ROOT)!r})
from examples.engines.tiny.engine import TinyEngine


class CrashesOnSacrifice(TinyEngine):
    '''The tiny engine, whose process dies (os._exit) when it applies a sacrifice.'''

    def new_game(self, board):
        game = super().new_game(board)
        apply = game.apply

        def dying_apply(event, decider):
            if event["type"] == "sacrifice":
                os._exit(9)
            return apply(event, decider)

        game.apply = dying_apply
        return game


engine = CrashesOnSacrifice()
"""


def test_settings_without_a_plugin_option_apply_to_the_item(pytester, monkeypatch):
    """[tool.rulesfuzz]'s isolate, step-timeout and steps reach the item's run: an engine that ends its
    process is a finding with a replay file, not the end of pytest (which the item ran in)."""
    (pytester.path / "crashes.py").write_text(CRASHES_ON_SACRIFICE)
    pytester.makepyprojecttoml('[tool.rulesfuzz]\nengine = "crashes.py:engine"\nisolate = true\n'
                               'step-timeout = 5\nsteps = 6\ndatabase = "none"\nmax-examples = 40\n')
    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # this checkout's plugin in pytest's own process
    result = pytester.runpytest_subprocess("-p", "no:xdist", f"--rulesfuzz-engine={pytester.path / 'crashes.py'}:engine")
    assert result.ret == 1, result.stdout.lines[-5:]
    result.assert_outcomes(failed=1)
    assert any("VIOLATION generic.engine_does_not_raise" in line for line in result.stdout.lines)
    assert list((pytester.path / "rulesfuzz-replays").glob("*engine_does_not_raise*.json"))


def test_the_invariant_setting_limits_the_item_and_is_checked(pytester):
    """invariant = [...] in [tool.rulesfuzz] checks only those: the tiny engine's three planted bugs break
    none of sba.lethal_damage (so the item passes); an unknown name is a usage error."""
    pytester.makepyprojecttoml(f'[tool.rulesfuzz]\nengine = "{BUGGY}"\ndatabase = "none"\nmax-examples = 30\n'
                               'invariant = ["sba.lethal_damage"]\n')
    pytester.runpytest("-p", "no:xdist", "--rulesfuzz-profile=gate").assert_outcomes(passed=1)
    pytester.makepyprojecttoml(f'[tool.rulesfuzz]\nengine = "{BUGGY}"\ninvariant = ["sba.nope"]\n')
    unknown = pytester.runpytest("-p", "no:xdist", "--rulesfuzz-profile=gate")
    assert unknown.ret == 4
    assert "ERROR: [tool.rulesfuzz] invariant: unknown invariant(s) ['sba.nope']" in unknown.stderr.str()


def test_the_items_engine_process_is_shut_down_when_the_item_ends(pytester):
    """isolate = true ([tool.rulesfuzz]) starts the engine in its own process: the item shuts it down
    when it ends, passed or failed (pytest runs on; it isn't left to a garbage collection)."""
    import gc

    from .conftest import child_processes

    def engines():
        return {pid for pid, what in child_processes().items() if "harness.serve" in what}

    pytester.makepyprojecttoml('[tool.rulesfuzz]\nisolate = true\n')
    before = engines()
    gc.disable()
    try:
        for spec, outcome in ((CLEAN, {"passed": 1}), (BUGGY, {"failed": 1})):
            fuzz(pytester, spec, "--rulesfuzz-database=none", examples=5).assert_outcomes(**outcome)
            assert engines() == before
    finally:
        gc.enable()
