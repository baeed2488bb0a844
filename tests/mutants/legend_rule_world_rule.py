"""The legend rule is applied across players, as before the 2013 rules change.

Rule broken: CR 704.5j ("If two or more legendary permanents with the same name are
controlled by the same player, that player chooses one of them ..."). Legends with the
same name under different players' control coexist.

Bug: the engine still has the old "world" legend rule: when two or more legendary
permanents with the same name are on the battlefield and not all controlled by one
player, all of them are put into their owners' graveyards.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def check_state_based_actions(self, decider):
        super().check_state_based_actions(decider)
        while True:
            groups: dict[str, list] = {}
            for obj in self.battlefield():
                if "Legendary" in obj.card.supertypes:
                    groups.setdefault(obj.card.name, []).append(obj)
            doomed = [o.id for objs in groups.values() if len({o.controller for o in objs}) > 1 for o in objs]
            if not doomed:
                return
            # the bug: every one of them goes
            self.move_to_graveyard(doomed, {"event": "state_based_action", "rule": "704.5j"})
            super().check_state_based_actions(decider)


class MutantEngine(ReferenceEngine):
    name = "mutant-legend_rule_world_rule"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
