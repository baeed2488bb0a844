"""The harness's vocabulary (harness.wire.vocabulary): everything the harness generates is in it,
so a replay file written by ``rulesfuzz run`` is never bad input."""

from __future__ import annotations

from harness.wire import vocabulary
from harness.running.runner import run


class Watching:
    """Wraps an engine; keeps every board and event outside the vocabulary."""

    def __init__(self, inner):
        self.inner, self.info, self.outside, self.events = inner, inner.info, [], 0

    def new_game(self, board):
        self.outside.extend(vocabulary.scenario_problems({"board": board, "steps": []}))
        outer, game = self, self.inner.new_game(board)

        class Game:
            def apply(self, event, decider):
                outer.events += 1
                problem = vocabulary.event_problem(event)
                if problem:
                    outer.outside.append(f"{event}: {problem}")
                return game.apply(event, decider)

            def observe(self):
                return game.observe()

        return Game()


def test_every_generated_board_and_event_is_in_the_vocabulary(reference, outside_coverage):
    engine = Watching(reference)
    result = run(engine, max_examples=60, seed=3, database=None)
    assert result.violation is None
    assert engine.events > 100
    assert engine.outside == [], sorted({p.split(": ", 1)[1] for p in engine.outside})
