"""A new turn doesn't end summoning sickness.

Rule broken: CR 302.6: a creature can use {T} abilities once its controller has controlled
it continuously since their most recent turn began; CR 502.3: the untap step.

Bug: ``begin_turn`` untaps permanents but leaves them summoning sick.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def set_tapped(self, obj, tapped, cause):
        super().set_tapped(obj, tapped, cause)
        if cause == "untap step" and "Creature" in obj.card.types:
            obj.summoning_sick = True  # the bug


class MutantEngine(ReferenceEngine):
    name = "mutant-begin_turn_keeps_summoning_sickness"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
