"""Omnipresent Impostor's names and library searches (capability ``library_search``).

Every ruling of Omnipresent Impostor (rulings 2024-11-08, seed page 002) is one invariant
here. What an object is and what a card does are worked out from the card data
(:mod:`cards`) and the observation before the event, never from the engine's account of
it: an object has all card names when the card of its observed (printed or copied) name
says "has all card names" (:attr:`cards.Card.has_all_card_names`); a card searches a
library when its Oracle text says "Search your library for ..." (a spell: Explosive
Vegetation; an activated ability: Sakura-Tribe Elder) or "When ... enters, you may
search your library for ..." (Goblin Engineer), and where the cards found go is read from
the same sentence ("onto the battlefield tapped", "into your graveyard"); Bile Blight's
"Target creature and all other creatures with the same name as that creature get -N/-N
until end of turn" is the name check (CR 201.2a). Search decisions are those of kind
``"search"`` (``harness.protocol``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import cast

import cards as card_data
from harness.protocol import ALL_NAMES

from harness import decisions as D
from .base import Transition, invariant
from .on_change import IdsWhere, Sound

LIBRARY_SEARCH = frozenset({"library_search"})
#: Basic land types: each gives an intrinsic mana ability numbered before the printed ones (CR 305.6).
BASIC_LAND_TYPES = frozenset({"Plains", "Island", "Swamp", "Mountain", "Forest"})

CDA = "Omnipresent Impostor 2024-11-08: Omnipresent Impostor's second ability is a characteristic-defining"
BASIC = "Omnipresent Impostor 2024-11-08: Omnipresent Impostor has the basic supertype"
NAMES = "Omnipresent Impostor 2024-11-08: Omnipresent Impostor has the names of all cards"
SEARCH = "Omnipresent Impostor 2024-11-08: Each time you search your deck"

_SEARCH_SENTENCE = re.compile(r"[Ss]earch your library for (?P<what>[^,.]+?)(?:,| and) (?P<rest>[^.]*)")
_SAME_NAME = re.compile(r"^Target creature and all other creatures with the same name as that creature get "
                        r"(?P<p>[+-]\d+)/(?P<t>[+-]\d+) until end of turn\.$")
_ENTERS_SEARCH = re.compile(r"^When [^,]+ enters(?: the battlefield)?, you may search your library", re.M)


def card_of(name) -> card_data.Card | None:
    """The card of the pool named ``name``, or None (a token an effect defines, an unknown name)."""
    try:
        return card_data.card(name) if isinstance(name, str) else None
    except card_data.UnknownCardName:
        return None


@lru_cache(maxsize=1)
def _with_all_names() -> frozenset[str]:
    """The names of the pool's cards whose text gives them every card name."""
    return frozenset(name for name, card in card_data.pool().items() if card.has_all_card_names)


@lru_cache(maxsize=1)
def _basic_names() -> frozenset[str]:
    """The names of the pool's cards with the basic supertype (CR 205.4a)."""
    return frozenset(name for name, card in card_data.pool().items() if "Basic" in card.supertypes)


def has_all_names(obj: dict) -> bool:
    """Whether the observed object has every card name: the card of its name says so."""
    name = obj.get("name")
    return isinstance(name, str) and name in _with_all_names()


def names_of(obj: dict) -> frozenset[str | None]:
    """The names the object has (CR 201.2): every card name of the pool (never a token's)
    for an object with all names, else its name."""
    return card_data.card_names() if has_all_names(obj) else frozenset({obj.get("name")})


def same_name(a: dict, b: dict) -> bool:
    """CR 201.2a: at least one name in common."""
    return bool(names_of(a) & names_of(b))


@dataclass(frozen=True)
class Search:
    """A search of ``player``'s library the event performs: ``by`` is the card, ``destination``
    where the cards found go (``"battlefield tapped"``, ``"graveyard"`` or None if unread)."""

    player: str
    by: str
    destination: str | None


def _destination(text: str) -> str | None:
    match = _SEARCH_SENTENCE.search(text)
    rest = match.group("rest") if match else ""
    if "onto the battlefield tapped" in rest:
        return "battlefield tapped"
    if "into your graveyard" in rest:
        return "graveyard"
    return None


def _activated_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if re.match(r"^[^\"(]+?: \S", line)]


def _searched_by_a_spell(event: dict, objs: dict) -> list[Search]:
    """A cast spell whose text begins "Search your library for ..." (Explosive Vegetation)."""
    card = card_of(event.get("card"))
    if card is not None and _SEARCH_SENTENCE.match(card.oracle_text):
        return [Search(cast(str, event.get("controller")), card.name, _destination(card.oracle_text))]
    return []


