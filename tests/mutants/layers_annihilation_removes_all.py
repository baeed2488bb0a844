"""+1/+1 and -1/-1 counters annihilate completely: all of both kinds are removed.

Rule broken: CR 704.5q and 122.3: "N +1/+1 and N -1/-1 counters are removed from it,
where N is the smaller of the number of +1/+1 and -1/-1 counters on it."

Bug: ``annihilate_counters`` removes every +1/+1 and -1/-1 counter (it logs N).
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def annihilate_counters(self, obj):
        plus, minus = obj.counters.get("+1/+1", 0), obj.counters.get("-1/-1", 0)
        if not (plus and minus):
            return False
        del obj.counters["+1/+1"], obj.counters["-1/-1"]  # the bug: both kinds entirely
        self.log.append({"kind": "counters_removed", "object": obj.id, "rule": "704.5q", "amount": min(plus, minus)})
        return True


class MutantEngine(ReferenceEngine):
    name = "mutant-layers_annihilation_removes_all"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
