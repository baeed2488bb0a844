"""The plain random draws of ``rulesfuzz run --explore``, with no Hypothesis at all.

:mod:`harness.generation.hypothesis_shim` reads a strategy's parts (its internals) and hands
them here, to functions of a :class:`RandomSource` that draw with its :class:`random.Random`
only: no ConjectureData, no data tree, no spans. A part that is itself a strategy is drawn
with the ``draw`` function the shim passes (its ``draw_at_random``). Everything here is
re-exported by the shim, where the rest of rulesfuzz imports it from.
"""

from __future__ import annotations

from random import Random

from harness.protocol import RulesfuzzError


class EmptyBundle(RulesfuzzError):
    """A draw from a Bundle that holds nothing yet (the rule can't run now)."""


class NothingSatisfies(RulesfuzzError):
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
        self.data: object = None  # returned as st.data()'s value, never read here


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


_REJECTED = object()


def transform(steps, element):
    """``element`` with the maps of ``steps`` applied, or ``_REJECTED`` when a filter rejects it."""
    for name, function in steps:
        if name == "map":
            element = function(element)
        elif not function(element):
            return _REJECTED
    return element


def sampled_sampler(strategy, elements: tuple, steps, index):
    """A draw of a ``sampled_from`` strategy at random: the element at ``index(source)``, the
    maps and filters of ``steps`` applied, drawn again (at most :data:`FILTER_TRIES` times)
    while a filter rejects it."""

    def sampled(source):
        for _ in range(FILTER_TRIES):
            value = transform(steps, elements[index(source)])
            if value is not _REJECTED:
                return value
        raise NothingSatisfies(repr(strategy))
    return sampled


def bundle_sampler(strategy, name: str, steps, consume: bool):
    """A draw of a Bundle at random: one of ``source.bundles[name]`` with the maps and filters
    of ``steps``, removed from the bundle when ``consume``."""

    def bundle(source):
        values = source.bundles.get(name)
        if not values:
            raise EmptyBundle(name)
        for _ in range(FILTER_TRIES if steps else 1):
            i = source.rng.randrange(len(values))
            value = transform(steps, values[i])
            if value is not _REJECTED:
                if consume:
                    del values[i]
                return value
        raise NothingSatisfies(repr(strategy))
    return bundle


def one_of_sampler(strategy, branches: tuple, draw):
    """A draw of ``st.one_of(*branches)``: the branches in a shuffled order, the first whose
    Bundle isn't empty."""

    def one_of(source):
        order = list(range(len(branches)))
        source.rng.shuffle(order)
        for i in order:
            try:
                return draw(branches[i], source)
            except EmptyBundle:
                continue
        raise EmptyBundle(repr(strategy))
    return one_of


def many_sampler(strategy, element, low: int, high, keys, suffixes, draw):
    """A draw of a list of ``element`` with a size uniform in ``low..high``; unique by ``keys``
    when not None, each value followed by a draw of ``suffixes`` when not None
    (``st.dictionaries``: ``(key, *values)``)."""

    def many(source):
        size = source.rng.randint(low, int(high))
        values, seen = [], set()
        tries = 0
        while len(values) < size and tries < size + FILTER_TRIES:
            tries += 1
            value = draw(element, source)
            if keys is not None:
                key = tuple(k(value) for k in keys)
                if key in seen:
                    continue
                seen.add(key)
                if suffixes is not None:  # st.dictionaries: (key, *values)
                    value = (value, *draw(suffixes, source))
            values.append(value)
        if len(values) < low:
            raise NothingSatisfies(repr(strategy))
        return values
    return many


def filtered_sampler(strategy, inner, conditions, draw):
    """A draw of ``inner`` passing every one of ``conditions``, in at most :data:`FILTER_TRIES` tries."""

    def filtered(source):
        for _ in range(FILTER_TRIES):
            value = draw(inner, source)
            if all(c(value) for c in conditions):
                return value
        raise NothingSatisfies(repr(strategy))
    return filtered


def permutation_sampler(values: list):
    """A draw of ``st.permutations(values)``: a shuffled copy."""

    def permutation(source):
        result = list(values)
        source.rng.shuffle(result)
        return result
    return permutation


def composite_sampler(definition, args, kwargs, draw_at_random):
    """A draw of an ``@st.composite`` strategy: ``definition`` called with a ``draw`` at random,
    whose attribute ``random_source`` is the :class:`RandomSource` it draws from (read by
    :func:`random_source`)."""

    def composite(source):
        def draw(inner, label=None):
            return draw_at_random(inner, source)
        draw.random_source = source  # type: ignore[attr-defined]
        return definition(draw, *args, **kwargs)
    return composite


def random_source(drawer) -> RandomSource | None:
    """The :class:`RandomSource` that ``drawer`` (a composite's ``draw`` function or an
    ``st.data()`` object) draws from at random (``--explore``), or None (Hypothesis draws it).
    A draw of ``st.integers(low, high)`` from it is ``rng.randrange(low, high + 1)``, of
    ``st.booleans()`` ``rng.random() < 0.5``, so a caller can draw those without making the
    strategy (the same values from the same seed)."""
    try:
        return drawer.random_source
    except AttributeError:
        return None