def _searched_by_an_ability(event: dict, objs: dict) -> list[Search]:
    """An activated ability "...: Search your library for ..." of a permanent (Sakura-Tribe Elder), its index
    counted after the intrinsic mana abilities of its basic land types (CR 305.6)."""
    obj = objs.get(event.get("object")) if isinstance(event.get("object"), str) else None
    card = card_of(obj.get("name")) if obj and obj.get("zone") == "battlefield" else None
    if obj is None or card is None:
        return []
    index = event.get("ability")
    lines = _activated_lines(card.oracle_text)
    if isinstance(index, int) and not isinstance(index, bool):
        index -= sum(1 for t in card.subtypes if t in BASIC_LAND_TYPES)
    if isinstance(index, int) and 0 <= index < len(lines) and ": Search your library" in lines[index]:
        return [Search(obj["controller"], card.name, _destination(lines[index]))]
    return []


def _searched_when_it_enters(event: dict, objs: dict) -> list[Search]:
    """A card (or a copy of one) put onto the battlefield whose "When ... enters, you may search your
    library" triggers (Goblin Engineer)."""
    copied = objs.get(event.get("copy_of")) if isinstance(event.get("copy_of"), str) else None
    card = card_of(copied.get("name") if copied else event.get("card"))
    if card is not None and _ENTERS_SEARCH.search(card.oracle_text):
        return [Search(cast(str, event.get("controller")), card.name, _destination(card.oracle_text))]
    return []


#: The events that may search a library, each with how its card says so.
_SEARCHERS = {"cast": _searched_by_a_spell, "activate": _searched_by_an_ability,
              "put_onto_battlefield": _searched_when_it_enters}
#: The event types :func:`searches` finds library searches of (for any other: none).
SEARCHING_EVENTS = tuple(_SEARCHERS)


def searches(t: Transition) -> list[Search]:
    """The library searches ``t.event`` performs, read from card data (see the module docstring)."""
    kind = t.event.get("type")
    find = _SEARCHERS.get(kind) if isinstance(kind, str) else None
    return find(t.event, t.before.get("objects", {})) if find is not None else []


def _impostors_in_library(obs: dict, player: str) -> list[str]:
    return sorted(oid for oid, o in obs.get("objects", {}).items()
                  if o.get("zone") == "library" and o.get("owner") == player and not o.get("token")
                  and has_all_names(o))


def _named(o: dict) -> bool:
    """Whether :func:`all_names_in_every_zone` is about the object ``o``: its card has all card names, or
    it is observed with ``names``."""
    name = o.get("name")
    return (isinstance(name, str) and name in _with_all_names()) or o.get("names") is not None


def _misnamed(o: dict) -> bool:
    """Whether :func:`all_names_in_every_zone` has something to say of ``o``: it is :func:`_named` but its
    card has not all card names, or it is observed without ``"names": "all"``."""
    name = o.get("name")
    expected = isinstance(name, str) and name in _with_all_names()
    return (expected or o.get("names") is not None) and not (expected and o.get("names") == ALL_NAMES)


#: The objects :func:`all_names_in_every_zone` is about, and those it has something to say of, of the
#: step's observations (kept on change, :mod:`.on_change`: each depends on the object alone).
_NAMED, _MISNAMED = IdsWhere(_named), IdsWhere(_misnamed)


def _search_decisions(t: Transition, player: str) -> list:
    return [d for d in t.decisions if d.kind == D.SEARCH and d.player == player]


# ------------------------------------------------------------------------ invariants
@invariant("impostor.all_names_in_every_zone", rules=("604.3", "201.2", "707.2"), rulings=(CDA, NAMES),
           requires=LIBRARY_SEARCH)
def all_names_in_every_zone(t: Transition):
    """An object with all card names (Omnipresent Impostor, or a copy of it) is observed with
    ``"names": "all"`` in every zone, before and after each event; no other object is.

    Its ability "functions in all zones as well as outside the game" (a characteristic-defining
    ability, CR 604.3; copied with it, CR 707.2); a token's name is no card name.
    """
    named_before, named = _NAMED.pair(t.before, t.after)  # a first pass without messages, on change only
    applies = bool(named_before or named)
    if not applies:
        return None  # nothing named: nothing misnamed either (a misnamed object is named)
    if not any(_MISNAMED.pair(t.before, t.after)):
        return [] if applies else None
    messages: list[str] = []
    for when, obs in (("before", t.before), ("after", t.after)):
        for oid, o in sorted(obs.get("objects", {}).items()):
            expected = has_all_names(o)
            observed = o.get("names")
            applies = applies or expected or observed is not None
            if observed not in (None, ALL_NAMES):
                messages.append(f"{oid} ({o.get('name')}) {when}: names is {observed!r}, expected absent or "
                                f"{ALL_NAMES!r}")
            elif expected and observed != ALL_NAMES:
                messages.append(f"{oid} ({o.get('name')}) in the {o.get('zone')} {when} the event has all card "
                                f"names (its characteristic-defining ability works in every zone) but is observed "
                                f"without \"names\": \"all\"")
            elif observed == ALL_NAMES and not expected:
                messages.append(f"{oid} ({o.get('name')}) in the {o.get('zone')} {when} the event is observed with "
                                f"all card names, but its card has no such ability")
    return messages if applies else None


