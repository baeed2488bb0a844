"""Game objects, players and continuous effects: the engine's state (CR 109, 102, 611)."""

from __future__ import annotations

from collections import deque
from itertools import islice
from dataclasses import dataclass, field, fields

from .cards import CardDef, CardScript

BATTLEFIELD = "battlefield"
#: Zones an object can be in (CR 400.1). The stack is not modelled: spells resolve at once.
ZONES = ("library", "hand", "battlefield", "graveyard", "exile")
COMBAT_STATUSES = (None, "attacking", "blocking")

#: The version of the game state: every change to it increments ``VERSION[0]``: setting a field
#: of a :class:`GameObject`, :class:`Player` or :class:`PTEffect` to another value, changing a
#: :class:`TrackedDict` (an object's counters, a game's objects and players) or a
#: :class:`TrackedList` (a game's effects) in place, rebinding a game's state
#: (``reference_engine.game.Game.__setattr__``). What is computed from the state alone
#: (characteristics, CR 613) is kept while the version stays the same
#: (:func:`reference_engine.layers.state_cache`). One counter for every game: a change to one
#: game only makes the others compute again. No rules meaning.
VERSION = [0]


_UNSET = object()

#: How many of the last changes to objects :data:`CHANGES` keeps.
CHANGES_KEPT = 1024
#: The objects changed, the last :data:`CHANGES_KEPT` changes in order: each change to an object (a
#: field set to another value, its counters changed in place, a zone change's reset) appends it (so
#: an object can be in it more than once, and objects of every game are). ``CHANGES_MADE[0]`` counts
#: every change appended since the start: the changes after the ``n``-th are the last
#: ``CHANGES_MADE[0] - n`` of it while that is at most :data:`CHANGES_KEPT`. reference_engine.kept
#: finds the objects changed since a state from it, without looking at each. No rules meaning.
CHANGES: deque = deque(maxlen=CHANGES_KEPT)
CHANGES_MADE = [0]
#: Counts every change in place to a :class:`TrackedList` (a game's effects) and to a :class:`PTEffect`'s
#: fields, of every game: while a game's ``effects`` are the same list and the count is the same,
#: its resolved effects are the same (reference_engine.kept compares them field by field only once
#: it moved). No rules meaning.
EFFECT_CHANGES = [0]
#: Counts every object put into a game's objects by id (``ObjectsDict.__setitem__``) and every card
#: set on an object (its ``card`` field), of every game: while it, a game's ``objects`` dict and that
#: dict's count of other changes in place (``ObjectsDict.mutations``) are the same, the cards of the
#: game's objects are the same (:func:`cards_mark`). No rules meaning.
CARDS_CHANGED = [0]
#: The stamp of the next new object (:attr:`GameObject._stamp`): negative, so no change's stamp is one.
_NEW_STAMP = [0]


class TrackedDict(dict):
    """A dict whose changes in place increment :data:`VERSION` (reads are a dict's)."""

    __slots__ = ()

    def _changed(self) -> None:
        VERSION[0] += 1

    def __setitem__(self, key, value):
        dict.__setitem__(self, key, value)
        self._changed()

    def __delitem__(self, key):
        dict.__delitem__(self, key)
        self._changed()

    def __or__(self, other):  # a new dict, not tracked (not a game's state)
        return dict.__or__(self, other)

    def __ior__(self, other):
        dict.update(self, other)
        self._changed()
        return self

    def pop(self, *args):
        self._changed()
        return dict.pop(self, *args)

    def popitem(self):
        self._changed()
        return dict.popitem(self)

    def setdefault(self, key, default=None):
        self._changed()
        return dict.setdefault(self, key, default)

    def update(self, *args, **kwargs):
        dict.update(self, *args, **kwargs)
        self._changed()

    def clear(self):
        dict.clear(self)
        self._changed()


