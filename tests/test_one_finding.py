"""One bug, one finding (issue 21 item 5; harness.reporting.findings).

The rule: the violations of one failing step are one finding, listing them all; its key is that
of the first of them in family order (rules, then generic, then the differential oracle) and then
the registry's order (harness.reporting.findings.step_key), with and without ``--against``. Keys that failed
together on a step stay together for the run: Hypothesis shrinks their failures as one, and under
``--keep-going`` a later step failing with any of them is a repeat of that finding, not a new one.

The fork: tests/mutants/cant_be_regenerated_stops_umbra.py lets "can't be regenerated" stop umbra
armor (wrong: umbra armor is not regeneration, CR 702.89a; Hyena Umbra 2010-06-15). One Wrath of
God on an enchanted creature breaks umbra_armor.mandatory, umbra_armor.exactly_one_aura and
umbra_armor.ignores_cant_be_regenerated on the same step; before this rule a later example could
report it again under umbra_armor.destroyed_together_with_its_aura (a second finding).
"""

from __future__ import annotations

from harness.adapters.reference import ReferenceAdapter
from harness.reporting.findings import step_key, violation_keys
from harness.protocol import Violation
from harness.running.runner import run
from invariants import REGISTRY
from tests.mutants import MUTANTS

FORK = "cant_be_regenerated_stops_umbra"
BROKEN = {"umbra_armor.mandatory", "umbra_armor.exactly_one_aura", "umbra_armor.ignores_cant_be_regenerated"}


def _v(name: str, *messages: str, step: int = 1) -> Violation:
    return Violation(name, step, messages or ("x",))


def test_the_key_is_the_first_rules_invariant_in_registry_order():
    names = list(REGISTRY)
    generic = next(n for n in names if REGISTRY[n].family == "generic")
    rules = [n for n in names if REGISTRY[n].family == "rules" and names.index(n) > names.index(generic)][:2]
    step = [_v(generic), _v(rules[1]), _v(rules[0])]
    assert step_key(step) == rules[0]  # rules before generic, then the registry's order
    assert step_key([_v(generic)]) == generic
    diff = _v("differential.matches_reference", "objects.b.zone: 'graveyard' here, 'battlefield' in the reference")
    assert step_key([diff, *step]) == rules[0]
    assert violation_keys([diff, *step])[0] == rules[0]  # the difference carries the same key
    assert step_key([diff]).startswith("differential.matches_reference[")


def _findings(against=None, shrink=False, examples=40, explore=False):
    result = run(MUTANTS[FORK].load(), max_examples=examples, seed=0, database=None, shrink=shrink,
                 keep_going=True, against=against, explore=explore)
    return result.findings


def test_one_bug_breaking_several_invariants_is_one_finding_in_both_modes(outside_coverage):
    alone, against = _findings(), _findings(ReferenceAdapter())
    for findings in (alone, against):
        assert len(findings) == 1, [(f.key, [v.invariant for v in f.violations]) for f in findings]
        finding = findings[0]
        listed = {v.invariant for v in finding.violations}
        assert BROKEN <= listed, listed
        assert finding.key == "umbra_armor.mandatory" == finding.violation.invariant
        assert len({v.step for v in finding.violations}) == 1
        assert finding.repeats > 0  # later examples of the same bug were counted, not reported
    assert alone[0].key == against[0].key
    assert "differential.matches_reference" in {v.invariant for v in against[0].violations}


def test_shrunk_once():
    """A bug found again and again in a keep-going run is reduced once, to its one step; exploring,
    as ``rulesfuzz run`` does by default (Hypothesis's engine shrinking a keep-going run's
    findings is covered by tests/test_finding_keys.py and tests/test_pool_engine.py)."""
    findings = _findings(shrink=True, examples=15, explore=True)
    assert [f.key for f in findings] == ["umbra_armor.mandatory"]
    assert BROKEN <= {v.invariant for v in findings[0].violations}
    assert len(findings[0].scenario["steps"]) == 1