@invariant("impostor.basic_supertype", rules=("205.4a", "604.3"), rulings=(BASIC,), requires=LIBRARY_SEARCH)
def basic_supertype(t: Transition):
    """An object whose card has the basic supertype (Omnipresent Impostor, the basic lands)
    is observed with it in every zone (CR 205.4a; no effect of the pool removes a supertype)."""
    basic_names = _basic_names()
    _, basics = _BASICS.pair(t.before, t.after)
    objects = _basic_sound.since(t.before, t.after)  # on change only: the messages are sorted
    messages = []
    for oid, o in (t.after.get("objects", {}) if objects is None else objects).items():
        name = o.get("name")
        if isinstance(name, str) and name in basic_names and "Basic" not in (o.get("supertypes") or ()):
            messages.append(f"{oid} ({o.get('name')}) in the {o.get('zone')} has the basic supertype, observed "
                            f"supertypes {o.get('supertypes')!r}")
    _basic_sound.keep(t.after, messages)
    return sorted(messages) if basics else None


def _basic(o: dict) -> bool:
    name = o.get("name")
    return isinstance(name, str) and name in _basic_names()


#: The objects whose card has the basic supertype, of the step's observations (kept on change), and the
#: last observation :func:`basic_supertype` found sound.
_BASICS, _basic_sound = IdsWhere(_basic), Sound()


@invariant("impostor.same_name", rules=("201.2a", "613.4c"), rulings=(NAMES,), requires=LIBRARY_SEARCH, on=("cast",))
def same_name_check(t: Transition):
    """Bile Blight gives -3/-3 to its target and to every other creature with the same name
    (at least one name in common, CR 201.2a), and to no other: an object with all card names
    shares a name with every card's name and with no token's name (Soldier Token, Thopter
    Token: "it doesn't have the names of tokens").

    Each creature on the battlefield before the event that is still there after, with the same
    Auras and counters (umbra armor may have destroyed an Aura that gave it +N/+N), has its
    power and toughness lowered by 3 if it shares a name with the target, else unchanged;
    one that shares no name doesn't leave the battlefield.
    """
    event = t.event
    card = card_of(event.get("card")) if event.get("type") == "cast" else None
    match = _SAME_NAME.match(card.oracle_text) if card is not None else None
    targets = event.get("targets") or []
    if match is None or t.illegal is not None or len(targets) != 1:
        return None
    before = t.before["objects"]
    target = before.get(targets[0]) if isinstance(targets[0], str) else None
    if target is None or target.get("zone") != "battlefield" or "Creature" not in target.get("types", ()):
        return None
    dp, dt = int(match.group("p")), int(match.group("t"))
    messages = []
    for oid, o in sorted(before.items()):
        if o.get("zone") != "battlefield" or "Creature" not in o.get("types", ()):
            continue
        messages += _blighted(t, oid, o, targets[0], target, dp, dt)
    return messages


def _blighted(t: Transition, oid: str, o: dict, target_id: str, target: dict, dp: int, dt: int) -> list[str]:
    """Creature ``oid`` (``o`` before the event) got -N/-N if it is the target or shares a name with it
    (CR 201.2a), else is unchanged and still on the battlefield."""
    affected = oid == target_id or same_name(o, target)
    now = t.after["objects"].get(oid)
    why = ("is the target" if oid == target_id else
           f"shares a name with {target_id} ({target.get('name')})" if affected else
           f"shares no name with {target_id} ({target.get('name')})")
    if now is None or now.get("zone") != "battlefield":
        return [] if affected else [f"{oid} ({o.get('name')}) {why} but left the battlefield"]
    if _attached(t.before, oid) != _attached(t.after, oid) or o.get("counters") != now.get("counters"):
        return []  # umbra armor destroyed an Aura, counters changed: its P/T changed for other reasons too
    expected = (o["power"] + dp, o["toughness"] + dt) if affected else (o["power"], o["toughness"])
    if (now.get("power"), now.get("toughness")) != expected:
        return [f"{oid} ({o.get('name')}) {why}: expected {expected[0]}/{expected[1]}, observed "
                f"{now.get('power')}/{now.get('toughness')}"]
    return []


