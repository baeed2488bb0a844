"""Exploration at near engine speed: ``rulesfuzz run --explore``.

Hypothesis's engine spends most of a step on what exploration doesn't need: choosing a
rule through a filtered draw and feature flags, recording every choice in a data tree,
spans and labels, mutating earlier examples. Here each example runs the machine's own
``@initialize`` and ``@rule`` methods, with their own strategies, on plain pseudo-random
draws (:func:`harness.generation.hypothesis_shim.draw_at_random`), seeded from the run's seed:

* the board is drawn by the ``@initialize`` rule, as under Hypothesis;
* each step picks one rule uniformly among those whose preconditions hold and whose
  Bundles hold something, draws its arguments and runs it (the session checks every
  invariant after the event, as always);
* after the last step the machine's teardown runs the scenario-scope invariants, on one
  example in :data:`SCENARIO_EVERY`.

Generation is the same code as under Hypothesis, so the same boards and events occur
(with other frequencies), and what is gated off for an engine is gated off here too.

A failing example is not shrunk here: its scenario (board, events, decisions) goes back to
the runner, which reduces it with :mod:`harness.running.reduce` (removing steps and board objects
while the same finding still fails), writes its replay file, and keeps it in the example
database under a key of its own (:func:`corpus_key`), so the next run on that database
replays it first (:func:`saved_scenarios`). The run is reproducible: the same seed gives
the same examples.
"""

from __future__ import annotations

import json
from random import Random

from harness.generation import hypothesis_shim
from harness.running.recording import InvariantViolation
from harness.protocol import RulesfuzzError

__all__ = ["ExampleDeclined", "RandomData", "corpus_key", "explore", "save_scenario", "saved_scenarios"]


class ExampleDeclined(RulesfuzzError):
    """An example ended without a verdict: the engine declined it (``Unsupported``), or a
    draw could not be made (a filter nothing passed)."""


class RandomData:
    """What ``st.data()`` draws as during exploration: ``draw(strategy, label=None)``
    returns one value of ``strategy`` drawn at random (the label is ignored), like
    Hypothesis's ``DataObject``."""

    __slots__ = ("random_source",)

    def __init__(self, source: hypothesis_shim.RandomSource):
        #: What it draws from (:func:`harness.generation.hypothesis_shim.random_source`, which reads it
        #: about three times a step: an attribute, not a property, saves a call each time).
        self.random_source = source
        source.data = self

    def draw(self, strategy, label=None):
        try:
            return hypothesis_shim.draw_at_random(strategy, self.random_source)
        except hypothesis_shim.NothingSatisfies as exc:
            raise ExampleDeclined(f"no value satisfies {exc}") from None


def example_seed(seed: int, index: int) -> int:
    """The seed of example ``index`` of an exploration seeded with ``seed``."""
    return seed * 1_000_003 + index


#: Exploration runs the scenario-scope invariants (``generic.determinism``: the whole
#: example replayed on a fresh game) on one example in this many, the first included: a
#: game that differs when replayed differs on most examples, so it is still found, and
#: seven eighths of the replays (about 15% of a step when every example is replayed) are
#: saved. Replays and runs without ``--explore`` check every example.
SCENARIO_EVERY = 8


def run_one(machine_class, seed: int, steps: int, scenario_checks: bool = True):
    """Run one example of ``machine_class`` (from :func:`harness.running.machine.make_machine`) with
    choices drawn from ``seed``: its ``@initialize`` rules, then up to ``steps`` rules,
    then (when ``scenario_checks``) its scenario-scope invariants.

    Raises :class:`~harness.running.recording.InvariantViolation` for a finding and
    :class:`ExampleDeclined` for an example without a verdict; returns the machine otherwise.
    """
    initializers, rules = _rules(machine_class)
    rng = Random(seed)
    bundles: dict[str, list] = {}
    source = hypothesis_shim.RandomSource(rng, bundles)
    data = RandomData(source)
    machine = machine_class.outside_hypothesis_run()
    machine.scenario_checks = scenario_checks
    try:
        for rule in initializers:
            _run_rule(machine, rule, data, bundles)
        for _ in range(steps):
            if machine.stopped:
                break
            rule = _pick_rule(machine, rules, rng, bundles)
            if rule is None:
                break
            try:
                _run_rule(machine, rule, data, bundles)
            except hypothesis_shim.EmptyBundle:  # a nested Bundle (in a list, in one_of) is empty
                continue
    except hypothesis_shim.NothingSatisfies as exc:
        machine.release()
        raise ExampleDeclined(f"no value satisfies {exc}") from None
    except BaseException:
        machine.release()
        raise
    machine.teardown()
    return machine


