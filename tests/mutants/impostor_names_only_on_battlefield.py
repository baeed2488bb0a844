"""Omnipresent Impostor is observed with all its names only on the battlefield, not in a library or graveyard.

Rule broken: CR 604.3 and Omnipresent Impostor's ruling 2024-11-08 "Omnipresent Impostor's
second ability is a characteristic-defining ability that functions in all zones as well as
outside the game."

Bug: the observation treats "has all card names" as a static ability of a permanent and
reports it only for objects on the battlefield: in a library, hand, graveyard or exile
the Impostor has its printed name only.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def observe(self):
        observation = super().observe()
        for o in observation["objects"].values():
            if o["zone"] != "battlefield":  # the bug: a static ability of permanents only
                o.pop("names", None)
        return observation


class MutantEngine(ReferenceEngine):
    name = "mutant-impostor_names_only_on_battlefield"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
