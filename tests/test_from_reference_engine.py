"""The Node.js engine written from the contract reference alone (examples/engines/from-reference):
it passes the conformance check, fuzzes clean alone and ``--against reference`` with the rules
of its cards exercised (counts, not time), and each planted bug is found by the invariant of
the rule it breaks. These tests need ``node``: without it they fail (CI installs it)."""

from __future__ import annotations

import shutil

import pytest

import invariants
from harness.adapters.reference import ReferenceAdapter
from harness.interfaces.cli import main
from harness.connection.loading import load_engine
from harness.running.runner import run

from .conftest import ROOT

ENGINE_JS = ROOT / "examples" / "engines" / "from-reference" / "engine.js"
#: Each planted bug, the finding it must give and the CR rule that finding cites.
BUGS = {
    "deathtouch_ignored": ("sba.deathtouch_damage", "704.5h"),
    "legend_keeps_both": ("legend_rule.controller_chooses", "704.5j"),
}
#: What a short clean run must have checked where it applied (the rules of the engine's cards).
EXERCISED = (
    "sba.lethal_damage", "sba.deathtouch_damage", "sba.zero_toughness", "sba.legend_rule", "sba.life_total",
    "legend_rule.controller_chooses", "zones.destroyed_without_replacement_leaves",
    "zones.sacrificed_goes_to_its_owners_graveyard", "templates.spell_destroys", "templates.spell_deals_damage",
    "damage.player_loses_life", "generic.illegal_changes_nothing",
)


def node(bug: str | None = None) -> str:
    if shutil.which("node") is None:
        pytest.fail("node is not installed; the Node.js engine tests need it (.ci/run installs the Debian "
                    "package: apt-get install -y nodejs)")
    return f"exec:node {ENGINE_JS}" + (f" --bug {bug}" if bug else "")


def test_passes_the_conformance_check(capsys):
    assert main(["check", "--engine", node()]) == 0, capsys.readouterr().out


@pytest.mark.parametrize("against", [None, "reference"])
def test_fuzzes_clean_with_its_rules_exercised(against, tmp_path, outside_coverage):
    engine = load_engine(node())
    try:
        result = run(engine, max_examples=60, seed=0, database=None, shrink=False, replay_dir=tmp_path,
                     against=ReferenceAdapter() if against else None)
    finally:
        engine.close()
    assert result.violation is None, [f.key for f in result.findings]
    assert not list(tmp_path.iterdir())
    stats = result.stats
    assert not stats.declines, stats.declines  # it declines nothing it is sent
    for kind in ("cast", "damage", "destroy", "sacrifice", "modify_pt", "put_onto_battlefield"):
        assert stats.events.get(kind, 0) > 0, (kind, stats.events)
    for name in EXERCISED:
        assert stats.applicable.get(name, 0) > 0, (name, stats.applicable)
    if against:
        assert stats.applicable.get("differential.matches_reference", 0) >= stats.steps > 0


@pytest.mark.parametrize("bug", sorted(BUGS))
def test_each_planted_bug_is_found(bug, tmp_path, outside_coverage):
    key, rule = BUGS[bug]
    engine = load_engine(node(bug))
    try:
        result = run(engine, max_examples=100, seed=0, database=None, replay_dir=tmp_path)
    finally:
        engine.close()
    assert result.violation is not None, f"{bug} not found"
    found = {v.invariant for v in result.violations}  # every invariant the shrunk step breaks
    assert key in found, (bug, found)
    assert rule in invariants.REGISTRY[key].rules
    assert result.replay_path is not None and result.replay_path.exists()


def test_an_unknown_bug_flag_fails_at_load(capsys):
    assert main(["run", "--engine", node("no_such_bug"), "--database", "none"]) == 2
