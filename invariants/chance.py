"""Coins and dice (CR 705, 706) and the effects that replace or watch them.

Read from the log's ``coin_flip`` and ``die_roll`` entries (shapes in
``harness.protocol``), the decisions asked during the event, and the permanents each
player controlled before it: Krark's Thumb ("If you would flip a coin, instead flip two
coins and ignore one"), Pixie Guide ("If you would roll one or more dice, instead roll that
many dice plus one and ignore the lowest roll"), Pokey, the Scallywagg (its rulings
2024-11-08), Tavern Scoundrel ("Whenever you win a coin flip, create two Treasure
tokens") and Brazen Dwarf ("Whenever you roll one or more dice, this creature deals 1
damage to each opponent").

A permanent with the continuous supertype has no abilities while it is tapped (Orb of
Origin ruling), so it is not counted then.
"""

from __future__ import annotations

from collections import Counter
from typing import cast

from harness import decisions as D
from .base import Decision, Transition, invariant

CHANCE = frozenset({"chance"})
THUMB, PIXIE, POKEY = "Krark's Thumb", "Pixie Guide", "Pokey, the Scallywagg"
SCOUNDREL, DWARF = "Tavern Scoundrel", "Brazen Dwarf"

#: The replacement effects on flips and rolls, as ``replacement`` log entries name them.
REPLACEMENT_EFFECTS = ("Krark's Thumb", "Pixie Guide", "Pokey: roll a d20 instead", "Pokey: flip a coin instead")

POKEY_FLIP = "Pokey, the Scallywagg 2024-11-08: Each time a spell or ability instructs you to flip"
POKEY_ROLL = "Pokey, the Scallywagg 2024-11-08: Each time a spell or ability instructs you to roll a d20"
POKEY_SEES_ROLL = "Pokey, the Scallywagg 2024-11-08: If you apply Pokey's second ability"
POKEY_SEES_FLIP = "Pokey, the Scallywagg 2024-11-08: If you apply Pokey's third ability"
POKEY_BOTH = "Pokey, the Scallywagg 2024-11-08: If you really want to"


def has_abilities(o: dict) -> bool:
    """Whether an observed permanent has its abilities: not while tapped with the
    continuous supertype (Orb of Origin ruling: "no abilities as long as it's tapped")."""
    return not (o.get("tapped") and "Continuous" in (o.get("supertypes") or ()))


def controlled(t: Transition, player: str, name: str) -> list[str]:
    """Ids of permanents named ``name`` that ``player`` controlled, with their abilities, when
    the event's first coin was flipped or die rolled: those on the battlefield before the
    event, less those that left it earlier in the event (a cost paid, CR 601.2h)."""
    gone = set()
    for e in t.log:
        if e.get("kind") in ("coin_flip", "die_roll"):
            break
        if e.get("kind") == "zone_change" and e.get("from") == "battlefield":
            gone.add(e.get("object"))
    return sorted(oid for oid, o in t.before["objects"].items()
                  if o["zone"] == "battlefield" and o["controller"] == player and o["name"] == name
                  and has_abilities(o) and oid not in gone)


#: The log entry kinds of a coin flip and a die roll.
CHANCE_KINDS = ("coin_flip", "die_roll")


def chance_entries(log: list[dict]) -> list[dict]:
    return [e for e in log if e.get("kind") in CHANCE_KINDS]


def instructions(log: list[dict]) -> dict[tuple, list[dict]]:
    """``coin_flip``/``die_roll`` entries grouped by (player, instruction), in log order."""
    groups: dict[tuple, list[dict]] = {}
    for e in chance_entries(log):
        groups.setdefault((e.get("player"), e.get("instruction")), []).append(e)
    return groups


def happened(entries: list[dict]) -> list[dict]:
    """The coins and dice actually flipped or rolled (not replaced)."""
    return [e for e in entries if e.get("replaced") is None]


def instructed_players(event: dict) -> list:
    """The players an event instructs to flip or roll: its ``players`` (capability
    ``chance.players``: each of them, in order), or its one ``player``."""
    players = event.get("players")
    return list(players) if isinstance(players, list) and players else [event.get("player")]


def _applies(t: Transition) -> bool:
    return t.illegal is None and bool(chance_entries(t.log))


def _seen(entry_or_group) -> object:
    """What the next link of a chain shows: a replaced entry's result, or the result of the
    actual coin kept / the first die not ignored."""
    if isinstance(entry_or_group, dict):
        return entry_or_group.get("result")
    kept = [e for e in entry_or_group if not e.get("ignored")]
    return kept[0].get("result") if kept else None


