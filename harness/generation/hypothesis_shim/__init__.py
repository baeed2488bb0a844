"""The one place rulesfuzz reads Hypothesis internals (they may change between Hypothesis
releases; ``tests/test_harness_structure.py`` and ``tests/test_hypothesis_shim.py``
exercise every function here). The shim is this package: this module, and two of its own
that the rest of rulesfuzz never imports (what they define is imported from here):
:mod:`.random_draw`, the plain random draws of ``--explore`` (no Hypothesis at all: the parts
of a strategy are read here and handed to it), and :mod:`.checks`, the table of checks behind
:func:`internals_problems` (each reads the internals it checks).

Every internal read here, and why no public or documented API gives it:

* **drawing at random outside any Hypothesis test** (``rulesfuzz run --explore``,
  :mod:`harness.running.explore`): a strategy's parts, the attributes of the internal classes
  ``hypothesis.strategies._internal.*`` (integers' bounds, ``sampled_from`` 's elements and
  ``_transformations``, one_of's branches, tuples', lists', fixed_dictionaries' parts, ``.map``,
  ``.filter``, ``.flatmap``, composite definitions, deferred/lazy wrapping; a Bundle's
  transformations and ``consume``), to draw from it with a :class:`random.Random` and nothing
  else (:func:`draw_at_random`). Hypothesis's public ways to get a value all run its engine
  (``@given`` with ``st.data()``, ``find``: a ConjectureData, the data tree, spans per draw),
  which is what ``--explore`` goes without; ``SearchStrategy.example()`` takes no seed and is
  refused inside tests. No public API describes a strategy's parts.
* **a state machine's rules** (:func:`rules_of`, :func:`rule_names`, :func:`is_rule`): the rule
  records of ``RuleBasedStateMachine.setup_state()`` (function, arguments, targets, bundles,
  preconditions) and the ``hypothesis_stateful_rule`` marker: ``--explore`` runs the rules
  itself, and no public API lists them.
* **how the machine draws its next rule** (:func:`weight_rules`, :func:`machine_rule_names`:
  ``machine._rules_strategy`` and its filtered strategy) and **a weighted sampled_from**
  (:func:`weighted_choice`: a ``SampledFromStrategy`` subclass whose first tries call
  ``ConjectureData.draw_integer(weights=)``) for ``--coverage-guided``: Hypothesis has no
  public hook on the rule choice, and its public strategies sample uniformly (a weighted
  index drawn with public strategies would change what a choice sequence decodes to).
* a stable **database key** for an engine's tests (Hypothesis keys stateful tests by the
  machine class's source, the same for every engine): :func:`machine_test` mixes a digest of
  the engine's name in through ``inner_test._hypothesis_internal_add_digest``
  (``test.hypothesis.inner_test`` is public, the digest attribute not), and
  :func:`database_key` reads the key with ``hypothesis.internal.reflection.function_digest``,
  so saved failures of one engine are replayed first on its next run, never on another's;
* a **seed** that keeps the example database: the public ``hypothesis.seed`` switches the
  database off by swapping the test's settings, which can't be applied a second time
  publicly, so :func:`machine_test` puts them back (``_hypothesis_internal_use_settings``);
* **forgetting a finished run's machine** (:func:`forget_machine`): Hypothesis's per-class
  caches (``_setup_state_per_class``, the ``_to_test_case`` lru_cache) have no public clear;
* **a run's per-phase test cases** (:func:`run_statistics`): ``hypothesis.statistics.collector``,
  what the pytest plugin's ``--hypothesis-show-statistics`` reads, undocumented.

What a public API gives is read through it: a rule's ``multiple(...)`` results by iterating
them (:func:`results_of`), a test's settings as rulesfuzz passed them (:func:`settings_of`).

The Hypothesis versions this is written against are pinned in ``pyproject.toml`` (the
range ``tests/test_hypothesis_shim.py`` was run on; ``.ci/run`` installs the newest the pin
allows and the shim's tests print it). The shim detects what it reads rather
than asking the version: an internal class a release moved is replaced by one nothing is an
instance of (rulesfuzz still imports; only what needs it refuses, naming it), and
:func:`internals_problems` names every internal that is not where the shim looks, which
the shim's tests assert is nothing. What moved within the pinned range is handled in place:
``sampled_from`` 's transformations became triples in 6.167 (:func:`sampled_transformations`),
its filtered draw writes to the data it draws from since then (:class:`_FirstTriesWeighted`),
and Bundles keep their own ``.filter``/``.map`` and ``consume`` since their draws were
rewritten (after 6.155; :func:`_bundle_sampler`).
"""

