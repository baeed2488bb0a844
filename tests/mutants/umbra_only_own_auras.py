"""Umbra armor only protects a creature if the Aura's controller also controls the creature.

Rule broken: CR 702.89a ("If enchanted permanent would be destroyed ...": whoever
controls the Aura) and the ruling (Umbra Mystic 2010-06-15) "If a permanent you control
would be destroyed, and it's enchanted by multiple Auras with totem armor (no matter
who controls those Auras), you choose which one of those Auras is destroyed instead."

Bug: ``destruction_replacements`` only offers umbra Auras whose controller controls the
enchanted creature (a misreading of "you control" on Umbra Mystic).
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def destruction_replacements(self, obj, cant_be_regenerated):
        return [
            o for o in super().destruction_replacements(obj, cant_be_regenerated)
            if not o.startswith("umbra armor:") or self.objects[o.split(":", 1)[1]].controller == obj.controller
        ]  # the bug: the opponent's umbra Auras don't count


class MutantEngine(ReferenceEngine):
    name = "mutant-umbra_only_own_auras"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
