"""Umbra armor removes the creature it saves from combat, as regeneration does.

Rule broken: CR 702.89a, and the ruling (Hyena Umbra 2010-06-15) "if totem armor's
effect is applied, the enchanted permanent ... is not removed from combat as a result."

Bug: ``apply_umbra_armor`` copies regeneration's "remove it from combat" step
(CR 701.15a).
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def apply_umbra_armor(self, obj, aura_id):
        instead = super().apply_umbra_armor(obj, aura_id)
        if obj.combat is not None:  # the bug
            obj.combat = None
            self.log.append({"kind": "removed_from_combat", "object": obj.id})
        return instead


class MutantEngine(ReferenceEngine):
    name = "mutant-umbra_removes_from_combat"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