def _logged_as_answered(t: Transition) -> list[str]:
    """The coins and dice actually flipped and rolled are, in order, the decider's ``coin_flip`` and
    ``dN`` answers, asked of the player flipping or rolling (CR 705.1, 706.1a)."""
    out = []
    coins = [(e.get("player"), e.get("result")) for e in happened(chance_entries(t.log)) if e["kind"] == "coin_flip"]
    flips = [(d.player, d.answer) for d in t.decisions if d.kind == D.COIN_FLIP]
    if coins != flips:
        out.append(f"coins in the log {coins} are not the decider's flips {flips}")
    dice = [(e.get("player"), f"d{e.get('sides')}", e.get("natural"))
            for e in happened(chance_entries(t.log)) if e["kind"] == "die_roll"]
    rolls = [(d.player, d.kind, d.answer) for d in t.decisions if d.kind[:1] == "d" and d.kind[1:].isdigit()]
    if dice != rolls:
        out.append(f"dice in the log {dice} are not the decider's rolls {rolls}")
    return out


@invariant("chance.through_the_decider", rules=("705.1", "706.1a", "706.2"), requires=CHANCE)
def through_the_decider(t: Transition):
    """Every coin flipped and every die rolled is the decider's answer, asked of the player flipping or rolling.

    The coins actually flipped (ignored ones included, replaced flips excluded) are, in
    order, the answers to the ``coin_flip`` questions; the dice, to the ``dN``
    questions; nothing else was flipped or rolled.
    """
    if (t.illegal is not None or not chance_entries(t.log)) and (  # not _applies(t), nor a flip or roll asked
            not t.decisions or not any(d.kind == D.COIN_FLIP or d.kind.startswith("d") and d.kind[1:].isdigit()
                                       for d in t.decisions)):
        return None
    out = _logged_as_answered(t)
    for e in happened(chance_entries(t.log)):
        if e["kind"] == "die_roll" and e.get("result") != e.get("natural"):
            out.append(f"die roll {e}: no modifier applies, so its result is its natural result (CR 706.2)")
    return out


def _instructions_of_each(players: list, groups: dict[tuple, list[dict]], expected: list[int]) -> list[str]:
    """Each instructed player's instructions are ``expected`` (CR 705.2, 706.1)."""
    out = []
    for player in players:
        mine = sorted(i for p, i in groups if p == player)
        if mine != expected:
            out.append(f"{player}'s instructions {mine} in the log; expected {expected}"
                       + (f" (each of {players} flips or rolls)" if len(players) > 1 else ""))
    return out


def _replacement_chain(i, entries: list[dict], first: str) -> list[str]:
    """One instruction's entries: the flips and rolls replaced, alternating in kind from ``first``, then
    what actually happened, of one kind (CR 614.6); a flip replaced by Pokey is a d20 roll."""
    out = []
    replaced = [e for e in entries if e.get("replaced") is not None]
    actual = happened(entries)
    if entries[:len(replaced)] != replaced:
        out.append(f"instruction {i}: replaced flips or rolls must come before what happened: {entries}")
    want = first
    for e in replaced:
        other = "die_roll" if want == "coin_flip" else "coin_flip"
        if e["kind"] != want or e["replaced"] != other:
            out.append(f"instruction {i}: expected a {want} replaced by a {other}, got {e}")
        want = other
    if not actual or any(e["kind"] != want for e in actual):
        out.append(f"instruction {i}: what happened must be {want} entries, got {actual}")
    if want == "die_roll" and replaced and any(e.get("sides") != 20 for e in actual):
        out.append(f"instruction {i}: a flip replaced by Pokey is replaced by a d20 roll, got {actual}")
    return out


@invariant("chance.instructions_carried_out", refused=False, rules=("705.1", "706.1", "614.6"), requires=CHANCE,
           on=("flip_coins", "roll_dice"))
