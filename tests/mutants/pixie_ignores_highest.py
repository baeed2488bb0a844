"""Pixie Guide's extra die: the highest roll is ignored instead of the lowest.

Rule broken: CR 706.6 and Pixie Guide's Oracle text "instead roll that many dice plus one
and ignore the lowest roll".

Bug: the dice are sorted the wrong way round before the ignored ones are picked.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def roll(self, player, event, instruction, decider):
        _, entries = super().roll(player, event, instruction, decider)
        if event.ignore:
            order = sorted(range(len(entries)), key=lambda i: -entries[i]["natural"])  # the bug: highest first
            for i, entry in enumerate(entries):
                entry["ignored"] = i in order[:event.ignore]
        return [e["natural"] for e in entries if not e["ignored"]], entries


class MutantEngine(ReferenceEngine):
    name = "mutant-pixie_ignores_highest"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
