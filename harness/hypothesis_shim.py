"""The one place rulesfuzz reads Hypothesis internals (they may change between Hypothesis
releases; ``tests/test_harness_structure.py`` and ``tests/test_hypothesis_shim.py``
exercise every function here).

What Hypothesis has no public API for:

* which methods are rules of a state machine (:func:`is_rule`, :func:`rule_names`);
* a stable **database key** for an engine's tests (Hypothesis keys stateful tests by the
  machine class's source, which is the same for every engine): :func:`machine_test`
  mixes a digest of the engine's name in, so saved failures of one engine are replayed
  first on its next run, never on another engine's;
* a **seed** that keeps the example database (``hypothesis.seed`` switches it off): a run
  is reproducible and still replays saved failures first;
* **drawing at random outside any Hypothesis test** (``rulesfuzz run --explore``,
  :mod:`harness.explore`): a strategy's parts (bounds, elements, element strategies,
  composite definitions), to draw from it with a :class:`random.Random` and nothing else
  (:func:`draw_at_random`), and a state machine's rule records (:func:`rules_of`,
  :func:`results_of`), to run its rules without Hypothesis's engine.

The Hypothesis versions this is written against are pinned in ``pyproject.toml``.
"""

from __future__ import annotations

from random import Random

from hypothesis import seed as hypothesis_seed
from hypothesis import settings as Settings
from hypothesis import stateful
from hypothesis.internal.reflection import function_digest
from hypothesis.stateful import Bundle, get_state_machine_test
from hypothesis.strategies._internal.collections import (
    FixedDictStrategy, ListStrategy, TupleStrategy, UniqueListStrategy,
)
from hypothesis.strategies._internal.core import CompositeStrategy, DataStrategy, PermutationStrategy
from hypothesis.strategies._internal.deferred import DeferredStrategy
from hypothesis.strategies._internal.flatmapped import FlatMapStrategy
from hypothesis.strategies._internal.lazy import LazyStrategy
from hypothesis.strategies._internal.misc import BooleansStrategy
from hypothesis.strategies._internal.numbers import IntegersStrategy
from hypothesis.strategies._internal.strategies import (
    FilteredStrategy, MappedStrategy, OneOfStrategy, SampledFromStrategy, SearchStrategy, filter_not_satisfied,
)

_RULE_MARKER = "hypothesis_stateful_rule"


def is_rule(function) -> bool:
    """Whether ``function`` was decorated with ``hypothesis.stateful.rule``."""
    return getattr(function, _RULE_MARKER, None) is not None


def rule_names(machine: type[stateful.RuleBasedStateMachine]) -> set[str]:
    """The names of the rules Hypothesis collects from ``machine`` (over its MRO)."""
    return {r.function.__name__ for r in machine.setup_state().rules}


def forget_machine(machine: type[stateful.RuleBasedStateMachine], *attributes: str) -> None:
    """Drop Hypothesis's caches of ``machine`` (its rules, a class-keyed dict that is never emptied,
    and its unittest class, an lru_cache of 128 classes):
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


def machine_test(machine, settings: Settings, seed: int, digest: bytes):
    """A callable running ``machine`` under ``settings`` with ``seed``, its database key mixed with ``digest``.

    Calling it raises what Hypothesis raises for a failure (the test's exception, or a
    ``BaseExceptionGroup`` of them with ``report_multiple_bugs``).
    """
    test = get_state_machine_test(machine, settings=settings)
    test.hypothesis.inner_test._hypothesis_internal_add_digest = digest
    chosen = test._hypothesis_internal_use_settings
    hypothesis_seed(seed)(test)
    test._hypothesis_internal_use_settings = chosen  # keep the database hypothesis.seed() switched off
    test.rulesfuzz_machine, test.rulesfuzz_digest = machine, digest
    return test


def database_key(test) -> bytes:
    """The key under which Hypothesis keeps ``test``'s failures in its example database."""
    return function_digest(test.hypothesis.inner_test)


def settings_of(test) -> Settings:
    """The settings ``test`` (from :func:`machine_test`) runs under."""
    return test._hypothesis_internal_use_settings