def instructions_carried_out(t: Transition):
    """An instruction to flip N coins is N flips (instructions 1..N); to roll dice, one roll (instruction 1).

    With ``players`` (capability ``chance.players``) each of them flips N coins (their
    instructions 1..N) or makes one roll, and nobody else flips or rolls (CR 705.2, 706.1).
    Each instruction shows the events that replaced one another, then what actually
    happened: a replaced flip became a d20 roll and a replaced d20 roll became a flip
    (CR 614.6: the replaced event never happens), so their kinds alternate, starting from
    what the effect instructed, and what actually happened is of one kind only.
    """
    kind = t.event.get("type")
    if t.illegal is not None or kind not in ("flip_coins", "roll_dice"):
        return None
    players = instructed_players(t.event)
    groups = instructions(t.log)
    if any(p not in players for p, _ in groups):
        return [f"flips or rolls by {sorted({str(p) for p, _ in groups} - set(map(str, players)))} in an event "
                f"instructing {players}"]
    if any(p.get("lost") for p in t.after["players"].values()) and not groups:
        return None
    expected = list(range(1, t.event.get("count", 0) + 1)) if kind == "flip_coins" else [1]
    out = _instructions_of_each(players, groups, expected)
    first = "coin_flip" if kind == "flip_coins" else "die_roll"
    for (_, i), entries in groups.items():
        out += _replacement_chain(i, entries, first)
    return out


def _coin_won(e: dict) -> list[str]:
    """A coin is won exactly when its call matches its result (CR 705.2); an ignored one by nobody (706.6)."""
    if e.get("ignored"):
        return [f"ignored coin {e} was won or lost: it never happened (CR 706.6)"] if e.get("won") is not None else []
    call = e.get("call")
    want = None if call is None or e.get("result") is None else e.get("result") == call
    if e.get("won") != want:
        return [f"coin {e}: call {call!r}, result {e.get('result')!r}, so won must be {want}"]
    return []


def _instruction_call(t: Transition, flipper, i, original: dict, made: Counter) -> list[str]:
    """The instructed flip ``original`` has a call exactly when the effect has a winner (``calls``), the
    flipper's, as asked (decider kind coin_call); uses up the call asked in ``made``."""
    out = []
    if t.event.get("calls") and original.get("call") not in COIN_SIDES:
        out.append(f"instruction {i}: the effect has a winner, so {t.event.get('player')} calls; "
                   f"the log shows call {original.get('call')!r}")
    if not t.event.get("calls") and original.get("call") is not None:
        out.append(f"instruction {i}: the effect cares only about heads or tails, yet the call is "
                   f"{original.get('call')!r}")
    if original.get("call") in COIN_SIDES:
        if made[(flipper, original["call"])] <= 0 and not D.unknown_asked(t.decisions):
            out.append(f"instruction {i}: call {original['call']!r} was not asked of {flipper}, who flips "
                       f"(decider kind coin_call)")
        made[(flipper, original["call"])] -= 1
    return out


def _calls_asked(t: Transition, calls: list[Decision]) -> list[str]:
    """Each instructed flip's call (:func:`_instruction_call`), a replaced one's as the original effect sees it."""
    out = []
    made = Counter((d.player, d.answer) for d in calls)
    for (flipper, i), entries in instructions(t.log).items():
        kept = [e for e in entries if not e.get("ignored")]
        original = kept[0] if kept else entries[0]  # the instructed flip, replaced or not
        if original["kind"] == "coin_flip":
            out += _instruction_call(t, flipper, i, original, made)
    return out


@invariant("chance.calls_and_wins", rules=("705.2",), rulings=(POKEY_FLIP,), requires=CHANCE, on_log=CHANCE_KINDS)
def calls_and_wins(t: Transition):
    """The player who flips calls (when the effect has a winner) and wins when the call matches the result.

    Only the player who flips wins or loses (705.2); an effect that cares only about heads
    or tails has no call and no winner; an ignored coin is won by nobody (706.6). A flip
    replaced by a d20 roll is won or lost as the original effect sees it (Pokey ruling).
    """
    if not _applies(t):
        return None
    out = []
    calls = [d for d in t.decisions if d.kind == D.COIN_CALL]
    flippers = instructed_players(t.event)  # a die roll replaced by a flip (Pokey) is flipped by its roller
    for d in calls:
        if t.event.get("player") is not None and d.player not in flippers:
            out.append(f"{d.player} called a coin {' or '.join(map(str, flippers))} flips")
    for e in chance_entries(t.log):
        if e["kind"] == "coin_flip":
            out += _coin_won(e)
    if t.event.get("type") == "flip_coins":
        out += _calls_asked(t, calls)
    return out


COIN_SIDES = (D.HEADS, D.TAILS)


