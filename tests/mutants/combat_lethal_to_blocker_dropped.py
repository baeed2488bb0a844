"""An attacker's lethal combat damage to a creature blocking it is dropped: the blocker survives unharmed.

Rule broken: CR 510.1c: "A blocked creature assigns its combat damage to the creatures blocking
it." and 510.2: "each attacking and blocking creature ... deals combat damage equal to its
assignment". Hill Giant (3/3) blocked by Grizzly Bears (2/2): the Bears are dealt 3 damage and
die (704.5g); here they are dealt none, keep no damage marked and stay on the battlefield.

Bug: when the combat damage is dealt, an attacker's damage to an undamaged blocker that is lethal
(its toughness, or any damage from a deathtouch source) is logged and counted for lifelink but
not marked on the blocker, so state-based actions don't destroy it.
"""

from reference_engine import Game
from reference_engine.layers import characteristics

from tests.mutants._combat import combat_engine


class MutantGame(Game):
    def deal_combat_damage(self, assignments):
        dropped = []
        for source, target, amount in assignments:
            obj = self.objects.get(target) if target not in self.players else None
            if obj is not None and source.combat == "attacking" and amount > 0 and not obj.damage:
                if amount >= (characteristics(self, obj).toughness or 0) or "deathtouch" in characteristics(self, source).keywords:
                    dropped.append((obj, amount, obj.deathtouch_damage))
        super().deal_combat_damage(assignments)
        for obj, amount, deathtouch in dropped:  # the bug: the lethal damage is not marked
            obj.damage -= amount
            obj.deathtouch_damage = deathtouch


engine = combat_engine(MutantGame, "mutant-combat_lethal_to_blocker_dropped")
