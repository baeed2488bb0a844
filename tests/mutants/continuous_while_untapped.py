"""A continuous permanent has no abilities even while untapped.

Rule broken: CR 613.1f (Orb of Origin ruling 2024-11-08: "A permanent with the continuous
supertype has no abilities as long as it's tapped", and only then).

Bug: ``has_abilities`` looks at the continuous supertype and forgets the tapped status, so an
untapped Thought Vessel under an Orb of Origin loses "You have no maximum hand size" and its
mana ability, and an untapped Sword of the Meek loses its +1/+2.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine
from reference_engine.layers import characteristics
from reference_engine.objects import BATTLEFIELD


class MutantGame(Game):
    def has_abilities(self, obj):
        return not (obj.zone == BATTLEFIELD and "Continuous" in characteristics(self, obj).supertypes)  # the bug


class MutantEngine(ReferenceEngine):
    name = "mutant-continuous_while_untapped"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
