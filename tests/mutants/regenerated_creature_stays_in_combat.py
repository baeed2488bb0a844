"""A creature that regenerates stays attacking or blocking.

Rule broken: CR 701.15a ("If it's an attacking or blocking creature, remove it from combat.") and
506.4. Drudge Skeletons with a regeneration shield blocks Hill Giant, is dealt lethal damage and
regenerates: tapped, its damage removed, and out of combat.

Bug: ``apply_regeneration`` taps the creature and removes its damage, then puts it back into
combat, as umbra armor leaves it.
"""

from reference_engine import Game

from tests.mutants._combat import combat_engine


class MutantGame(Game):
    def apply_regeneration(self, obj):
        status = obj.combat
        super().apply_regeneration(obj)
        if status is not None and obj.combat is None:  # the bug
            obj.combat = status
            self.log[:] = [e for e in self.log if not (e.get("kind") == "removed_from_combat"
                                                        and e.get("object") == obj.id)]


engine = combat_engine(MutantGame, "mutant-regenerated_creature_stays_in_combat")
