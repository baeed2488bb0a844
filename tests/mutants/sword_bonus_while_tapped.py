"""A tapped continuous Sword of the Meek still gives +1/+2.

Rule broken: CR 613.4c, 613.1f (Orb of Origin ruling 2024-11-08: activating Sword of the
Meek's equip ability "will cause it to lose "Equipped creature gets +1/+2" as long as it
remains tapped").

Bug: ``equipment_effects`` applies every attached Equipment's bonus without asking whether the
Equipment has its abilities.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine
from reference_engine.objects import PTEffect


class MutantGame(Game):
    def equipment_effects(self, creature, attached):
        found = []
        for equipment in attached:
            bonus = self.copiable_values(equipment)[1].equipped_pt
            if bonus:  # the bug: tapped continuous Equipment too
                found.append(PTEffect(creature.id, "7c", bonus[0], bonus[1], equipment.timestamp, False, equipment.id))
        return found


class MutantEngine(ReferenceEngine):
    name = "mutant-sword_bonus_while_tapped"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
