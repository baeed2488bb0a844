"""Sakura-Tribe Elder puts an Omnipresent Impostor it found onto the battlefield untapped.

Rule broken: CR 701.17a and Omnipresent Impostor's ruling 2024-11-08 "Continue resolving the
search effect with Omnipresent Impostor in place of whatever card it replaced. For example,
Sakura-Tribe Elder's activated ability lets you put an Omnipresent Impostor onto the
battlefield tapped".

Bug: ``put_found_onto_battlefield`` applies "tapped" only to the lands the search asked for,
so a creature found in place of one enters untapped.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def put_found_onto_battlefield(self, obj, player, by, tapped):
        if "Land" not in obj.card.types:  # the bug: "tapped" read as "a land enters tapped"
            tapped = False
        super().put_found_onto_battlefield(obj, player, by, tapped)


class MutantEngine(ReferenceEngine):
    name = "mutant-elder_puts_impostor_untapped"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