def _pick_rule(machine, rules: list, rng: Random, bundles: dict[str, list]):
    """One rule drawn among those that can run now (preconditions true, Bundles not empty),
    or None: uniformly, or in a coverage-guided run (``--coverage-guided``) with the weights
    of :mod:`harness.generation.guidance`, the rule drawn then noted as its step's source. Rules are
    tried in random order and only the drawn one's preconditions are evaluated, so a step
    costs one or two precondition checks (the list of the rules left is made only when the first
    one drawn can't run)."""
    weights = None
    if machine.coverage_guided:
        weights = machine.plan.guidance.rule_weights(tuple(r.function.__name__ for r in rules))
    left = len(rules)
    candidates: list[int] | None = None  # None: every rule is left, each at its own index
    while left:
        if weights and left == len(rules):
            j = hypothesis_shim.weighted_index(rng, len(rules), weights)
        else:
            j = rng.randrange(left)
        rule = rules[j if candidates is None else candidates[j]]
        needed, preconditions = rule.bundles, rule.preconditions  # most rules have neither: no generator made
        if (not needed or all(bundles.get(b.name) for b in needed)) and \
                (not preconditions or all(p(machine) for p in preconditions)):
            if machine.coverage_guided:
                machine.run_stats.coverage.source = rule.function.__name__
            return rule
        if candidates is None:
            candidates = list(range(len(rules)))
        candidates[j] = candidates[-1]
        candidates.pop()
        left -= 1
    return None


def _run_rule(machine, rule, data: RandomData, bundles: dict[str, list]) -> None:
    kwargs = {name: data.draw(strategy) for name, strategy in rule.arguments.items()}
    result = rule.function(machine, **kwargs)
    if rule.targets:
        values = hypothesis_shim.results_of(result)
        for target in rule.targets:
            bundles.setdefault(target, []).extend(values)


_rules_cache: dict[type, tuple] = {}


def _rules(machine_class) -> tuple[list, list]:
    found = _rules_cache.get(machine_class)
    if found is None:
        found = _rules_cache[machine_class] = hypothesis_shim.rules_of(machine_class)
    return found


#: An exploration gives up on a chunk after this many declined examples per example asked
#: for (an engine that declines nearly every board), as Hypothesis gives up on a test whose
#: examples are nearly all rejected.
MAX_DECLINED_PER_EXAMPLE = 10


def explore(machine_class, count: int, seed: int, steps: int, first: int = 0) -> tuple[InvariantViolation | None, int, int]:
    """Run examples of an exploration seeded with ``seed``, from example number ``first``
    on (:func:`example_seed`), each of up to ``steps`` rules, until ``count`` examples ran
    with a verdict or one failed with a new finding. Declined examples (the engine raised
    ``Unsupported``) don't count toward ``count``, as in runs without ``--explore``; after
    ``MAX_DECLINED_PER_EXAMPLE * count`` of them the chunk ends.

    Returns ``(violation, ran, tried)``: the first finding's
    :class:`~harness.running.recording.InvariantViolation` (or None), how many examples ran with a
    verdict (the failing one included) and how many were tried (declined ones included:
    the next chunk starts at ``first + tried``).
    """
    ran = tried = 0
    while ran < count and tried - ran < MAX_DECLINED_PER_EXAMPLE * count:
        index = first + tried
        tried += 1
        try:
            run_one(machine_class, example_seed(seed, index), steps, scenario_checks=index % SCENARIO_EVERY == 0)
        except ExampleDeclined:
            continue
        except InvariantViolation as found:
            return found, ran + 1, tried
        ran += 1
    return None, ran, tried


# --------------------------------------------------------------------------- the corpus
def corpus_key(digest: bytes) -> bytes:
    """The example-database key under which exploration keeps the scenarios of its findings
    for the engine whose database digest is ``digest`` (``harness.running.runner.run``'s)."""
    return b"rulesfuzz-explore-corpus:" + digest


def save_scenario(database, digest: bytes, scenario: dict) -> None:
    """Keep ``scenario`` (a replay file's content) in ``database`` (a Hypothesis
    ``ExampleDatabase``) for the next exploration of the same engine."""
    if database is not None:
        database.save(corpus_key(digest), json.dumps(scenario, sort_keys=True).encode())


def saved_scenarios(database, digest: bytes) -> list[dict]:
    """The scenarios :func:`save_scenario` kept for the engine of ``digest``, smallest
    first; values that are not scenarios are skipped."""
    if database is None:
        return []
    found = []
    for value in database.fetch(corpus_key(digest)):
        try:
            scenario = json.loads(value)
        except (ValueError, UnicodeDecodeError):
            continue
        if isinstance(scenario, dict) and isinstance(scenario.get("board"), dict) \
                and isinstance(scenario.get("steps"), list):
            found.append(scenario)
    return sorted(found, key=lambda s: (len(s["steps"]), len(s["board"].get("objects", ())), json.dumps(s)))
