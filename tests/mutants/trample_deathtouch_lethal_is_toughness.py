"""Trample with deathtouch: the attacker must assign its blockers' whole toughness before the player gets any.

Rule broken: CR 702.2c ("Any nonzero amount of combat damage assigned to a creature by a source
with deathtouch is considered to be lethal damage for the purposes of determining if a proposed
combat damage assignment is valid, regardless of that creature's toughness") and 702.19b. Typhoid
Rats with Epic Proportions (6/6, deathtouch and trample) blocked by Craw Wurm may assign 1 to the
Wurm and 5 to the defending player; this fork offers the player at most 2.

Bug: ``lethal_damage`` ignores deathtouch (too much to the blocker, too little to the player).
"""

from reference_engine import Game

from tests.mutants._combat import combat_engine


class MutantGame(Game):
    def lethal_damage(self, obj, deathtouch):
        return super().lethal_damage(obj, False)  # the bug


engine = combat_engine(MutantGame, "mutant-trample_deathtouch_lethal_is_toughness")
