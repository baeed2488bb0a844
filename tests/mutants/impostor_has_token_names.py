"""Omnipresent Impostor has the names of tokens too: a name check for a token's name finds it.

Rule broken: CR 201.2a and Omnipresent Impostor's ruling 2024-11-08 "Omnipresent Impostor
has the names of all cards ... Notably, it doesn't have the names of tokens, such as Zombie
Token, Blood Token, and similar."

Bug: ``object_names`` gives an object with all names every name the engine knows, the
names of the tokens its effects define (Soldier Token, Thopter Token, Treasure Token, Mask)
included, so Bile Blight on a Soldier Token also gives the Impostor -3/-3.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine
from reference_engine.cards import TOKEN_DEFS


class MutantGame(Game):
    def object_names(self, obj):
        names = super().object_names(obj)
        if self.has_all_names(obj):  # the bug: every name the engine knows
            names = names | {definition.name for definition, _ in TOKEN_DEFS.values()}
        return names


class MutantEngine(ReferenceEngine):
    name = "mutant-impostor_has_token_names"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