from __future__ import annotations

import contextlib

import functools
import importlib
import sys
from typing import Any

from hypothesis import seed as hypothesis_seed
from hypothesis import settings as Settings
from hypothesis import stateful
from hypothesis.stateful import Bundle, get_state_machine_test
from hypothesis.strategies import SearchStrategy
from harness.generation.hypothesis_shim import checks
from harness.generation.hypothesis_shim.random_draw import (
    FILTER_TRIES as FILTER_TRIES, EmptyBundle as EmptyBundle, NothingSatisfies as NothingSatisfies,
    RandomSource as RandomSource, bundle_sampler, composite_sampler, filtered_sampler, many_sampler,
    one_of_sampler, permutation_sampler, random_source as random_source, sampled_sampler,
    weighted_index as weighted_index)

#: What :func:`_internal` could not find: ``"module.Name: why"``, one a line of
#: :func:`internals_problems`.
_MISSING: list[str] = []


def _internal(module: str, name: str):
    """``module.name`` of Hypothesis's internals, or (when a release moved it) a class that
    nothing is an instance of, the move noted for :func:`internals_problems`: rulesfuzz still
    imports and runs; only what needs that internal (a strategy kind under ``--explore``)
    refuses, naming it."""
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        _MISSING.append(f"{module}.{name} is gone ({type(exc).__name__}: {exc})")
        return type(f"Missing{name}", (), {"__doc__": f"stands for {module}.{name}, which this Hypothesis lacks"})


_S = "hypothesis.strategies._internal."
function_digest = _internal("hypothesis.internal.reflection", "function_digest")
FixedDictStrategy = _internal(_S + "collections", "FixedDictStrategy")
ListStrategy = _internal(_S + "collections", "ListStrategy")
TupleStrategy = _internal(_S + "collections", "TupleStrategy")
UniqueListStrategy = _internal(_S + "collections", "UniqueListStrategy")
CompositeStrategy = _internal(_S + "core", "CompositeStrategy")
DataStrategy = _internal(_S + "core", "DataStrategy")
PermutationStrategy = _internal(_S + "core", "PermutationStrategy")
DeferredStrategy = _internal(_S + "deferred", "DeferredStrategy")
FlatMapStrategy = _internal(_S + "flatmapped", "FlatMapStrategy")
LazyStrategy = _internal(_S + "lazy", "LazyStrategy")
BooleansStrategy = _internal(_S + "misc", "BooleansStrategy")
IntegersStrategy = _internal(_S + "numbers", "IntegersStrategy")
FilteredStrategy = _internal(_S + "strategies", "FilteredStrategy")
MappedStrategy = _internal(_S + "strategies", "MappedStrategy")
OneOfStrategy = _internal(_S + "strategies", "OneOfStrategy")
SampledFromStrategy = _internal(_S + "strategies", "SampledFromStrategy")
if not issubclass(SampledFromStrategy, SearchStrategy):
    SampledFromStrategy = type("MissingSampledFromStrategy", (SearchStrategy,), {})  # weighted_choice subclasses it
del _S

_RULE_MARKER = "hypothesis_stateful_rule"


def is_rule(function) -> bool:
    """Whether ``function`` was decorated with ``hypothesis.stateful.rule``."""
    return getattr(function, _RULE_MARKER, None) is not None


def rule_names(machine: type[stateful.RuleBasedStateMachine]) -> set[str]:
    """The names of the rules Hypothesis collects from ``machine`` (over its MRO)."""
    return {r.function.__name__ for r in machine.setup_state().rules}


def forget_machine(machine: type[stateful.RuleBasedStateMachine], *attributes: str) -> None:
    """Drop Hypothesis's caches of ``machine`` (its rules, a class-keyed dict that is never emptied,
    and its unittest class, an lru_cache of 128 classes before Hypothesis 6.170.27, an attribute of
    the class since):
    a run's machine class holds its engine, so a finished run would keep the engine, and an
    engine's child process, alive for as long as the process lives. Hypothesis's strategy cache
    may still hold the class: its ``attributes`` (the engines) are set to None too."""
    for name in attributes:
        setattr(machine, name, None)
    stateful.RuleBasedStateMachine._setup_state_per_class.pop(machine, None)
    to_test_case = stateful.RuleBasedStateMachine.__dict__.get("_to_test_case")  # an lru_cache by class:
    clear = getattr(getattr(to_test_case, "__func__", to_test_case), "cache_clear", None)  # only a cache,
    if clear is not None:  # made again on demand
        clear()
    elif "_test_case" in machine.__dict__:  # Hypothesis 6.170.27 on: kept on the class itself, made again
        delattr(machine, "_test_case")  # on demand (it holds nothing else alive, but drop it all the same)