class ObjectsDict(TrackedDict):
    """A game's objects by id: a :class:`TrackedDict` that appends each object put into it by id
    (``objects[oid] = obj``: added, replaced or moved to the end) to :data:`CHANGES`, and counts
    its other changes in place (``mutations``: ``del``, ``pop``, ``update``, ...), so that
    reference_engine.kept finds the objects changed since a state without looking at each."""

    __slots__ = ("mutations",)

    def __init__(self, *args, **kwargs):
        dict.__init__(self, *args, **kwargs)
        self.mutations = 0

    def _changed(self) -> None:
        VERSION[0] += 1
        self.mutations += 1

    def __setitem__(self, key, value):
        dict.__setitem__(self, key, value)
        VERSION[0] += 1
        CHANGES.append(value)
        CHANGES_MADE[0] += 1
        CARDS_CHANGED[0] += 1



def change_mark(objects) -> tuple:
    """Where the change record (:data:`CHANGES`) stands for a game's ``objects`` now, for
    :func:`changed_since`: the count of changes made, the objects' count of changes in place
    (``ObjectsDict.mutations``, None for another dict) and the dict itself."""
    return CHANGES_MADE[0], getattr(objects, "mutations", None), objects


def cards_mark(objects) -> tuple | None:
    """Where :data:`CARDS_CHANGED` stands for a game's ``objects`` now: the count, the dict's count
    of changes in place and the dict; equal marks, the same cards (by id); None for a dict that isn't
    an :class:`ObjectsDict` (its changes are not counted)."""
    mutations = getattr(objects, "mutations", None)
    return None if mutations is None else (CARDS_CHANGED[0], mutations, objects)


def changed_since(objects, mark: tuple) -> dict | None:
    """The objects of ``objects`` (by id) changed or put in by id since ``mark`` (:func:`change_mark`),
    from :data:`CHANGES`; None when that can't be told and every object must be looked at: the dict
    isn't an :class:`ObjectsDict`, was changed in place otherwise (an object removed, ...), is not
    the dict of the mark (the game's ``objects`` rebound: what the new dict holds was never
    recorded), or some of the changes are no longer kept."""
    made, mutations, marked = mark
    count = CHANGES_MADE[0] - made
    if mutations is None or objects is not marked or objects.mutations != mutations or count > len(CHANGES):
        return None
    found = {}
    for o in islice(reversed(CHANGES), count):
        oid = o.id
        if objects.get(oid) is o:
            found[oid] = o
    return found


class Counters(TrackedDict):
    """An object's counters (CR 122): a :class:`TrackedDict` whose changes in place also give
    its ``owner`` (a :class:`GameObject`) a new stamp."""

    __slots__ = ("owner",)

    def __init__(self, items=(), owner=None):
        dict.__init__(self, items)
        self.owner = owner

    def _changed(self) -> None:
        VERSION[0] += 1
        owner = getattr(self, "owner", None)  # unset while copy.deepcopy rebuilds it
        if owner is not None:
            object.__setattr__(owner, "_stamp", VERSION[0])
            CHANGES.append(owner)
            CHANGES_MADE[0] += 1


_new_dict = dict.__new__


def counters_of(owner, items=None) -> Counters:
    """``Counters(items, owner)``, built without a call of ``Counters.__init__``: ``owner``'s
    counters (CR 122), a copy of ``items`` (a dict or pairs)."""
    found = _new_dict(Counters)
    if items:
        dict.update(found, items)
    found.owner = owner
    return found


#: :func:`unwatched` by class.
_UNWATCHED: dict[type, type] = {}


def unwatched(cls: type) -> type:
    """``cls`` (a tracked class of the state: :class:`GameObject`, :class:`PTEffect`) without its
    ``__setattr__``: a subclass adding no field, whose fields are set as plain slots. A new object
    is built as one (it changes no game's state until it is put into one), then given back its
    class: ``object.__setattr__(obj, "__class__", ...)``, allowed between the two (same layout)."""
    found = _UNWATCHED.get(cls)
    if found is None:
        found = _UNWATCHED[cls] = type(f"Unwatched{cls.__name__}", (cls,),
                                       {"__slots__": (), "__setattr__": object.__setattr__})
    return found