def _kept_coin(t: Transition, player, i, coins: list[dict], kept: list[tuple]) -> list[str]:
    """Of two coins showing different results, the one ``player`` chose to keep (decider kind
    ``coin_kept``, the next answer in ``kept``) is kept (Krark's Thumb: "ignore one")."""
    asked, chosen = kept.pop(0) if kept else (None, None)
    keep = next(c for c in coins if not c.get("ignored"))
    if chosen is None:
        if not D.unknown_asked(t.decisions):  # else asked under a kind the table does not know
            return [f"{player} was not asked which coin to keep (instruction {i})"]
    elif asked != player:
        return [f"{asked} was asked which of {player}'s coins to keep (instruction {i}); the Thumb's "
                f"controller, who flips, chooses"]
    elif keep["result"] != chosen:
        return [f"{player} chose to keep {chosen}, but the coin kept shows {keep['result']}"]
    return []


def _thumb_coins(t: Transition, player, i, coins: list[dict], kept: list[tuple]) -> list[str]:
    """One instruction's coins actually flipped by ``player``: one, not ignored, without a Krark's Thumb;
    two, one ignored, with one (CR 614.1a, 706.6)."""
    thumbs = controlled(t, player, THUMB)
    if not thumbs:
        if len(coins) != 1 or coins[0].get("ignored"):
            return [f"{player} controls no Krark's Thumb but flipped {len(coins)} coin(s) for instruction {i}, "
                    f"{sum(bool(c.get('ignored')) for c in coins)} ignored"]
        return []
    if len(coins) != 2 or sum(bool(c.get("ignored")) for c in coins) != 1:
        return [f"{player} controls Krark's Thumb {thumbs[0]}: instruction {i} must be two coins, one ignored; "
                f"got {[(c.get('result'), c.get('ignored')) for c in coins]}"]
    if coins[0]["result"] != coins[1]["result"]:
        return _kept_coin(t, player, i, coins, kept)
    return []


@invariant("chance.krarks_thumb", rules=("614.1a", "706.6"), requires=CHANCE, on_log=CHANCE_KINDS)
def krarks_thumb(t: Transition):
    """Krark's Thumb: its controller's coin flips are two coins, one ignored; nobody else's are.

    "If you would flip a coin, instead flip two coins and ignore one": a coin actually
    flipped by a player who controls a Krark's Thumb (it is legendary: at most one) is
    two coins with exactly one ignored, the one the player chose to keep (decider kind
    ``coin_kept``, asked of that player) kept; any other player flips one coin, not ignored. When
    several players flip in one event (``players``), each player's Thumb applies to their own
    flips only.
    """
    if not _applies(t):
        return None
    out = []
    kept = [(d.player, d.answer) for d in t.decisions if d.kind == D.COIN_KEPT]
    for (player, i), entries in instructions(t.log).items():
        coins = [e for e in happened(entries) if e["kind"] == "coin_flip"]
        if coins:
            out += _thumb_coins(t, player, i, coins, kept)
    return out


def _instructed_dice(t: Transition, entries: list[dict]) -> tuple[int, int]:
    """How many dice of how many sides an instruction rolls: one d20 where it replaced a flip (Pokey
    ruling), else the event's ``count`` and ``sides`` (required for ``roll_dice`` by the schema)."""
    if any(e.get("replaced") for e in entries) or t.event.get("type") != "roll_dice":
        return 1, 20
    return cast(int, t.event.get("count")), cast(int, t.event.get("sides"))


def _pixie_roll(player, i, dice: list[dict], count: int, sides: int, k: int) -> list[str]:
    """A roll of ``count`` d``sides`` by a player controlling ``k`` Pixie Guides: ``count + k`` dice,
    the ``k`` lowest ignored (CR 614.1a, 706.6)."""
    out = []
    ignored = [e for e in dice if e.get("ignored")]
    kept = [e for e in dice if not e.get("ignored")]
    if len(dice) != count + k or len(ignored) != k:
        out.append(f"{player} controls {k} Pixie Guide(s): instruction {i} to roll {count} d{sides} must roll "
                   f"{count + k} and ignore {k}; rolled {len(dice)}, ignored {len(ignored)}")
    elif ignored and kept and max(e["natural"] for e in ignored) > min(e["natural"] for e in kept):
        out.append(f"instruction {i}: ignored {[e['natural'] for e in ignored]} but kept "
                   f"{[e['natural'] for e in kept]}: the lowest are ignored")
    if any(e.get("sides") != sides for e in dice):
        out.append(f"instruction {i}: dice must be d{sides}, got {[e.get('sides') for e in dice]}")
    return out


@invariant("chance.pixie_guide", rules=("614.1a", "706.6"), rulings=(POKEY_SEES_ROLL,), requires=CHANCE,
           on_log=CHANCE_KINDS)