def machine_test(machine, settings: Settings, seed: int, digest: bytes):
    """A callable running ``machine`` under ``settings`` with ``seed``, its database key mixed with ``digest``.

    Calling it raises what Hypothesis raises for a failure (the test's exception, or a
    ``BaseExceptionGroup`` of them with ``report_multiple_bugs``).
    """
    # Any: Hypothesis attaches .hypothesis and the settings to the function at run time (6.170 types it
    # Callable[..., None])
    test: Any = get_state_machine_test(machine, settings=settings)  # applies @settings(settings)
    test.hypothesis.inner_test._hypothesis_internal_add_digest = digest
    hypothesis_seed(seed)(test)  # public, but it also swaps in settings(settings, database=None),
    test._hypothesis_internal_use_settings = settings  # and a test's settings can't be applied twice
    test.rulesfuzz_machine, test.rulesfuzz_digest, test.rulesfuzz_settings = machine, digest, settings
    return test


def database_key(test) -> bytes:
    """The key under which Hypothesis keeps ``test``'s failures in its example database."""
    return function_digest(test.hypothesis.inner_test)


def settings_of(test) -> Settings:
    """The settings ``test`` (from :func:`machine_test`) runs under, as :func:`machine_test` kept
    them (an attribute of rulesfuzz's own, not Hypothesis's)."""
    return test.rulesfuzz_settings


# --------------------------------------------------------------------------- drawing at random
# ``rulesfuzz run --explore`` (harness.running.explore) runs the machine's own rules and strategies
# with plain pseudo-random draws: no ConjectureData, no data tree, no spans. It needs what a
# strategy is made of, which Hypothesis keeps in the attributes of its internal classes: read
# here, and drawn from by the functions of .random_draw (which know nothing of Hypothesis).
_samplers: dict[int, tuple] = {}


def draw_at_random(strategy, source: RandomSource):
    """One value of ``strategy`` drawn with ``source.rng``, outside any Hypothesis test.

    Knows the strategies the harness's rules and boards are built from: integers with
    both bounds, booleans, just, none, sampled_from (maps and filters too), one_of,
    tuples, fixed_dictionaries, lists (unique too; sizes uniform within their bounds,
    at most 5 over the minimum when unbounded), dictionaries, permutations, composite,
    deferred, data, ``.map``, ``.filter``, and Bundles (a value from ``source.bundles``).
    Raises :class:`EmptyBundle` when a Bundle is empty, :class:`NothingSatisfies` when a
    filter rejects every try, and TypeError for any other strategy.
    """
    entry = _samplers.get(id(strategy))
    if entry is None or entry[0] is not strategy:
        if len(_samplers) > 50_000:
            _samplers.clear()
        entry = (strategy, _compile(strategy))
        _samplers[id(strategy)] = entry
    return entry[1](source)


def _compile(strategy):
    """A function of a :class:`RandomSource` drawing one value of ``strategy``: the compiler of
    the first kind of :func:`_compilers` that ``strategy`` is an instance of."""
    for kinds, compiler in _compilers():
        if isinstance(strategy, kinds):
            return compiler(strategy)
    raise TypeError(f"cannot draw {strategy!r} ({type(strategy).__name__}) at random")


def _compilers() -> tuple:
    """``(the class or classes of a kind of strategy, the function compiling one)``, tried in
    this order (a subclass before its base). The internal classes are read from this module
    each time, so a stand-in put in place of one is honoured."""
    return (
        (Bundle, _bundle_sampler),
        ((LazyStrategy, DeferredStrategy), _wrapped_sampler),
        (IntegersStrategy, _integers_sampler),
        (BooleansStrategy, _booleans_sampler),
        (_WeightedChoice, _weighted_sampler),
        (SampledFromStrategy, _sampled_sampler),  # JustStrategy (st.just, st.none) included
        (OneOfStrategy, _one_of_sampler),
        (FlatMapStrategy, _flatmap_sampler),
        (TupleStrategy, _tuple_sampler),
        (FixedDictStrategy, _fixed_dict_sampler),
        (ListStrategy, _list_sampler),
        (MappedStrategy, _mapped_sampler),
        (FilteredStrategy, _filtered_sampler),
        (PermutationStrategy, _permutation_sampler),
        (CompositeStrategy, _composite_sampler),
        (DataStrategy, _data_sampler),
    )