class TrackedList(list):
    """A list whose changes in place increment :data:`VERSION` and :data:`EFFECT_CHANGES` (reads are a
    list's)."""

    __slots__ = ()

    def _changed(self) -> None:
        VERSION[0] += 1
        EFFECT_CHANGES[0] += 1

    def __setitem__(self, index, value):
        list.__setitem__(self, index, value)
        self._changed()

    def __delitem__(self, index):
        list.__delitem__(self, index)
        self._changed()

    def __add__(self, other):  # a new list, not tracked (not a game's state)
        return list.__add__(self, other)

    def __iadd__(self, other):
        list.extend(self, other)
        self._changed()
        return self

    def __mul__(self, n):  # a new list, not tracked
        return list.__mul__(self, n)

    def __imul__(self, n):
        list.__imul__(self, n)
        self._changed()
        return self

    def append(self, item):
        list.append(self, item)
        self._changed()

    def extend(self, items):
        list.extend(self, items)
        self._changed()

    def insert(self, index, item):
        list.insert(self, index, item)
        self._changed()

    def remove(self, item):
        list.remove(self, item)
        self._changed()

    def pop(self, *args):
        self._changed()
        return list.pop(self, *args)

    def clear(self):
        list.clear(self)
        self._changed()

    def sort(self, *args, **kwargs):
        list.sort(self, *args, **kwargs)
        self._changed()

    def reverse(self):
        list.reverse(self)
        self._changed()


def _tracked_setattr(self, name: str, value) -> None:
    """``__setattr__`` of the state's dataclasses: set the field, increment :data:`VERSION`."""
    object.__setattr__(self, name, value)
    VERSION[0] += 1


def _effect_setattr(self, name: str, value) -> None:
    """``__setattr__`` of :class:`PTEffect`: :func:`_tracked_setattr`, counted in :data:`EFFECT_CHANGES`."""
    object.__setattr__(self, name, value)
    VERSION[0] += 1
    EFFECT_CHANGES[0] += 1