# --------------------------------------------------------------------------- drawing at random
# ``rulesfuzz run --explore`` (harness.explore) runs the machine's own rules and strategies
# with plain pseudo-random draws: no ConjectureData, no data tree, no spans. It needs what a
# strategy is made of, which Hypothesis keeps in the attributes of its internal classes.
class EmptyBundle(Exception):
    """A draw from a Bundle that holds nothing yet (the rule can't run now)."""


class NothingSatisfies(Exception):
    """A filtered draw found no value passing its filter in :data:`FILTER_TRIES` tries."""


#: Tries of a filtered draw (``.filter`` or a filtered ``sampled_from``) before giving up.
FILTER_TRIES = 100


class RandomSource:
    """Where :func:`draw_at_random` draws from: ``rng`` (a :class:`random.Random`), the
    machine's bundles (name -> list of values) and the object that ``st.data()`` draws as
    (``data``, set by the caller)."""

    __slots__ = ("rng", "bundles", "data")

    def __init__(self, rng: Random, bundles: dict[str, list]):
        self.rng = rng
        self.bundles = bundles
        self.data = None


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
    """A function of a :class:`RandomSource` drawing one value of ``strategy``."""
    if isinstance(strategy, Bundle):
        name = strategy.name

        def bundle(source):
            values = source.bundles.get(name)
            if not values:
                raise EmptyBundle(name)
            return values[source.rng.randrange(len(values))]
        return bundle
    if isinstance(strategy, (LazyStrategy, DeferredStrategy)):
        inner = strategy.wrapped_strategy
        return lambda source: draw_at_random(inner, source)
    if isinstance(strategy, IntegersStrategy):
        if strategy.start is None or strategy.end is None:
            raise TypeError(f"cannot draw an unbounded {strategy!r} at random")
        low, high = strategy.start, strategy.end + 1
        return lambda source: source.rng.randrange(low, high)
    if isinstance(strategy, BooleansStrategy):
        return lambda source: source.rng.random() < 0.5
    if isinstance(strategy, _WeightedChoice):
        return _weighted_sampler(strategy)
    if isinstance(strategy, SampledFromStrategy):  # JustStrategy (st.just, st.none) included
        elements = tuple(strategy.elements)
        if not strategy._transformations:
            if len(elements) == 1:
                only = elements[0]
                return lambda source: only
            return lambda source: elements[source.rng.randrange(len(elements))]
        return _transformed_sampler(strategy, lambda source: source.rng.randrange(len(elements)))
    if isinstance(strategy, OneOfStrategy):
        branches = tuple(strategy.element_strategies)

        def one_of(source):
            order = list(range(len(branches)))
            source.rng.shuffle(order)
            for i in order:
                try:
                    return draw_at_random(branches[i], source)
                except EmptyBundle:
                    continue
            raise EmptyBundle(repr(strategy))
        return one_of
    if isinstance(strategy, FlatMapStrategy):  # st.x.flatmap(f): a value of x, then one of f(value)
        base, expand = strategy.base, strategy.expand
        return lambda source: draw_at_random(expand(draw_at_random(base, source)), source)
    if isinstance(strategy, TupleStrategy):
        parts = strategy.element_strategies
        return lambda source: tuple(draw_at_random(p, source) for p in parts)
    if isinstance(strategy, FixedDictStrategy):
        if strategy.optional:
            raise TypeError(f"cannot draw optional keys of {strategy!r} at random")
        mapping = dict(strategy.mapping)
        return lambda source: {k: draw_at_random(v, source) for k, v in mapping.items()}
    if isinstance(strategy, ListStrategy):
        element, low = strategy.element_strategy, strategy.min_size
        high = strategy.max_size if strategy.max_size != float("inf") else low + 5
        keys = strategy.keys if isinstance(strategy, UniqueListStrategy) else None
        suffixes = strategy.tuple_suffixes if isinstance(strategy, UniqueListStrategy) else None

        def many(source):
            size = source.rng.randint(low, int(high))
            values, seen = [], set()
            tries = 0
            while len(values) < size and tries < size + FILTER_TRIES:
                tries += 1
                value = draw_at_random(element, source)
                if keys is not None:
                    key = tuple(k(value) for k in keys)
                    if key in seen:
                        continue
                    seen.add(key)
                    if suffixes is not None:  # st.dictionaries: (key, *values)
                        value = (value, *draw_at_random(suffixes, source))
                values.append(value)
            if len(values) < low:
                raise NothingSatisfies(repr(strategy))
            return values
        return many
    if isinstance(strategy, MappedStrategy):
        inner, pack = strategy.mapped_strategy, strategy.pack
        return lambda source: pack(draw_at_random(inner, source))
    if isinstance(strategy, FilteredStrategy):
        inner, conditions = strategy.filtered_strategy, strategy.flat_conditions

        def filtered(source):
            for _ in range(FILTER_TRIES):
                value = draw_at_random(inner, source)
                if all(c(value) for c in conditions):
                    return value
            raise NothingSatisfies(repr(strategy))
        return filtered
    if isinstance(strategy, PermutationStrategy):
        values = list(strategy.values)

        def permutation(source):
            result = list(values)
            source.rng.shuffle(result)
            return result
        return permutation
    if isinstance(strategy, CompositeStrategy):
        definition, args, kwargs = strategy.definition, strategy.args, strategy.kwargs

        def composite(source):
            def draw(inner, label=None):
                return draw_at_random(inner, source)
            return definition(draw, *args, **kwargs)
        return composite
    if isinstance(strategy, DataStrategy):
        return lambda source: source.data
    raise TypeError(f"cannot draw {strategy!r} ({type(strategy).__name__}) at random")


