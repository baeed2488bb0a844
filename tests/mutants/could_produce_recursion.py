""""Could produce" recurses into the lands it looks at and never ends on a cycle.

Rule broken: CR 106.7 (with 106.5): Reflecting Pools and Exotic Orchards looking at each
other must terminate with the types the other lands give them, or none.

Bug: ``could_produce_all`` asks each land what it could produce by recursion, without
remembering which lands it is already asking about: a Reflecting Pool looks at itself, so
every activation of one overflows the stack (the public "could produce" loop bug).
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine
from reference_engine.abilities import ADD_LAND_YOU_CONTROL_TYPE, ADD_OPPONENT_LAND_COLOR, COLORS


class MutantGame(Game):
    def could_produce_all(self):
        return {o.id: self._naive(o) for o in self.battlefield()}

    def _naive(self, obj):
        types = set()
        for ability in self.activated_abilities(obj):
            if not ability.is_mana_ability:
                continue
            if ability.kind in (ADD_LAND_YOU_CONTROL_TYPE, ADD_OPPONENT_LAND_COLOR):
                mine = ability.kind == ADD_LAND_YOU_CONTROL_TYPE
                for land in self.battlefield():
                    if self.is_land(land) and (land.controller == obj.controller) == mine:
                        found = self._naive(land)  # the bug: no memory of the lands being asked
                        types |= found if mine else found & set(COLORS)
            else:
                types |= self.ability_types(obj, ability, {})
        return frozenset(types)


class MutantEngine(ReferenceEngine):
    name = "mutant-could_produce_recursion"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
