"""Proof that each coins-and-dice invariant (``invariants/chance.py``) can pass and can fail.

``CASES`` maps each invariant to (holds, broken, says), as ``tests/test_invariants.py``
expects: "holds" is a real step of the reference engine on a scripted scenario whose
expected values ``tests/test_chance_rulings.py`` checks against the rulings; "broken" is
that step's observation or decisions altered the way a buggy engine would report them;
``says`` is a word the failure message must contain.
"""

from __future__ import annotations

import copy

from invariants import Decision, Transition
from reference_engine import ReferenceEngine

from .scenario_helpers import board, obj

POKEY, THUMB, PIXIE = "Pokey, the Scallywagg", "Krark's Thumb", "Pixie Guide"
SCOUNDREL, DWARF = "Tavern Scoundrel", "Brazen Dwarf"
TO_D20, TO_FLIP = "Pokey: roll a d20 instead:pk", "Pokey: flip a coin instead:pk"


class ChanceDecider:
    """Scripted answers in order: strings answer ``choose`` and ``flip_coin``, ints ``roll_die``.

    ``asked`` records (player, kind, options) for every question and ``decisions`` the
    same as :class:`invariants.Decision`; running out of answers, or an answer that is not
    an option, fails the test.
    """

    def __init__(self, *answers):
        self.answers = list(answers)
        self.asked: list[tuple] = []
        self.decisions: list[Decision] = []

    def _next(self, player, kind, options):
        self.asked.append((player, kind, list(options)))
        assert self.answers, f"unexpected question: {player} {kind} {list(options)}"
        answer = self.answers.pop(0)
        assert answer in options, f"scripted answer {answer!r} for {kind} is not one of {list(options)}"
        self.decisions.append(Decision(player, kind, tuple(options) if kind[:1] != "d" else (), answer))
        return answer

    def choose(self, player, kind, options):
        return self._next(player, kind, options)

    def flip_coin(self, player):
        return self._next(player, "coin_flip", ["heads", "tails"])

    def roll_die(self, player, sides):
        return self._next(player, f"d{sides}", list(range(1, sides + 1)))


def flip(count=1, calls=True, player="P1"):
    return {"type": "flip_coins", "player": player, "count": count, "calls": calls}


def roll(count=1, sides=20, player="P1"):
    return {"type": "roll_dice", "player": player, "count": count, "sides": sides}


def chance_step(objects, event, *answers) -> Transition:
    """The reference engine's transition for ``event`` on a board of ``objects`` with scripted answers."""
    game = ReferenceEngine().new_game(board(*objects))
    before = game.observe()
    decider = ChanceDecider(*answers)
    game.apply(event, decider)
    assert decider.answers == [], f"scripted answers not used: {decider.answers}"
    return Transition(before, event, game.observe(), decisions=decider.decisions)


def altered(t: Transition, mutate) -> Transition:
    """``t`` with a deep copy of its ``after`` observation changed by ``mutate(after)``."""
    after = copy.deepcopy(t.after)
    mutate(after)
    return Transition(t.before, t.event, after, t.illegal, list(t.decisions))


def _chance(after, kind):
    return [e for e in after["log"] if e["kind"] == kind]


# --------------------------------------------------------------------------- steps
def thumb_keeps_tails() -> Transition:
    """Krark's Thumb and Tavern Scoundrel: call heads, coins heads and tails, tails kept: lost."""
    return chance_step([obj("t", THUMB), obj("s", SCOUNDREL)], flip(), "heads", "heads", "tails", "tails")


def thumb_keeps_heads() -> Transition:
    return chance_step([obj("t", THUMB), obj("s", SCOUNDREL)], flip(), "heads", "tails", "heads", "heads")


def opponent_flips_beside_thumb() -> Transition:
    return chance_step([obj("t", THUMB)], flip(player="P2"), "tails", "heads")


def two_called_flips() -> Transition:
    return chance_step([obj("s", SCOUNDREL)], flip(count=2), "heads", "heads", "tails", "tails",
                       "win a coin flip:s")


def pixie_roll() -> Transition:
    return chance_step([obj("g", PIXIE), obj("d", DWARF)], roll(count=2, sides=6), 5, 1, 3)