def _wrapped_sampler(strategy):
    inner = strategy.wrapped_strategy
    return lambda source: draw_at_random(inner, source)


def _integers_sampler(strategy):
    if strategy.start is None or strategy.end is None:
        raise TypeError(f"cannot draw an unbounded {strategy!r} at random")
    low, high = strategy.start, strategy.end + 1
    return lambda source: source.rng.randrange(low, high)


def _booleans_sampler(strategy):
    return lambda source: source.rng.random() < 0.5


def _sampled_sampler(strategy):
    elements = tuple(strategy.elements)
    if not strategy._transformations:
        if len(elements) == 1:
            only = elements[0]
            return lambda source: only
        return lambda source: elements[source.rng.randrange(len(elements))]
    return _transformed_sampler(strategy, lambda source: source.rng.randrange(len(elements)))


def _one_of_sampler(strategy):
    return one_of_sampler(strategy, tuple(strategy.element_strategies), draw_at_random)


def _flatmap_sampler(strategy):  # st.x.flatmap(f): a value of x, then one of f(value)
    base, expand = strategy.base, strategy.expand
    return lambda source: draw_at_random(expand(draw_at_random(base, source)), source)


def _tuple_sampler(strategy):
    parts = strategy.element_strategies
    return lambda source: tuple(draw_at_random(p, source) for p in parts)


def _fixed_dict_sampler(strategy):
    if strategy.optional:
        raise TypeError(f"cannot draw optional keys of {strategy!r} at random")
    mapping = dict(strategy.mapping)
    return lambda source: {k: draw_at_random(v, source) for k, v in mapping.items()}


def _list_sampler(strategy):
    element, low = strategy.element_strategy, strategy.min_size
    high = strategy.max_size if strategy.max_size != float("inf") else low + 5
    keys = strategy.keys if isinstance(strategy, UniqueListStrategy) else None
    suffixes = strategy.tuple_suffixes if isinstance(strategy, UniqueListStrategy) else None
    return many_sampler(strategy, element, low, high, keys, suffixes, draw_at_random)


def _mapped_sampler(strategy):
    inner, pack = strategy.mapped_strategy, strategy.pack
    return lambda source: pack(draw_at_random(inner, source))


def _filtered_sampler(strategy):
    return filtered_sampler(strategy, strategy.filtered_strategy, strategy.flat_conditions, draw_at_random)


def _permutation_sampler(strategy):
    return permutation_sampler(list(strategy.values))


def _composite_sampler(strategy):
    return composite_sampler(strategy.definition, strategy.args, strategy.kwargs, draw_at_random)


def _data_sampler(strategy):
    return lambda source: source.data


def _bundle_sampler(strategy):
    """A draw of a Bundle at random: one of ``source.bundles[name]``. Since the rewrite of
    Bundle draws (after 6.155, as of 6.170) ``Bundle.filter``/``.map`` give a Bundle keeping its
    transformations as ``sampled_from`` does (before: a FilteredStrategy or MappedStrategy
    around the Bundle), and ``consumes(b)`` a Bundle with ``consume`` (before: a BundleConsumer);
    both are honoured (a consumed value is removed from the bundle)."""
    name = strategy.name
    steps = _checked_steps(strategy) if getattr(strategy, "_transformations", None) else ()
    consume = getattr(strategy, "consume", None)
    if consume is None:  # a Hypothesis before the rewrite: consumes() made a BundleConsumer
        consume = type(strategy).__name__ == "BundleConsumer"
    return bundle_sampler(strategy, name, steps, consume)


def _weighted_sampler(strategy):
    """A draw of :func:`weighted_choice` 's strategy at random: the index with its current
    weights, then its maps and filters (retried as for ``sampled_from``)."""
    size, weights = len(strategy.elements), strategy.weights
    return _transformed_sampler(strategy, lambda source: weighted_index(source.rng, size, weights()))


