"""A creature with lifelink makes its controller gain the combat damage all their creatures dealt.

Rule broken: CR 702.15b: "Damage dealt by a source with lifelink causes that source's controller
... to gain that much life": only the damage that source dealt. Vampire Nighthawk (2) attacking
beside Hill Giant (3), both unblocked: its controller gains 2, not 5.

Bug: the life gained is counted per controller of lifelink creatures, not per source.
"""

from reference_engine import Game
from reference_engine.layers import characteristics

from tests.mutants._combat import combat_engine


class MutantGame(Game):
    def deal_combat_damage(self, assignments):
        by_controller, lifelinked = {}, set()
        for source, _, amount in assignments:
            by_controller[source.controller] = by_controller.get(source.controller, 0) + amount
            if "lifelink" in characteristics(self, source).keywords:
                lifelinked.add(source.controller)
        super().deal_combat_damage(assignments)
        own = {}
        for source, _, amount in assignments:
            if "lifelink" in characteristics(self, source).keywords:
                own[source.controller] = own.get(source.controller, 0) + amount
        for player in lifelinked:  # the bug: every creature of theirs counts
            extra = by_controller[player] - own.get(player, 0)
            if extra:
                self.players[player].life += extra
                self.log.append({"kind": "life_gained", "player": player, "amount": extra})


engine = combat_engine(MutantGame, "mutant-lifelink_gains_all_combat_damage")