def pokey_flip_to_d20() -> Transition:
    """Pokey's second ability: the d20 shows 11, so the original flip sees heads."""
    return chance_step([obj("pk", POKEY)], flip(), "heads", TO_D20, "none", 11)


def pokey_with_everything() -> Transition:
    """Pokey's second ability with Pixie Guide, Krark's Thumb, Tavern Scoundrel and Brazen Dwarf."""
    return chance_step([obj("pk", POKEY), obj("t", THUMB), obj("g", PIXIE), obj("s", SCOUNDREL), obj("d", DWARF)],
                       flip(), "heads", TO_D20, "Pixie Guide:g", 5, 15)


# --------------------------------------------------------------------------- broken
def _flip_kept_coin(after):
    kept = next(e for e in _chance(after, "coin_flip") if not e["ignored"])
    kept["result"] = "heads" if kept["result"] == "tails" else "tails"
    kept["won"] = kept["result"] == kept["call"]


def _drop_instruction_2(after):
    after["log"] = [e for e in after["log"] if e.get("instruction") != 2]


def _wrong_win(after):
    e = next(e for e in _chance(after, "coin_flip") if not e["ignored"])
    e["won"] = not e["won"]


def _second_coin_for_p2(after):
    coin = _chance(after, "coin_flip")[0]
    after["log"].insert(after["log"].index(coin), dict(coin, call=None, won=None, ignored=True))


def _no_extra_die(after):
    after["log"] = [e for e in after["log"] if not (e["kind"] == "die_roll" and e["ignored"])]


def _pokey_sees_tails(after):
    e = next(e for e in _chance(after, "coin_flip") if e["replaced"])
    e["result"], e["won"] = "tails", False


def _ignored_coin_triggers(after):
    after["log"].append({"kind": "trigger", "source": "s", "ability": "win a coin flip", "controller": "P1"})


def _one_treasure_missing(after):
    after["log"] = [e for e in after["log"] if e.get("object") != "s.treasure2"]
    del after["objects"]["s.treasure2"]
    after["zones"]["battlefield"].remove("s.treasure2")


def _decider_not_asked_pokey(t: Transition) -> Transition:
    decisions = [d for d in t.decisions if not (d.kind == "replacement_effect" and str(d.answer).startswith("Pokey"))]
    return Transition(t.before, t.event, t.after, t.illegal, decisions)


#: invariant -> (holds, broken, says)
CASES = {
    "chance.through_the_decider": (thumb_keeps_tails, lambda: altered(thumb_keeps_tails(), _flip_kept_coin),
                                   "decider's flips"),
    "chance.instructions_carried_out": (two_called_flips, lambda: altered(two_called_flips(), _drop_instruction_2),
                                        "instructions"),
    "chance.calls_and_wins": (thumb_keeps_heads, lambda: altered(thumb_keeps_heads(), _wrong_win), "won must be"),
    "chance.krarks_thumb": (thumb_keeps_tails, lambda: altered(opponent_flips_beside_thumb(), _second_coin_for_p2),
                            "no Krark's Thumb"),
    "chance.pixie_guide": (pixie_roll, lambda: altered(pixie_roll(), _no_extra_die), "Pixie Guide"),
    "chance.pokey": (pokey_flip_to_d20, lambda: altered(pokey_flip_to_d20(), _pokey_sees_tails), "seen as"),
    "chance.ignored_never_happened": (thumb_keeps_tails, lambda: altered(thumb_keeps_tails(), _ignored_coin_triggers),
                                      "must trigger"),
    "chance.trigger_effects": (thumb_keeps_heads, lambda: altered(thumb_keeps_heads(), _one_treasure_missing),
                               "Treasure"),
}

#: More ways to break them: (invariant, broken, says).
MORE_BROKEN = [
    ("chance.pokey", lambda: _decider_not_asked_pokey(pokey_flip_to_d20()), "optional"),
    ("chance.ignored_never_happened",
     lambda: altered(pokey_with_everything(),
                     lambda a: a["log"].append({"kind": "trigger", "source": "s", "ability": "win a coin flip",
                                                "controller": "P1"})), "Tavern Scoundrel"),
    ("chance.krarks_thumb",
     lambda: altered(thumb_keeps_heads(), lambda a: [e.update(ignored=False) for e in _chance(a, "coin_flip")]),
     "one ignored"),
]
