"""An indestructible creature that would be destroyed still loses an umbra Aura.

Rule broken: CR 702.12b (an indestructible permanent can't be destroyed, so there is no
destruction to replace, 614.1) and the ruling (Umbra Mystic 2024-06-07) "If a creature
enchanted with an Aura that has umbra armor has indestructible, lethal damage and
effects that try to destroy it simply have no effect. Umbra armor won't do anything
because it won't have to."

Bug: ``destroy`` applies replacement effects before it checks for indestructible, so
"destroy target creature" on an indestructible creature removes its damage and destroys
one of its umbra Auras.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine
from reference_engine.layers import characteristics


class MutantGame(Game):
    def destroy(self, targets, by, decider, cant_be_regenerated=frozenset()):
        instead = []
        for oid in targets:
            obj = self.objects[oid]
            if obj.zone != "battlefield" or "indestructible" not in characteristics(self, obj).keywords:
                continue
            options = [o for o in self.destruction_replacements(obj, True) if o.startswith("umbra armor:")]
            if options:  # the bug: the replacement is applied although nothing would be destroyed
                choice = self.choose_replacement(obj, options, decider)
                instead.extend(self.apply_umbra_armor(obj, choice.split(":", 1)[1]))
        super().destroy(list(targets) + instead, by, decider, cant_be_regenerated)


class MutantEngine(ReferenceEngine):
    name = "mutant-indestructible_loses_aura"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