def weighted_index(rng: Random, size: int, weights: dict[int, float] | None) -> int:
    """An index below ``size`` drawn with ``weights`` (``{index: probability}``, the sum at most
    1, the rest spread evenly over every index, as :func:`weighted_choice` generates), or
    evenly when ``weights`` is None."""
    if weights:
        r = rng.random()
        for i, p in weights.items():
            if r < p:
                return i
            r -= p
    return rng.randrange(size)


def _weighted_sampler(strategy):
    """A draw of :func:`weighted_choice` 's strategy at random: the index with its current
    weights, then its maps and filters (retried as for ``sampled_from``)."""
    size, weights = len(strategy.elements), strategy.weights
    return _transformed_sampler(strategy, lambda source: weighted_index(source.rng, size, weights()))


def _transformed_sampler(strategy, index):
    """A draw of a ``sampled_from`` strategy at random: the element at ``index(source)``, its
    maps and filters applied, drawn again (at most :data:`FILTER_TRIES` times) while a filter
    rejects it."""
    elements, transform = tuple(strategy.elements), strategy._transform

    def sampled(source):
        for _ in range(FILTER_TRIES):
            value = transform(elements[index(source)])
            if value is not filter_not_satisfied:
                return value
        raise NothingSatisfies(repr(strategy))
    return sampled


def rules_of(machine: type[stateful.RuleBasedStateMachine]) -> tuple[list, list]:
    """``(initializers, rules)`` of ``machine``: Hypothesis's rule records, each with
    ``function``, ``arguments`` (name -> strategy), ``targets`` (Bundle names) and
    ``preconditions`` (functions of the machine)."""
    state = machine.setup_state()
    return list(state.initializers), list(state.rules)


def results_of(value) -> tuple:
    """The values a rule returned for its target Bundles (``multiple(...)`` or one value)."""
    if isinstance(value, stateful.MultipleResults):
        return tuple(value.values)
    return (value,)


class _WeightedChoice(SampledFromStrategy):
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

    def __init__(self, data, size: int, weights: dict[int, float]):
        self._data, self._size, self._weights, self._tries = data, size, weights, 3

    def __getattr__(self, name):
        return getattr(self._data, name)

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
    enabled = weighted_choice(strategy.rules, weights).filter(strategy._rule_is_enabled)
    strategy._enabled_rules_strategy = _Noted(enabled, lambda rule: chosen(rule.function.__name__))
