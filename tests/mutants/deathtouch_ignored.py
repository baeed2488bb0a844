"""Damage from a deathtouch source destroys a creature only if it is lethal.

Rule broken: CR 702.2b and 704.5h ("a creature with toughness greater than 0 that's been
dealt damage by a source with deathtouch since the last time state-based actions were
checked is destroyed"). A creature with an umbra Aura dealt 1 damage by Typhoid Rats
keeps its Aura and the damage.

Bug: the state-based action check forgets which creatures were dealt deathtouch damage
before it looks at them.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def check_state_based_actions(self, decider):
        for obj in self.objects.values():  # the bug: 704.5h never sees the damage
            obj.deathtouch_damage = False
        super().check_state_based_actions(decider)


class MutantEngine(ReferenceEngine):
    name = "mutant-deathtouch_ignored"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
