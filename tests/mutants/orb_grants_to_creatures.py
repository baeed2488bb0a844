"""Orb of Origin makes artifact creatures mono and continuous too.

Rule broken: CR 205.4, 613.1d (Orb of Origin ruling 2024-11-08: "It grants the mono and
continuous supertypes to other noncreature artifacts on the battlefield").

Bug: ``granted_supertypes`` checks for an artifact and forgets "noncreature": Darksteel Myr,
Hangarback Walker and Thopter tokens become mono and continuous.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine
from reference_engine.objects import BATTLEFIELD
from reference_engine.playtest import GRANTED


class MutantGame(Game):
    def granted_supertypes(self, obj, card):
        if obj.zone != BATTLEFIELD or "Artifact" not in card.types:  # the bug: creatures too
            return ()
        return GRANTED if any(orb.id != obj.id for orb in self.orbs()) else ()


class MutantEngine(ReferenceEngine):
    name = "mutant-orb_grants_to_creatures"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
