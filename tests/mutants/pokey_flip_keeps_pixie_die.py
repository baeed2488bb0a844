"""A d20 roll Pokey replaced with a flip still rolls Pixie Guide's extra die.

Rule broken: CR 614.6 and the ruling (Pokey, the Scallywagg 2024-11-08) "If you apply
Pokey's third ability as a replacement effect to rolling a d20 ... you can then apply the
replacement effect of Krark's Thumb but not the replacement effect of Pixie Guide."

Bug: Pixie Guide's extra die is rolled (and ignored) for every instruction to roll, even
when the roll was replaced by a coin flip.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def chance_instruction(self, player, start, calls, instruction, decider):
        seen = super().chance_instruction(player, start, calls, instruction, decider)
        pixies = [o for o, s in self.chance_sources(player) if "advantage" in s.chance_replacements]
        if start.kind == "roll" and pixies and any(e.get("kind") == "die_roll" and e.get("replaced")
                                                   and e.get("instruction") == instruction for e in self.log):
            for _ in pixies:  # the bug
                self.log.append({"kind": "die_roll", "player": player, "instruction": instruction,
                                 "sides": start.sides, "natural": decider.roll_die(player, start.sides),
                                 "result": None, "ignored": True, "replaced": None})
                self.log[-1]["result"] = self.log[-1]["natural"]
        return seen


class MutantEngine(ReferenceEngine):
    name = "mutant-pokey_flip_keeps_pixie_die"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
