"""Draws made straight from exploration's random source give the values the strategies give.

Under ``--explore`` (:mod:`harness.running.explore`) a composite's ``draw`` and ``st.data()``'s
object carry their :class:`~harness.generation.hypothesis_shim.RandomSource`
(:func:`~harness.generation.hypothesis_shim.random_source`), and the board generator's
integers, booleans and picks, the targeting tiers and the decider's choices are drawn from it
without making a strategy: the same values, from the same seed, as drawing
``st.integers(low, high)`` / ``st.booleans()`` at random (so an exploration's examples are
unchanged). Under Hypothesis the strategy is drawn, as before.
"""

from __future__ import annotations

from random import Random

from hypothesis import strategies as st

from harness.generation import hypothesis_shim as shim
from harness.generation import strategies as S
from harness.running.decider import DrawingDecider
from harness.running.explore import RandomData


def _source(seed: int) -> shim.RandomSource:
    return shim.RandomSource(Random(seed), {})


def _composite_draw(source: shim.RandomSource):
    """The ``draw`` an ``@st.composite`` definition gets when drawn at random."""
    got = []

    @st.composite
    def grab(draw):
        got.append(draw)
        return 0

    shim.draw_at_random(grab(), source)
    return got[0]


def test_integers_and_booleans_drawn_from_the_source_are_the_strategies_values():
    for seed in range(5):
        fast, slow = _source(seed), _source(seed)
        draw = _composite_draw(fast)
        _composite_draw(slow)
        assert shim.random_source(draw) is fast
        for low, high in ((0, 0), (0, 1), (1, 3), (0, 4), (2, 9)):
            assert [S.integer(draw, low, high) for _ in range(20)] == \
                [shim.draw_at_random(st.integers(low, high), slow) for _ in range(20)]
        assert [S.boolean(draw) for _ in range(20)] == [shim.draw_at_random(st.booleans(), slow) for _ in range(20)]
        assert [S.rarely(draw, 4) for _ in range(20)] == \
            [shim.draw_at_random(st.integers(0, 3), slow) == 3 for _ in range(20)]


def test_picks_and_choices_drawn_from_the_source_are_the_strategies_values():
    options = ("a", "b", "c", "d", "e")
    for seed in range(5):
        fast, slow = RandomData(_source(seed)), RandomData(_source(seed))
        assert [S.pick(fast, options) for _ in range(20)] == \
            [options[slow.draw(st.integers(0, len(options) - 1))] for _ in range(20)]
        decider = DrawingDecider(fast)
        answers = [decider.choose("P1", "target", options) for _ in range(20)]
        assert answers == [options[slow.draw(st.integers(0, len(options) - 1))] for _ in range(20)]
        assert [d.answer for d in decider.asked] == answers


def test_under_hypothesis_the_strategy_is_drawn():
    drawn = []

    def draw(strategy, label=None):  # a Hypothesis draw: no random source
        drawn.append(strategy)
        return 1

    assert shim.random_source(draw) is None
    assert S.integer(draw, 0, 4) == 1 and S.boolean(draw) == 1
    assert drawn == [st.integers(0, 4), st.booleans()]


def test_rule_draws_from_the_source_are_the_strategies_values():
    """A rule's ``data`` drawn with draw_integer / draw_boolean / draw_element gives, from the same seed,
    what drawing st.integers / st.booleans / st.sampled_from at random gives (a one-element list
    is its element, with nothing drawn, as sampled_from's just is): the same examples."""
    lists = (["x", "y"], ("a", "b", "c"), ["only"], [("o1", "Orb"), ("o2", "Sword")])
    for seed in range(5):
        fast, slow = RandomData(_source(seed)), RandomData(_source(seed))
        got, want = [], []
        for _ in range(10):
            for low, high in ((0, 0), (0, 2), (1, 4), (0, 9)):
                got.append(S.draw_integer(fast, low, high, "n"))
                want.append(slow.draw(st.integers(low, high)))
            got.append(S.draw_boolean(fast, "b"))
            want.append(slow.draw(st.booleans()))
            for elements in lists:
                got.append(S.draw_element(fast, elements, "e"))
                want.append(slow.draw(st.sampled_from(elements)))
        assert got == want
        assert fast.random_source.rng.random() == slow.random_source.rng.random()  # as many numbers drawn


def test_a_composites_elements_and_labelled_draws_are_the_strategies_values():
    for seed in range(5):
        fast, slow = _source(seed), _source(seed)
        draw = _composite_draw(fast)
        _composite_draw(slow)
        got = [(S.element(draw, ("a", "b", "c")), S.element(draw, ["one"]), S.integer(draw, 1, 2, "orbs"),
                S.boolean(draw, "flip")) for _ in range(20)]
        want = [(shim.draw_at_random(st.sampled_from(("a", "b", "c")), slow),
                 shim.draw_at_random(st.sampled_from(["one"]), slow), shim.draw_at_random(st.integers(1, 2), slow),
                 shim.draw_at_random(st.booleans(), slow)) for _ in range(20)]
        assert got == want


def test_the_deciders_coins_and_dice_drawn_from_the_source_are_the_strategies_values():
    for seed in range(5):
        fast, slow = RandomData(_source(seed)), RandomData(_source(seed))
        decider = DrawingDecider(fast)
        got = [(decider.flip_coin("P1"), decider.roll_die("P2", 6), decider.roll_die("P1", 1)) for _ in range(20)]
        want = [(slow.draw(st.sampled_from(("heads", "tails"))), slow.draw(st.integers(1, 6)),
                 slow.draw(st.integers(1, 1))) for _ in range(20)]
        assert got == want
        assert [(d.kind, d.answer) for d in decider.asked[:3]] == [("coin_flip", want[0][0]), ("d6", want[0][1]),
                                                                   ("d1", 1)]