@dataclass(slots=True)
class GameObject:
    """A card or token in a zone (CR 109.1).

    The id stays the same when the object changes zones, so the harness can follow it;
    the rules still treat it as a new object (CR 400.7): damage, counters, effects,
    regeneration shields, combat status and attachments do not follow it.

    Fields: ``card`` and ``script`` are the object's own characteristics: for a card,
    what is printed on it; for a token, what the effect that created it defined (CR
    111.3), which for a token copy includes the copied values and the exceptions of the
    copy effect (CR 707.9b). ``damage`` is marked damage (CR 120.3), ``deathtouch_damage``
    records that a deathtouch source dealt it damage since state-based actions were last
    checked (704.5h); ``timestamp`` is CR 613.7d/e. ``copy_effect`` is the layer 1 copy
    effect of a permanent that entered as a copy (Clone, CR 707.5): the copiable values it
    copied, fixed when it entered (CR 707.2b); ``copy_of`` is the id of the object copied.
    ``spell_x`` is the value of X chosen for the spell that became this permanent, which
    only its enters abilities use (CR 107.3m); the permanent's own X is 0.
    """

    id: str
    card: CardDef
    script: CardScript
    owner: str
    controller: str
    zone: str
    timestamp: int
    token: bool = False
    tapped: bool = False
    summoning_sick: bool = False
    damage: int = 0
    deathtouch_damage: bool = False
    counters: dict[str, int] = field(default_factory=dict)
    attached_to: str | None = None
    combat: str | None = None
    regeneration_shields: int = 0
    copy_effect: tuple[CardDef, CardScript] | None = None
    copy_of: str | None = None
    spell_x: int = 0
    #: Not the object's state: a number that changes with every change to it (a field set to
    #: another value, its counters changed in place), unique within a game: equal stamps, the
    #: same object as it was (reference_engine.kept). No rules meaning.
    _stamp: int = field(default=0, repr=False, compare=False)
    #: Like ``_stamp``, for the fields another object's characteristics can read
    #: (:data:`SEEN_BY_OTHERS`). No rules meaning.
    _seen_stamp: int = field(default=0, repr=False, compare=False)

    def __init__(self, id: str, card: CardDef, script: CardScript, owner: str, controller: str, zone: str,
                 timestamp: int, token: bool = False, tapped: bool = False, summoning_sick: bool = False,
                 damage: int = 0, deathtouch_damage: bool = False, counters: dict[str, int] | None = None,
                 attached_to: str | None = None, combat: str | None = None, regeneration_shields: int = 0,
                 copy_effect: tuple[CardDef, CardScript] | None = None, copy_of: str | None = None,
                 spell_x: int = 0):
        # A new object changes no game's state until it is put into one (its objects, a
        # TrackedDict): its fields are set without incrementing VERSION (as an unwatched object).
        cls = type(self)
        object.__setattr__(self, "__class__", unwatched(cls))
        self.id = id
        self.card = card
        self.script = script
        self.owner = owner
        self.controller = controller
        self.zone = zone
        self.timestamp = timestamp
        self.token = token
        self.tapped = tapped
        self.summoning_sick = summoning_sick
        self.damage = damage
        self.deathtouch_damage = deathtouch_damage
        self.counters = counters_of(self, counters)
        self.attached_to = attached_to
        self.combat = combat
        self.regeneration_shields = regeneration_shields
        self.copy_effect = copy_effect
        self.copy_of = copy_of
        self.spell_x = spell_x
        _NEW_STAMP[0] -= 1
        self._stamp = self._seen_stamp = _NEW_STAMP[0]
        object.__setattr__(self, "__class__", cls)

    def __setattr__(self, name: str, value) -> None:
        """Set a field; unless it is the value the field has already, increment :data:`VERSION`
        and give the object a new stamp. Counters become its :class:`Counters`."""
        if name == "counters":
            if type(value) is not Counters or value.owner is not self:
                value = counters_of(self, value)
        elif getattr(self, name, _UNSET) is value:  # the same value: nothing changes
            return
        object.__setattr__(self, name, value)
        VERSION[0] += 1
        object.__setattr__(self, "_stamp", VERSION[0])
        CHANGES.append(self)
        CHANGES_MADE[0] += 1
        if name in SEEN_BY_OTHERS:
            object.__setattr__(self, "_seen_stamp", VERSION[0])
            if name == "card":
                CARDS_CHANGED[0] += 1

    def reset_for_zone_change(self, zone: str | None = None, controller: str | None = None,
                              timestamp: int | None = None) -> None:
        """CR 400.7: the object in the new zone remembers nothing of the old one (its status
        is :data:`NEW_ZONE_STATUS`, it has no counters); it is in ``zone``, under ``controller``'s
        control, with ``timestamp`` (CR 613.7d), each left as it is when not given. One change to
        the state: the fields that differ are set, the object gets a new stamp (and a new
        ``_seen_stamp`` if one of them is :data:`SEEN_BY_OTHERS`)."""
        set_field = object.__setattr__
        seen = False
        for name, value in NEW_ZONE_STATUS.items():
            if getattr(self, name) is not value:
                set_field(self, name, value)
                seen = seen or name in SEEN_BY_OTHERS
        for name, given in (("zone", zone), ("controller", controller), ("timestamp", timestamp)):
            if given is not None and getattr(self, name) is not given:  # all three are SEEN_BY_OTHERS
                set_field(self, name, given)
                seen = True
        set_field(self, "counters", counters_of(self))
        VERSION[0] += 1
        set_field(self, "_stamp", VERSION[0])
        CHANGES.append(self)
        CHANGES_MADE[0] += 1
        if seen:
            set_field(self, "_seen_stamp", VERSION[0])


#: An object's status in a new zone, by field (CR 400.7: a new object; it has no counters either).
NEW_ZONE_STATUS = {"tapped": False, "summoning_sick": False, "damage": 0, "deathtouch_damage": False,
                   "attached_to": None, "combat": None, "regeneration_shields": 0, "copy_effect": None,
                   "copy_of": None, "spell_x": 0}
