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
