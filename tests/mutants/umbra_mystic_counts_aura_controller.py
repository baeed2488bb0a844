"""Umbra Mystic grants umbra armor to the Auras its controller controls, not to the Auras on its controller's permanents.

Rule broken: CR 613.1f and Umbra Mystic's Oracle text ("Auras attached to permanents you
control have umbra armor."); ruling Umbra Mystic 2010-06-15: "regardless of who controls
those Auras. Conversely, it doesn't grant umbra armor to Auras you control that are
attached to permanents controlled by other players."

Bug: the grant counts the Aura's controller; the engine lists umbra armor by the same
wrong test, so invariants that believe the engine's keywords see nothing wrong.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine
from reference_engine.objects import BATTLEFIELD


class MutantGame(Game):
    def _mutant_umbra(self, aura) -> bool:
        script = self.copiable_values(aura)[1]
        if "umbra armor" in script.keywords:
            return True
        host = self.objects.get(aura.attached_to) if aura.attached_to else None
        if host is None or host.zone != BATTLEFIELD:
            return False
        if script.umbra_armor_unless_opponent_controls and host.controller == aura.controller:
            return True
        return any(self.copiable_values(o)[1].grants_umbra_armor_to_auras and o.controller == aura.controller
                   for o in self.battlefield())  # the bug: the Aura's controller

    def destruction_replacements(self, obj, cant_be_regenerated):
        options = [f"umbra armor:{a.id}" for a in self.attached_to(obj.id) if self._mutant_umbra(a)]
        if obj.regeneration_shields > 0 and not cant_be_regenerated:
            options.append("regeneration")
        return options

    def observe(self):
        obs = super().observe()
        for oid, o in obs["objects"].items():
            obj = self.objects[oid]
            if o["zone"] == BATTLEFIELD and "Aura" in o["subtypes"]:
                keywords = set(o["keywords"]) - {"umbra armor"}
                if self._mutant_umbra(obj):
                    keywords.add("umbra armor")
                o["keywords"] = sorted(keywords)
        return obs


class MutantEngine(ReferenceEngine):
    name = "mutant-umbra_mystic_counts_aura_controller"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