#: The fields of a :class:`GameObject` that are its state (not its stamps).
OBJECT_FIELDS = tuple(f.name for f in fields(GameObject) if not f.name.endswith("_stamp"))
#: The fields of a permanent the layer code reads to compute *another* object's characteristics
#: (CR 613): its copiable values (``card``, ``script``, ``copy_effect``, in its ``zone``, CR
#: 707.2) say what its static abilities are; an Aura's or Equipment's ``attached_to`` what it
#: affects and its ``timestamp`` when (CR 613.7a, 613.7e); ``controller`` who "you" is for an
#: anthem and Umbra Mystic's and Dog Umbra's controller checks; ``tapped`` whether a continuous
#: permanent has its abilities (Orb of Origin rulings). Its damage, counters, combat status and
#: the rest are only its own (reference_engine.kept).
SEEN_BY_OTHERS = frozenset({"card", "script", "copy_effect", "zone", "attached_to", "timestamp", "controller",
                            "tapped"})


@dataclass(slots=True)
class Player:
    """A player (CR 102): life total (CR 119) and whether they have lost (CR 104.3)."""

    id: str
    life: int = 20
    lost: bool = False

    __setattr__ = _tracked_setattr


@dataclass(slots=True)
class PTEffect:
    """A power/toughness effect (CR 611.2, 613.4).

    ``sublayer`` is ``"7b"`` (set base to power/toughness), ``"7c"`` (modify by
    power/toughness) or ``"7d"`` (switch; power and toughness unused), or ``"6"`` for an
    effect that grants ``keywords`` ("gains flying until end of turn", layer 6, CR 613.1f;
    not a power/toughness effect, never listed in ``pt_effects``). ``until_end_of_turn``
    effects end in the cleanup step (CR 514.2). ``source`` names what created it: a
    spell's name, an event type, or the id of the Aura whose static ability it is.
    """

    affected: str
    sublayer: str
    power: int
    toughness: int
    timestamp: int
    until_end_of_turn: bool = True
    source: str | None = None
    keywords: tuple[str, ...] = ()

    __setattr__ = _effect_setattr

    def __init__(self, affected: str, sublayer: str, power: int, toughness: int, timestamp: int,
                 until_end_of_turn: bool = True, source: str | None = None, keywords: tuple[str, ...] = ()):
        # A new effect changes no game's state until it is added to one (a TrackedList), and
        # pt_effects builds them while computing characteristics: its fields are set without
        # incrementing VERSION (as an unwatched object).
        cls = type(self)
        object.__setattr__(self, "__class__", unwatched(cls))
        self.affected = affected
        self.sublayer = sublayer
        self.power = power
        self.toughness = toughness
        self.timestamp = timestamp
        self.until_end_of_turn = until_end_of_turn
        self.source = source
        self.keywords = keywords
        object.__setattr__(self, "__class__", cls)


@dataclass(slots=True)
class LastKnown:
    """An object as it last existed on the battlefield (last known information, CR 608.2h).

    ``copiable`` is its copiable values (layer 1, CR 707.2); ``attached_to`` the object it
    was attached to; ``counters`` its counters; ``controller`` its controller.
    """

    copiable: tuple[CardDef, CardScript]
    attached_to: str | None
    counters: dict[str, int]
    controller: str


@dataclass(slots=True)
class Trigger:
    """A triggered ability that has triggered (CR 603.2) and waits to be put on the stack.

    ``ability`` is ``"enters"``, ``"dies"`` or ``"put into a graveyard"``; ``kind`` is the
    script's effect kind; ``info`` holds what the ability will need (last known
    information, CR 603.10a); ``targets`` are chosen as it is put on the stack (CR 603.3d).
    """

    source: str
    controller: str
    ability: str
    kind: str
    info: dict = field(default_factory=dict)
    targets: list[str] = field(default_factory=list)