def sampled_transformations(strategy) -> tuple[tuple[str, object], ...]:
    """``(name, function)`` of each ``.map`` (``"map"``) and ``.filter`` (``"filter"``) applied to
    a ``sampled_from`` strategy, in order. Hypothesis keeps them in ``_transformations``: pairs
    up to 6.166, triples ``(name, function, the call's location)`` since 6.167."""
    return tuple((entry[0], entry[1]) for entry in strategy._transformations)


def _checked_steps(strategy) -> tuple[tuple[str, object], ...]:
    """:func:`sampled_transformations` of ``strategy``; TypeError for a kind other than map and filter."""
    steps = sampled_transformations(strategy)
    unknown = [name for name, _ in steps if name not in ("map", "filter")]
    if unknown:
        raise TypeError(f"cannot draw {strategy!r} at random: unknown transformation(s) {unknown}")
    return steps


def _transformed_sampler(strategy, index):
    """A draw of a ``sampled_from`` strategy at random: the element at ``index(source)``, its
    maps and filters applied, drawn again (at most :data:`FILTER_TRIES` times) while a filter
    rejects it."""
    return sampled_sampler(strategy, tuple(strategy.elements), _checked_steps(strategy), index)


def rules_of(machine: type[stateful.RuleBasedStateMachine]) -> tuple[list, list]:
    """``(initializers, rules)`` of ``machine``: Hypothesis's rule records, each with
    ``function``, ``arguments`` (name -> strategy), ``targets`` (Bundle names) and
    ``preconditions`` (functions of the machine)."""
    state = machine.setup_state()
    return list(state.initializers), list(state.rules)


def results_of(value) -> tuple:
    """The values a rule returned for its target Bundles (``multiple(...)`` or one value):
    what ``multiple`` returns is iterated (it is an ``Iterable``, its public face)."""
    if isinstance(value, stateful.MultipleResults):
        return tuple(value)
    return (value,)


# A base looked up at run time (_internal, with its stand-in above): no static type for mypy to follow.
class _WeightedChoice(SampledFromStrategy):  # type: ignore[valid-type, misc]
    """``st.sampled_from(elements)`` whose first tries draw the index with the probabilities
    ``weights()`` returns (:func:`weighted_choice`)."""

    def __init__(self, elements, weights=lambda: None, **options):
        super().__init__(elements, **options)
        self.weights = weights

    def filter(self, condition):
        kept = super().filter(condition)
        kept.weights = self.weights
        return kept

    def map(self, pack):
        mapped = super().map(pack)
        mapped.weights = self.weights
        return mapped

    def do_filtered_draw(self, data):
        weights = self.weights()
        return super().do_filtered_draw(data if weights is None else _FirstTriesWeighted(data, len(self.elements),
                                                                                         weights))


class _FirstTriesWeighted:
    """``data`` whose first three draws of an index into the whole list (``st.sampled_from`` 's
    first tries) are generated with ``weights``; every other call goes to ``data``."""

    __slots__ = ("_data", "_size", "_weights", "_tries")

    def __init__(self, data, size: int, weights: dict[int, float]):
        self._data, self._size, self._weights, self._tries = data, size, weights, 3

    def __getattr__(self, name):
        return getattr(self._data, name)

    def __setattr__(self, name, value):  # what the draw notes goes to data (since 6.167, the filter
        if name in _FirstTriesWeighted.__slots__:  # that rejected an element: data._last_rejected_filter)
            object.__setattr__(self, name, value)
        else:
            setattr(self._data, name, value)

    def draw_integer(self, min_value=None, max_value=None, **options):
        if self._tries and not options and (min_value, max_value) == (0, self._size - 1):
            self._tries -= 1
            options = {"weights": self._weights}
        return self._data.draw_integer(min_value, max_value, **options)


def weighted_choice(elements, weights) -> SearchStrategy:
    """A strategy drawing one of ``elements`` (a non-empty sequence) like ``st.sampled_from``:
    the choice is the element's index, so a choice sequence decodes to the same element
    whatever the weights, and shrinks toward the first; ``.filter`` and ``.map`` work as
    for ``st.sampled_from``. While ``weights()`` returns None the draws are exactly those of
    ``st.sampled_from(elements)``.

    ``weights()`` is called at each draw and returns None or ``{index: probability}`` with
    every probability above 0 and their sum below 1 (the rest is spread over every index);
    it must return the same value throughout one Hypothesis test run, since Hypothesis
    records each choice's constraints and calls a change flaky.
    """
    return _WeightedChoice(elements, weights)


