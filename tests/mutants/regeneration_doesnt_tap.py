"""Regeneration removes damage but doesn't tap the creature or remove it from combat.

Rule broken: CR 701.15a ("The next time [permanent] would be destroyed this turn,
instead remove all damage marked on it and its controller taps it. If it's an attacking
or blocking creature, remove it from combat.")

Bug: ``apply_regeneration`` uses the shield and removes damage, and stops there (the
mirror image of umbra armor tapping the creature).
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def apply_regeneration(self, obj):
        obj.regeneration_shields -= 1
        self.log.append({"kind": "replacement", "effect": "regeneration", "affected": obj.id})
        self.remove_damage(obj)  # the bug: no tap, no removal from combat


class MutantEngine(ReferenceEngine):
    name = "mutant-regeneration_doesnt_tap"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
