"""The published table of decisions: every kind of question an engine asks its decider.

An engine asks ``decider.choose(player, kind, options)`` for every choice a player makes
(and ``flip_coin`` / ``roll_die`` for chance). The *kind* names the choice and the
*options* are strings of a fixed form, so the harness, the invariants and the reference
engine read one table instead of string literals scattered through them: :data:`TABLE`
lists each kind with who is asked, the form of its options and the Comprehensive Rules
it comes from; the constants below (``LEGEND_RULE``, ``YES``, ``umbra_armor_option(id)``,
...) are the spellings everybody imports. ``docs/protocol.md`` carries the table as
:func:`markdown` writes it (a test checks they agree).

A question of a kind the table doesn't know is no error: the decider answers it like any
other (it draws one of the options, or replays the recorded answer), it is recorded in
the step's ``decisions`` as usual, and an invariant that looks for a question it knows
and finds one it doesn't is *not applicable* (:func:`unknown_asked`), never "not asked":
the engine may model the choice under another name.

Imports only :mod:`harness.protocol` (the reference engine and the invariants import this module):
it appends the table's kinds to :class:`harness.protocol.Decider`'s docstring, and
``harness/__init__`` imports it, so the docstring has them whatever is imported first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from harness.protocol import Decider

__all__ = [
    "COIN_CALL", "COIN_FLIP", "COIN_KEPT", "DAMAGE_ASSIGNMENT", "DecisionKind", "EDICT", "HEADS", "LEGEND_RULE", "MANA_PAYMENT", "MANA_TYPE",
    "MAY", "NEITHER", "NO", "NONE", "NOTHING", "REGENERATION", "REPLACEMENT_EFFECT", "SACRIFICE", "SEARCH",
    "TABLE", "TAILS", "TAP", "TAP_OR_UNTAP", "TARGET", "TRIGGER_ORDER", "UMBRA_ARMOR", "UNTAP", "YES",
    "assigned_damage", "damage_assignment_option", "die_kind",
    "is_known", "markdown", "source_of", "trigger_option", "umbra_armor_option", "unknown_asked",
]

# ------------------------------------------------------------------------------ kinds
LEGEND_RULE = "legend_rule"
REPLACEMENT_EFFECT = "replacement_effect"
TRIGGER_ORDER = "trigger_order"
TARGET = "target"
SEARCH = "search"
MANA_TYPE = "mana_type"
MANA_PAYMENT = "mana_payment"
MAY = "may"
TAP_OR_UNTAP = "tap_or_untap"
COIN_CALL = "coin_call"
COIN_KEPT = "coin_kept"
SACRIFICE = "sacrifice"
#: "Target player sacrifices a creature" (an edict, CR 701.17a): the player chooses which.
EDICT = "edict"
#: How an attacking creature's combat damage is divided (CR 510.1c, 702.19b): one question per
#: amount, options :func:`damage_assignment_option`.
DAMAGE_ASSIGNMENT = "damage_assignment"
#: Chance (``flip_coin``, ``roll_die``): recorded as decisions of these kinds too.
COIN_FLIP = "coin_flip"

# ------------------------------------------------------------------------------ option labels
YES, NO = "yes", "no"
TAP, UNTAP, NEITHER = "tap", "untap", "neither"
HEADS, TAILS = "heads", "tails"
#: ``search``: find nothing more (a hidden zone: nothing has to be found, CR 701.19b).
NOTHING = "nothing"
#: ``replacement_effect`` among optional effects only: apply none of them.
NONE = "none"
#: ``replacement_effect`` labels of the effects on a destruction (CR 616.1).
UMBRA_ARMOR = "umbra armor"
REGENERATION = "regeneration"


def umbra_armor_option(aura_id: str) -> str:
    """The option of umbra armor of the Aura ``aura_id``: ``"umbra armor:<id>"``."""
    return f"{UMBRA_ARMOR}:{aura_id}"


def trigger_option(ability: str, source: str) -> str:
    """The option of a triggered ability in ``trigger_order`` (and of a replacement effect of a
    card in ``replacement_effect``): ``"<ability or effect>:<source id>"``."""
    return f"{ability}:{source}"


def damage_assignment_option(amount: int, recipient: str) -> str:
    """The option of ``damage_assignment`` that assigns ``amount`` combat damage to ``recipient``
    (a blocking creature's id or the defending player's id): ``"<N> damage to <id>"``."""
    return f"{amount} damage to {recipient}"


def assigned_damage(option) -> tuple[int, str] | None:
    """``(amount, recipient)`` of a ``damage_assignment`` option, or None if it isn't one."""
    match = _ASSIGNMENT.fullmatch(str(option))
    return (int(match.group(1)), match.group(2)) if match else None


_ASSIGNMENT = re.compile(r"(0|[1-9][0-9]*) damage to (.+)")


def source_of(option: str) -> str:
    """The source id of an option ``"<label>:<source id>"`` (the text after the last colon)."""
    return str(option).rpartition(":")[2]


def die_kind(sides: int) -> str:
    """The kind a die roll is recorded as: ``"d<sides>"`` (``d20``)."""
    return f"d{sides}"


_DIE = re.compile(r"d[1-9][0-9]*")


@dataclass(frozen=True)
class DecisionKind:
    """One kind of question: ``asked`` says who answers, ``options`` the form of the options
    (``labels``: the fixed labels among them, if any), ``rules`` the CR rules it comes from."""

    kind: str
    asked: str
    options: str
    rules: tuple[str, ...]
    labels: tuple[str, ...] = ()
    method: str = "choose"


