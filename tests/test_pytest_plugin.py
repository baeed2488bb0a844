"""The pytest plugin: ``pytest --rulesfuzz-engine=SPEC`` fuzzes an engine as a test item."""

from __future__ import annotations

from .conftest import FORKS

pytest_plugins = ["pytester"]


def test_plugin_passes_on_reference(pytester):
    pytester.makepyfile("def test_nothing():\n    pass\n")
    result = pytester.runpytest("-p", "no:xdist", "--rulesfuzz-engine=reference", "--rulesfuzz-examples=30",
                                "--rulesfuzz-replay-dir", str(pytester.path / "replays"))
    result.assert_outcomes(passed=2)


def test_plugin_fails_on_a_fork_with_the_report(pytester):
    result = pytester.runpytest("-p", "no:xdist", f"--rulesfuzz-engine={FORKS / 'umbra_taps_creature.py'}:engine",
                                "--rulesfuzz-examples=300", "--rulesfuzz-replay-dir", str(pytester.path / "replays"))
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*VIOLATION umbra_armor.not_regeneration*", "*Replay file:*"])