class _Noted(SearchStrategy):
    def __init__(self, inner, noted):
        super().__init__()
        self.inner, self.noted = inner, noted

    def do_draw(self, data):
        value = data.draw(self.inner)
        self.noted(value)
        return value


def machine_rule_names(machine: stateful.RuleBasedStateMachine) -> list[str]:
    """The names of ``machine`` 's rules in the order Hypothesis indexes them when it draws one."""
    return [r.function.__name__ for r in machine._rules_strategy.rules]


def weight_rules(machine: stateful.RuleBasedStateMachine, weights, chosen) -> None:
    """Make Hypothesis draw the rules of ``machine`` (an instance, from its ``__init__``) with
    :func:`weighted_choice`: ``weights()`` gives ``{index: probability}`` over
    :func:`machine_rule_names` (or None: Hypothesis's own draw); preconditions and
    Hypothesis's enabled-rules flags are kept. ``chosen(name)`` is called with the name of
    each rule drawn, before its arguments are drawn."""
    strategy = machine._rules_strategy
    noted = lambda rule: chosen(rule.function.__name__)  # noqa: E731
    if hasattr(strategy, "_enabled_rules_strategy"):  # Hypothesis 6.154 on: one filtered strategy, drawn each step
        enabled = weighted_choice(strategy.rules, weights).filter(strategy._rule_is_enabled)
        strategy._enabled_rules_strategy = _Noted(enabled, noted)
    else:  # up to 6.153: each step draws rules_strategy.filter(rule_is_enabled), a filter made then
        strategy.rules_strategy = _NotedWhenFiltered(weighted_choice(strategy.rules, weights), noted)


class _NotedWhenFiltered(SearchStrategy):
    """``base`` (a :func:`weighted_choice`) whose ``.filter(condition)`` is ``base.filter(condition)``
    with each value drawn passed to ``noted``; drawn unfiltered, it is ``base``."""

    def __init__(self, base, noted):
        super().__init__()
        self.base, self.noted = base, noted

    def filter(self, condition):
        return _Noted(self.base.filter(condition), self.noted)

    def do_draw(self, data):
        return data.draw(self.base)


# --------------------------------------------------------------------------- what a release moved
def _unwrapped(strategy):
    while isinstance(strategy, (LazyStrategy, DeferredStrategy)):
        strategy = strategy.wrapped_strategy
    return strategy


@contextlib.contextmanager
def run_statistics(callback):
    """Within the block, ``callback(statistics)`` is called at the end of each Hypothesis test run
    with its per-phase figures (what ``hypothesis.statistics.collector``, an internal behind the
    pytest plugin's ``--hypothesis-show-statistics``, hands; each phase's test cases with their
    status). A Hypothesis without it, or a run it didn't finish (interrupted), hands none."""
    try:
        from hypothesis.statistics import collector as statistics_collector
    except ImportError:  # a Hypothesis without it: the summary just has no breakdown
        yield
        return
    with statistics_collector.with_value(callback):
        yield


def internals_problems() -> list[str]:
    """What the shim reads of Hypothesis's internals that this Hypothesis no longer has, one
    sentence each naming the internal (empty: every one is where the shim looks): the table of
    checks of :mod:`.checks`, run on this module as it is now.
    ``tests/test_hypothesis_shim.py`` fails with these sentences on a release that moved one."""
    return checks.internals_problems(sys.modules[__name__])


@functools.cache
def _probe_machine():
    from hypothesis import strategies as st

    class Probe(stateful.RuleBasedStateMachine):
        things = Bundle("things")

        @stateful.initialize(target=things)
        def start(self):
            return 1

        @stateful.precondition(lambda self: True)
        @stateful.rule(thing=things, n=st.integers(0, 1))
        def step(self, thing, n):
            pass
    return Probe


def state_machine_key(digest: bytes) -> bytes:
    """The database key of a state machine's test (:func:`get_state_machine_test`: the same function
    for every machine) with ``digest`` mixed in: :func:`machine_test` 's with that digest, or
    HypoFuzz's for a pytest item, whose node id it mixes in."""
    test: Any = get_state_machine_test(_probe_machine(), settings=Settings(database=None))  # see machine_test
    test.hypothesis.inner_test._hypothesis_internal_add_digest = digest
    return database_key(test)
