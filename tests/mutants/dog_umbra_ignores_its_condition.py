"""Dog Umbra has umbra armor even while another player controls the enchanted creature.

Rule broken: CR 702.89a and Dog Umbra's Oracle text ("As long as another player controls
enchanted creature, it can't attack or block. Otherwise, this Aura has umbra armor."):
P2's Dog Umbra on P1's creature has no umbra armor, so it can't save the creature.

Bug: the engine treats Dog Umbra's umbra armor as printed, and lists the keyword on every
Dog Umbra, so invariants that believe the engine's keywords see nothing wrong.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine
from reference_engine.objects import BATTLEFIELD


class MutantGame(Game):
    def destruction_replacements(self, obj, cant_be_regenerated):
        options = super().destruction_replacements(obj, cant_be_regenerated)
        dogs = [f"umbra armor:{a.id}" for a in self.attached_to(obj.id) if a.card.name == "Dog Umbra"]
        extra = [o for o in dogs if o not in options]  # the bug: the condition is ignored
        return extra + options

    def observe(self):
        obs = super().observe()
        for o in obs["objects"].values():
            if o["name"] == "Dog Umbra" and o["zone"] == BATTLEFIELD and "umbra armor" not in o["keywords"]:
                o["keywords"] = sorted([*o["keywords"], "umbra armor"])
        return obs


class MutantEngine(ReferenceEngine):
    name = "mutant-dog_umbra_ignores_its_condition"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
