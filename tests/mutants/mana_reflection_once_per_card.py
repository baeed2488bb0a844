"""Mana Reflection is applied once per card name instead of once per effect.

Rule broken: CR 106.12b, 616.1 and 614.5: each replacement effect modifies the mana
production event once; two Mana Reflections make a Forest produce four times as much.

Bug: ``mana_replacements`` keeps only the first source of each card name, the bug of
engines that apply "a reflection" once per ability rather than cumulatively.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def mana_replacements(self, obj, player):
        seen, out = set(), []
        for source in super().mana_replacements(obj, player):
            if source.card.name not in seen:  # the bug
                seen.add(source.card.name)
                out.append(source)
        return out


class MutantEngine(ReferenceEngine):
    name = "mutant-mana_reflection_once_per_card"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