def pixie_guide(t: Transition):
    """Pixie Guide: its controller rolls one more die per Pixie Guide and ignores that many of the lowest.

    "If you would roll one or more dice, instead roll that many dice plus one and ignore
    the lowest roll": a roll by a player controlling k Pixie Guides is the dice
    instructed plus k, the k lowest ignored (CR 706.6: an ignored roll never happened).
    A d20 roll that replaced a flip is a roll of one d20, so Pixie Guide applies to it
    (Pokey ruling).
    """
    if not _applies(t):
        return None
    out = []
    guides: dict = {}  # each player's Pixie Guides, for all their rolls of the event
    for (player, i), entries in instructions(t.log).items():
        dice = [e for e in happened(entries) if e["kind"] == "die_roll"]
        if dice:
            count, sides = _instructed_dice(t, entries)
            if player not in guides:
                guides[player] = len(controlled(t, player, PIXIE))
            out += _pixie_roll(player, i, dice, count, sides, guides[player])
    return out


def _d20_as_coin(value):
    return "tails" if isinstance(value, int) and 1 <= value <= 10 else \
        "heads" if isinstance(value, int) and 11 <= value <= 20 else None


def _coin_as_d20(result):
    return 20 if result == "heads" else 1 if result == "tails" else None


@invariant("chance.pokey", rules=("614.1a", "614.5", "616.1"),
           rulings=(POKEY_FLIP, POKEY_ROLL, POKEY_BOTH), requires=CHANCE, on_log=CHANCE_KINDS)
def pokey(t: Transition):
    """Pokey: a flip may become a d20 roll (1-10 tails, 11-20 heads), a d20 roll a flip (heads 20, tails 1), once each.

    Only for a player controlling Pokey, and only if that player chose it (decider kind
    ``replacement_effect``: it is optional); each Pokey's second and third ability
    applies at most once to one instruction (CR 614.5: "the nonsense stops there"); the
    original effect sees the mapped result of what replaced it.
    """
    if not _applies(t):
        return None
    out = []
    chosen = [d for d in t.decisions if d.kind == D.REPLACEMENT_EFFECT and str(d.answer).startswith("Pokey:")]
    replaced_total = 0
    for (player, i), entries in instructions(t.log).items():
        replaced = [e for e in entries if e.get("replaced") is not None]
        if not replaced:
            continue
        replaced_total += len(replaced)
        pokeys = controlled(t, player, POKEY)
        flips = sum(e["kind"] == "coin_flip" for e in replaced)
        rolls = len(replaced) - flips
        if flips > len(pokeys) or rolls > len(pokeys):
            out.append(f"{player} controls {len(pokeys)} Pokey: instruction {i} had {flips} flip(s) replaced by a "
                       f"roll and {rolls} roll(s) by a flip; each ability applies once (CR 614.5)")
        chain: list = replaced + [happened(entries)]
        for link, following in zip(replaced, chain[1:]):
            seen = _seen(following)
            want = _d20_as_coin(seen) if link["kind"] == "coin_flip" else _coin_as_d20(seen)
            if link.get("result") != want:
                out.append(f"instruction {i}: the {link['kind']} replaced by a {link['replaced']} showing {seen!r} "
                           f"must be seen as {want!r}, the log says {link.get('result')!r}")
        for link in replaced:
            if link["kind"] == "die_roll" and link.get("sides") != 20:
                out.append(f"instruction {i}: only a d20 roll can become a flip, got {link}")
    if replaced_total != len(chosen):
        out.append(f"{replaced_total} flip(s) or roll(s) replaced by Pokey, but the player chose Pokey "
                   f"{len(chosen)} time(s) (it is optional: \"you may\")")
    return out


def _triggers(log: list[dict], ability: str) -> Counter:
    return Counter(e.get("source") for e in log if e.get("kind") == "trigger" and e.get("ability") == ability)


def _won_and_rolled(groups: dict[tuple, list[dict]], player) -> tuple[int, int]:
    """The coin flips ``player`` won (kept coins only, CR 706.6) and the rolls they made, however many dice."""
    won = sum(1 for (p, _), entries in groups.items() if p == player
              for e in happened(entries) if e["kind"] == "coin_flip" and not e.get("ignored") and e.get("won"))
    rolls = sum(1 for (p, _), entries in groups.items() if p == player
                and any(e["kind"] == "die_roll" for e in happened(entries)))
    return won, rolls


