"""A search for a basic land card doesn't offer Omnipresent Impostor (it is basic, but no land).

Rule broken: CR 205.4c and Omnipresent Impostor's ruling 2024-11-08 "Each time you search
your deck for one or more cards, you can find Omnipresent Impostor in place of one of those
cards ... For example, Sakura-Tribe Elder's activated ability lets you put an Omnipresent
Impostor onto the battlefield tapped".

Bug: ``search_options`` checks the search's stated quality first and offers an Impostor
only to searches it matches by its characteristics: a search for a basic land card (Sakura-Tribe
Elder, Explosive Vegetation) never offers it, since it is a creature.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine
from reference_engine.search import basic_land_card


class MutantGame(Game):
    def search_options(self, player, wanted):
        options = super().search_options(player, wanted)
        if wanted is basic_land_card:  # the bug: a basic land search looks only at basic lands
            options = [oid for oid in options if wanted(self.objects[oid].card)]
        return options


class MutantEngine(ReferenceEngine):
    name = "mutant-impostor_not_found_for_basic_land"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