def _attached(obs: dict, oid: str) -> list[str]:
    return sorted(a for a, o in obs["objects"].items() if o.get("attached_to") == oid and o.get("zone") == "battlefield")


@invariant("search.impostor_may_be_found", refused=False, rules=("201.2",), rulings=(SEARCH,), requires=LIBRARY_SEARCH,
           on=SEARCHING_EVENTS)
def impostor_may_be_found(t: Transition):
    """Each time a player searches their library for one or more cards, every Omnipresent
    Impostor in that library may be found in place of any one of them, several Impostors for
    several cards: each ``search`` decision offers every Impostor of the library not found yet,
    whatever the search asks for (a basic land card, an artifact card), and offers only cards
    of that library.

    The searches an event performs are read from card data (:func:`searches`); with an
    Impostor in the library, the player is asked at least once.
    """
    if t.illegal is not None:
        return None
    found = searches(t)
    if not found:
        return None
    messages = []
    for search in found:
        library = [oid for oid, o in t.before["objects"].items()
                   if o.get("zone") == "library" and o.get("owner") == search.player and not o.get("token")]
        impostors = _impostors_in_library(t.before, search.player)
        decisions = _search_decisions(t, search.player)
        if impostors and not decisions:
            messages.append(f"{search.by}: {search.player} searched a library holding {', '.join(impostors)} "
                            f"(Omnipresent Impostor) without being asked what to find")
        chosen: set = set()
        for d in decisions:
            offered = set(d.options) - {D.NOTHING}
            missing = [oid for oid in impostors if oid not in offered and oid not in chosen]
            if missing:
                messages.append(f"{search.by}: the search decision {list(d.options)} doesn't offer "
                                f"{', '.join(missing)} (Omnipresent Impostor, found in place of any card)")
            strangers = sorted(offered - set(library))
            if strangers:
                messages.append(f"{search.by}: the search decision offers {', '.join(strangers)}, not cards of "
                                f"{search.player}'s library")
            chosen.add(d.answer)
    return messages


def _went_on(search: Search, oid, name, now: dict) -> list[str]:
    """The card found (``now`` after the event) went where the search puts it: into the graveyard, or onto
    the battlefield tapped under the searcher's control."""
    if search.destination == "graveyard":
        if now.get("zone") != "graveyard":
            return [f"{search.by}: {oid} ({name}) was found and goes into the graveyard, "
                    + (f"observed in the {now['zone']}" if now.get("zone") else "but is no longer observed")]
    elif now.get("zone") != "battlefield" or now.get("tapped") is not True \
            or now.get("controller") != search.player:
        return [f"{search.by}: {oid} ({name}) was found and enters the battlefield tapped under "
                f"{search.player}'s control, "
                + (f"observed zone {now.get('zone')}, tapped {now.get('tapped')}, controller "
                   f"{now.get('controller')}" if now else "but is no longer observed")]
    return []


@invariant("search.found_card_goes_on", refused=False, rules=("201.2",), rulings=(SEARCH,), requires=LIBRARY_SEARCH,
           on=SEARCHING_EVENTS)
def found_card_goes_on(t: Transition):
    """The search goes on with each card found, an Omnipresent Impostor in place of another
    card included: Sakura-Tribe Elder and Explosive Vegetation put it onto the battlefield
    tapped under the searcher's control, Goblin Engineer puts it into its owner's graveyard;
    cards not found stay in the library.
    """
    if t.illegal is not None:
        return None
    found = [s for s in searches(t) if s.destination is not None]
    if len({(s.player, s.destination) for s in found}) != 1:
        return None
    search = found[0]
    answers = [d.answer for d in _search_decisions(t, search.player) if d.answer != D.NOTHING]
    messages = []
    after = t.after["objects"]
    for oid in answers:
        now = after.get(oid) or {}
        name = now.get("name") or (t.before["objects"].get(oid) or {}).get("name") if isinstance(oid, str) else None
        messages += _went_on(search, oid, name, now)
    for oid in _impostors_in_library(t.before, search.player):
        if oid not in answers and (after.get(oid) or {}).get("zone") != "library":
            messages.append(f"{search.by}: {oid} (Omnipresent Impostor) was not found but left the library")
    return messages
