"""A token copy gets the counters of the creature it copies.

Rule broken: CR 707.2 ("Other effects ..., status, counters, and stickers are not
copied") and the Penumbra Umbra ruling (2024-11-08): "It doesn't copy whether that
creature is tapped or untapped, whether it has any counters on it or Auras and
Equipment attached to it, and so on."

Bug: ``create_token_copy`` clones the whole object, counters included.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def create_token_copy(self, token_id, original_id, controller, by, colors=None):
        original = self.objects.get(original_id)
        counters = dict(original.counters) if original is not None and original.zone == "battlefield" else {}
        if not counters and original_id in self.last_known:
            counters = dict(self.last_known[original_id].counters)
        token = super().create_token_copy(token_id, original_id, controller, by, colors)
        if token is not None and token.zone == "battlefield":
            for kind, n in counters.items():  # the bug: counters are copied
                token.counters[kind] = token.counters.get(kind, 0) + n
        return token


class MutantEngine(ReferenceEngine):
    name = "mutant-layers_token_copies_counters"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