class _HypothesisData:
    """What st.data() draws as under Hypothesis, recording each draw: no random source."""

    def __init__(self):
        self.drawn = []

    def draw(self, strategy, label=None):
        self.drawn.append((strategy, label))
        return 1


def test_under_hypothesis_a_rules_strategy_is_drawn_with_its_label():
    data = _HypothesisData()
    assert S.draw_integer(data, 0, 3, "n") == S.draw_boolean(data, "b") == S.draw_element(data, ["x", "y"], "e") == 1
    assert [(repr(s), label) for s, label in data.drawn] == [
        (repr(st.integers(0, 3)), "n"), (repr(st.booleans()), "b"), (repr(st.sampled_from(["x", "y"])), "e")]
    decider = DrawingDecider(data)
    decider.flip_coin("P1")
    decider.roll_die("P1", 6)
    assert [(repr(s), label) for s, label in data.drawn[3:]] == [
        (repr(st.sampled_from(("heads", "tails"))), "P1 coin"), (repr(st.integers(1, 6)), "P1 d6")]


def test_what_a_random_draw_cannot_take_goes_to_the_strategy():
    """Bounds in the wrong order, an empty list or a set are drawn through the strategy, which
    refuses them as it did (no value made up from the random source)."""
    import pytest
    from hypothesis.errors import InvalidArgument

    data = RandomData(_source(0))
    with pytest.raises(InvalidArgument):
        S.draw_integer(data, 3, 1)
    with pytest.raises((InvalidArgument, TypeError)):
        S.draw_element(data, [])
    with pytest.raises((InvalidArgument, TypeError)):
        S.element(_composite_draw(_source(0)), [])


def test_lists_of_sampled_elements_drawn_from_the_source_are_the_strategies_values():
    """several / draw_several (a rule's cards, a board's artifacts) give, from the same seed, what
    drawing ``st.lists(st.sampled_from(options), min_size=, max_size=)`` at random gives (the size,
    then each element; a one-element list draws nothing more), leaving the source where it left it."""
    cases = ((["a", "b", "c"], 1, 3), (("x",), 1, 2), (("a", "b"), 0, 3), (["only"], 0, 3), (("a", "b"), 2, 2))
    for seed in range(20):
        fast_data, fast, slow = RandomData(_source(seed)), _source(seed), _source(seed)
        slow_data = RandomData(_source(seed))
        draw = _composite_draw(fast)
        _composite_draw(slow)
        for options, low, high in cases:
            strategy = st.lists(st.sampled_from(options), min_size=low, max_size=high)
            assert S.draw_several(fast_data, options, low, high, "cards") == slow_data.draw(strategy)
            assert S.several(draw, options, low, high, "cards") == shim.draw_at_random(strategy, slow)
        assert fast_data.random_source.rng.random() == slow_data.random_source.rng.random()
        assert fast.rng.random() == slow.rng.random()


def test_under_hypothesis_a_list_of_sampled_elements_is_drawn_as_its_strategy():
    data = _HypothesisData()
    assert S.draw_several(data, ["x", "y"], 1, 2, "cards") == 1
    assert [(repr(s), label) for s, label in data.drawn] == [
        (repr(st.lists(st.sampled_from(["x", "y"]), min_size=1, max_size=2)), "cards")]
    drawn = []

    def draw(strategy, label=None):  # a Hypothesis draw: no random source
        drawn.append((repr(strategy), label))
        return 1

    assert S.several(draw, ("a",), 0, 3, "artifacts") == 1 and S.several(draw, ("a",), 0, 3) == 1
    assert drawn == [(repr(st.lists(st.sampled_from(("a",)), min_size=0, max_size=3)), "artifacts"),
                     (repr(st.lists(st.sampled_from(("a",)), min_size=0, max_size=3)), None)]
    import pytest
    from hypothesis.errors import InvalidArgument

    with pytest.raises(InvalidArgument):  # an empty list goes to the strategy, which refuses it
        S.draw_several(RandomData(_source(0)), [], 1, 2)


def test_a_boards_creatures_and_counters_drawn_from_the_source_are_the_composites_values():
    """A board's creatures and their counters (composites drawn once per creature) are drawn at
    random by calling their definition with the board's own ``draw``: the values drawing the
    composite strategy at random gives, from the same seed; under Hypothesis the strategy is drawn."""
    from harness.generation.plan import FULL

    for seed in range(30):
        fast, slow = _source(seed), _source(seed)
        draw = _composite_draw(fast)
        _composite_draw(slow)
        for i in range(4):
            legends_fast, legends_slow = set(), set()
            assert S._composite(draw, S.creature_specs, S._creature_specs, FULL, i, legends_fast) == \
                shim.draw_at_random(S.creature_specs(FULL, i, legends_slow), slow)
            assert legends_fast == legends_slow
            assert S._composite(draw, S.pt_counters, S._pt_counters, S.COUNTER_KINDS) == \
                shim.draw_at_random(S.pt_counters(S.COUNTER_KINDS), slow)
        assert fast.rng.random() == slow.rng.random()
    drawn = []

    def hypothesis_draw(strategy, label=None):  # no random source: the composite strategy is drawn
        drawn.append(repr(strategy))
        return {}

    assert S._composite(hypothesis_draw, S.pt_counters, S._pt_counters, ("+1/+1",)) == {}
    assert drawn == [repr(S.pt_counters(("+1/+1",)))]
