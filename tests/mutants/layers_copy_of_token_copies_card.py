"""A copy of a token that is itself a copy copies the card that token copied, not the token.

Rule broken: CR 111.3 and 707.9b (the exceptions of a copy effect become part of the
copy's copiable values) and the Penumbra Umbra rulings (2024-11-08): "If the copied
creature is a token, the new token that's created copies the original characteristics
of that token". A copy of Penumbra Umbra's black token is black.

Bug: ``copy_source_values`` follows a token copy back to the object it copied, losing
the exception (the token's black colour).
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def copy_source_values(self, obj):
        if obj.token and obj.copy_of is not None:  # the bug: copy what the token copied
            values = self.values_to_copy(obj.copy_of)
            if values is not None:
                return values
        return super().copy_source_values(obj)


class MutantEngine(ReferenceEngine):
    name = "mutant-layers_copy_of_token_copies_card"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
