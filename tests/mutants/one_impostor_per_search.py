"""A search for several cards finds at most one Omnipresent Impostor.

Rule broken: CR 201.2 and Omnipresent Impostor's ruling 2024-11-08 "If you search your deck
for more than one card, you can replace each of those cards with an Omnipresent Impostor as
long as there are enough Omnipresent Impostors in your deck."

Bug: once an Impostor is found, ``search_library`` no longer offers the other Impostors of
the library (Explosive Vegetation can't find two).
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def search_library(self, player, wanted, count, by, decider, destination):
        found, game = [], self

        class OneImpostor:
            """Passes questions on, leaving out the other Impostors once one is found."""

            def choose(self, who, kind, options):
                if kind == "search" and any(game.has_all_names(o) for o in found):  # the bug
                    options = [o for o in options if o == "nothing" or not game.has_all_names(game.objects[o])]
                answer = decider.choose(who, kind, options)
                if kind == "search" and answer != "nothing":
                    found.append(game.objects[answer])
                return answer

            def __getattr__(self, name):
                return getattr(decider, name)

        return super().search_library(player, wanted, count, by, OneImpostor(), destination)


class MutantEngine(ReferenceEngine):
    name = "mutant-one_impostor_per_search"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