def _watchers_triggered(t: Transition, player, groups: dict[tuple, list[dict]], scoundrels: Counter,
                        dwarves: Counter) -> list[str]:
    """``player``'s Tavern Scoundrels trigger once per coin flip won, Brazen Dwarves once per roll (CR 603.2)."""
    out = []
    won, rolls = _won_and_rolled(groups, player)
    for oid in controlled(t, player, SCOUNDREL):
        if scoundrels.get(oid, 0) != won:
            out.append(f"{player} won {won} coin flip(s): Tavern Scoundrel {oid} must trigger {won} time(s), "
                       f"triggered {scoundrels.get(oid, 0)}")
    for oid in controlled(t, player, DWARF):
        if dwarves.get(oid, 0) != rolls:
            out.append(f"{player} rolled dice {rolls} time(s): Brazen Dwarf {oid} must trigger {rolls} time(s), "
                       f"triggered {dwarves.get(oid, 0)}")
    return out


@invariant("chance.ignored_never_happened", rules=("603.2", "706.6", "614.6"),
           rulings=(POKEY_SEES_ROLL, POKEY_SEES_FLIP), requires=CHANCE | {"triggers"}, on_log=CHANCE_KINDS)
def ignored_never_happened(t: Transition):
    """Tavern Scoundrel triggers once per coin flip its controller wins; Brazen Dwarf once per roll.

    Ignored coins and dice never happened (CR 706.6) and replaced flips and rolls never
    happened (CR 614.6): only coins actually flipped and kept trigger Tavern Scoundrel,
    and only dice actually rolled trigger Brazen Dwarf ("Whenever you roll one or more
    dice": once per roll, however many dice). After Pokey's second ability Brazen Dwarf
    triggers and Tavern Scoundrel doesn't; after its third, the reverse (Pokey rulings).
    """
    if not _applies(t):
        return None
    out = []
    scoundrels, dwarves = _triggers(t.log, "win a coin flip"), _triggers(t.log, "roll one or more dice")
    groups = instructions(t.log)
    players = {p for p, _ in groups}
    for player in players:
        out += _watchers_triggered(t, player, groups, scoundrels, dwarves)
    for source in set(scoundrels) | set(dwarves):
        o = t.before["objects"].get(source)
        if o is None or o["zone"] != "battlefield" or o["controller"] not in players or not has_abilities(o):
            out.append(f"{source} triggered on a coin flip or die roll of no player controlling it")
    return out


def _treasures_created(t: Transition) -> list[str]:
    """Each Tavern Scoundrel trigger creates two Treasure tokens (CR 111.10a)."""
    out = []
    created = Counter(((e.get("cause") or {}).get("by")) for e in t.log if e.get("kind") == "zone_change"
                      and (e.get("cause") or {}).get("event") == "create_token")
    for source, n in _triggers(t.log, "win a coin flip").items():
        treasures = [e["object"] for e in t.log if e.get("kind") == "zone_change"
                     and (e.get("cause") or {}).get("by") == source
                     and (t.after["objects"].get(e["object"]) or {}).get("name") == "Treasure Token"]
        if created.get(source, 0) != 2 * n or len(treasures) != 2 * n:
            out.append(f"Tavern Scoundrel {source} triggered {n} time(s): {2 * n} Treasure tokens, got {treasures}")
    return out


def _dwarf_damage(t: Transition) -> list[str]:
    """Each Brazen Dwarf trigger deals 1 damage to each opponent of its controller (CR 120.3)."""
    out = []
    for source, n in _triggers(t.log, "roll one or more dice").items():
        controller = (t.before["objects"].get(source) or {}).get("controller")
        for opponent in t.before["players"]:
            if opponent == controller:
                continue
            dealt = sum(e.get("amount", 0) for e in t.log if e.get("kind") == "damage" and e.get("source") == source
                        and e.get("target") == opponent)
            if dealt != n:
                out.append(f"Brazen Dwarf {source} triggered {n} time(s): {n} damage to {opponent}, dealt {dealt}")
    return out


@invariant("chance.trigger_effects", rules=("603.2", "111.10a", "120.3"), requires=CHANCE | {"triggers"},
           on_log=CHANCE_KINDS)
def trigger_effects(t: Transition):
    """Each Tavern Scoundrel trigger creates two Treasure tokens; each Brazen Dwarf trigger deals 1 damage to each opponent.

    Checked when no player has lost (the game ends before the rest resolve, CR 104.3).
    """
    if not _applies(t) or any(p.get("lost") for p in t.after["players"].values()):
        return None
    return _treasures_created(t) + _dwarf_damage(t)
