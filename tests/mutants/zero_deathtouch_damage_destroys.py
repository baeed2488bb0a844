"""A deathtouch source that would deal 0 damage destroys the creature (and lifelink gains 0).

Rule broken: CR 120.8 ("If a source would deal 0 damage, it does not deal damage at all.") and
702.2b: deathtouch applies to a creature "dealt damage" by the source, which 0 damage is not.

Bug: the engine deals a damage event of 0 like any other: it logs the damage, marks the creature
as dealt damage by a deathtouch source (so 704.5h destroys it) and applies lifelink for 0.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine
from reference_engine.events import _deal_damage


class MutantGame(Game):
    def deal_no_damage(self, source, target):
        _deal_damage(self, source, self.objects[source], target, 0)  # the bug: 0 is dealt as damage


class MutantEngine(ReferenceEngine):
    name = "mutant-zero_deathtouch_damage_destroys"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
