"""Pokey's abilities apply again and again to one flip: flip, roll, flip, roll, ...

Rule broken: CR 614.5 ("A replacement effect doesn't invoke itself repeatedly; it gets
only one opportunity to affect an event or any modified events that may replace that
event") and the ruling (Pokey, the Scallywagg 2024-11-08) "Since you can only apply a
replacement effect to a single event once, the nonsense stops there."

Bug: ``apply_chance_replacements`` forgets which replacement effects it already applied
(up to three rounds).
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def apply_chance_replacements(self, player, event, decider):
        chain = []
        for _ in range(3):  # the bug: each round starts with no replacement effect used
            more, event = super().apply_chance_replacements(player, event, decider)
            if not more:
                break
            chain += more
        return chain, event


class MutantEngine(ReferenceEngine):
    name = "mutant-pokey_applies_twice"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
