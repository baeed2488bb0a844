"""Umbra armor destroys the Aura but leaves the damage marked on the creature.

Rule broken: CR 702.89a ("instead remove all damage marked on it and destroy this
Aura"). A creature saved from lethal damage then dies to the next state-based action
check unless it has another umbra Aura, and a creature saved from "destroy" keeps
its damage.

Bug: ``apply_umbra_armor`` logs the replacement and destroys the Aura but forgets
``remove_damage``.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def apply_umbra_armor(self, obj, aura_id):
        # the bug: no self.remove_damage(obj)
        self.log.append({"kind": "replacement", "effect": "umbra armor", "source": aura_id, "affected": obj.id})
        return [aura_id]


class MutantEngine(ReferenceEngine):
    name = "mutant-umbra_keeps_damage"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