TABLE: tuple[DecisionKind, ...] = (
    DecisionKind(LEGEND_RULE, "the player who controls two or more legendary permanents of one name",
                 "the ids of those permanents; the answer stays, the rest go to the graveyard", ("704.5j",)),
    DecisionKind(REPLACEMENT_EFFECT, "the affected object's controller, or the affected player (the player who "
                 "tapped a permanent for mana)",
                 f"`umbra armor:<Aura id>` and `{REGENERATION}` on a destruction; `<card name>:<id>` on mana; "
                 f"`<effect>:<source id>` on a coin or die, plus `{NONE}` when every one is optional",
                 ("616.1", "616.1e", "616.1f"), (REGENERATION, NONE)),
    DecisionKind(TRIGGER_ORDER, "each player, in APNAP order, for the triggered abilities they control",
                 "`<ability>:<source id>`; the answer is the next one put on the stack", ("603.3b",)),
    DecisionKind(TARGET, "the controller of the ability (or spell)", "the ids of the legal targets",
                 ("601.2c", "602.2b", "603.3d")),
    DecisionKind(SEARCH, "the player searching a library", f"`{NOTHING}` and the ids of the cards still to be "
                 "found (one question per card)", ("701.19b", "201.2"), (NOTHING,)),
    DecisionKind(MANA_TYPE, "the player who activated the mana ability",
                 "mana types (`W` `U` `B` `R` `G` `C`) the ability may produce", ("106.1", "106.7", "605.3b"),
                 ("W", "U", "B", "R", "G", "C")),
    DecisionKind(MANA_PAYMENT, "the player paying a cost", "mana types in their pool to spend on a hybrid or "
                 "generic part", ("601.2h", "106.4")),
    DecisionKind(MAY, "the controller of the ability", f"`{YES}`, `{NO}` (\"you may\")", ("603.5", "608.2d"),
                 (YES, NO)),
    DecisionKind(TAP_OR_UNTAP, "the controller of the ability", f"`{TAP}`, `{UNTAP}`, `{NEITHER}`", ("608.2d",),
                 (TAP, UNTAP, NEITHER)),
    DecisionKind(COIN_CALL, "the player who flips", f"`{HEADS}`, `{TAILS}`", ("705.2",), (HEADS, TAILS)),
    DecisionKind(COIN_KEPT, "the controller of Krark's Thumb (the player who flips)",
                 f"the distinct results among `{HEADS}`, `{TAILS}`", ("614.1a", "706.6"), (HEADS, TAILS)),
    DecisionKind(SACRIFICE, "the player paying a sacrifice cost", "the ids of the permanents they may sacrifice",
                 ("701.17a", "601.2h")),
    DecisionKind(EDICT, "the player an effect instructs to sacrifice a creature (the `edict` event's `player`)",
                 "the ids of the creatures they control (asked only when there are two or more)", ("701.17a",)),
    DecisionKind(DAMAGE_ASSIGNMENT, "the attacking creature's controller (the attacking player)",
                 "`<N> damage to <id>`: first, for an attacker with trample, the damage to the defending player "
                 "(N from 0 to its power minus the lethal damage of all its blockers, 1 for each with deathtouch); "
                 "then, for each of its blockers but the last in id order, N from the least to the most that "
                 "leaves enough for the rest (each blocker's lethal damage once the player gets some, else 0); "
                 "the last blocker gets what is left. Asked only where there are two or more options; attackers "
                 "in id order", ("510.1c", "702.19b", "702.2c")),
    DecisionKind(COIN_FLIP, "the player who flips (chance: `flip_coin`)", f"`{HEADS}`, `{TAILS}`", ("705.1",),
                 (HEADS, TAILS), method="flip_coin"),
    DecisionKind("d<N>", "the player who rolls (chance: `roll_die`, N sides)", "none: the answer is 1..N",
                 ("706.1",), method="roll_die"),
)

KINDS: dict[str, DecisionKind] = {k.kind: k for k in TABLE}


def is_known(kind) -> bool:
    """Whether the table has ``kind`` (a die ``d<N>`` included)."""
    return isinstance(kind, str) and (kind in KINDS or bool(_DIE.fullmatch(kind)))


def unknown_asked(decisions) -> list:
    """The decisions among ``decisions`` whose kind the table doesn't know: an invariant that
    finds the question it looks for missing is not applicable when there is one of these."""
    return [d for d in decisions if not is_known(getattr(d, "kind", None))]


def markdown() -> str:
    """The table as ``docs/protocol.md`` shows it (between its ``decisions table`` markers)."""
    rows = ["| kind | method | who is asked | options | CR |", "|---|---|---|---|---|"]
    for k in TABLE:
        rows.append(f"| `{k.kind}` | `{k.method}` | {k.asked} | {k.options} | {', '.join(k.rules)} |")
    return "\n".join(rows) + "\n"


BEGIN = "<!-- decisions table: generated by harness.decisions.markdown(); edit the table there -->"
END = "<!-- end of decisions table -->"


#: ``"asked_by"`` of a recorded decision only the reference engine was asked (differential mode):
#: the fallback's answer, recorded after the engine's own decisions of the step so that a replay
#: gives it again, and labelled so that a report never shows it as the engine's choice.
REFERENCE_ONLY = "reference"

Decider.__doc__ = (Decider.__doc__ or "") + "\n    Kinds (:mod:`harness.decisions`):\n\n" + "".join(
    f"    * ``{k.kind}`` ({k.method}): asks {k.asked}; options {k.options}; CR {', '.join(k.rules)}.\n"
    for k in TABLE)
