"""Live targets for the state machine's rules: permanents on the battlefield now.

Rules drawing from the ``objects`` Bundle also hit objects that have left the
battlefield (the engine must refuse those without change); the helpers here draw from
the permanents on the battlefield in the current observation instead, so most events do
something, and steer some draws toward the rare states the rulings talk about.

:class:`Targeting` is a mixin of the machine (``harness.running.machine.EngineMachine``); it
reads ``self.observation`` (an :class:`~harness.protocol.Observation`),
``self.copies`` and ``self.special`` (object ids the machine keeps).
"""

from __future__ import annotations

from typing import Protocol

from hypothesis import strategies as st

from invariants.card_abilities import has_umbra_armor

from harness.generation import strategies as S
from harness.generation.hypothesis_shim import random_source
from harness.protocol import BoardSpec, Observation
from harness.wire.plain import plain


class MachineSession(Protocol):
    """What the rules read of the machine's session (a :class:`harness.running.execution.Session`)."""

    @property
    def observation(self) -> Observation: ...

    @property
    def broken(self) -> bool: ...

    @property
    def board(self) -> BoardSpec: ...


class Targeting:
    """Live-target queries (also used as rule preconditions) and interesting picks."""

    session: MachineSession | None = None
    copies: list[str]
    special: list[str]
    _live_cache: tuple | None = None

    @property
    def observation(self) -> Observation:
        """The session's observation after the last step (a rule runs once the board is set up)."""
        session = self.session
        assert session is not None
        return session.observation

    def _live(self, keyword: str | None = None) -> list[str]:
        """Ids of the creatures on the battlefield, optionally only those with ``keyword``."""
        observation = self.observation
        key = (id(observation), keyword)
        if self._live_cache is not None and self._live_cache[0] == key:  # preconditions ask often
            return list(self._live_cache[1])
        objects = observation["objects"]
        found = [oid for oid, o in objects.items() if o["zone"] == "battlefield" and "Creature" in o["types"]
                 and (keyword is None or keyword in o["keywords"])]
        self._live_cache = (key, found, observation)  # keeps the observation alive, so its id stays unique
        return list(found)

    def has_creature(self) -> bool:
        return self.session is not None and bool(self._live())

    def has_deathtouch(self) -> bool:
        return self.session is not None and bool(self._live("deathtouch"))

    @staticmethod
    def toughness_left(o: dict) -> int:
        """An observed creature's toughness minus the damage marked on it (CR 120.6, 704.5g)."""
        return (o.get("toughness") or 0) - (o.get("damage") or 0)

    @classmethod
    def survives_damage(cls, o: dict) -> bool:
        """Whether 1 damage leaves observed creature ``o`` alive by 704.5g: not indestructible
        (CR 702.12b) and more than 1 toughness left, so that only deathtouch (CR 704.5h)
        would destroy it."""
        return "indestructible" not in o.get("keywords", ()) and cls.toughness_left(o) > 1

    def _live_auras(self) -> list[str]:
        objects = self.observation["objects"]
        return [oid for oid, o in objects.items() if o["zone"] == "battlefield" and "Aura" in o.get("subtypes", ())]

    def has_aura(self) -> bool:
        return self.session is not None and bool(self._live_auras()) and bool(self._live())

    def _live_umbra_auras(self) -> list[str]:
        """Ids of the Auras with umbra armor (CR 702.89) attached to a permanent on the battlefield.

        Whether an Aura has umbra armor is worked out from its card data and the board
        (:func:`invariants.card_abilities.has_umbra_armor`), not from the keywords the engine lists."""
        observation = self.observation
        objects = observation["objects"]
        return sorted(oid for oid, o in objects.items() if o["zone"] == "battlefield" and "Aura" in o["subtypes"]
                      and has_umbra_armor(plain(observation), oid))

    def has_umbra_aura(self) -> bool:
        return self.session is not None and bool(self._live_umbra_auras())

    def _pick(self, data, options: list[str], label: str) -> str:
        return S.pick(data, sorted(options), label)

    def legal_targets(self, affected, caster: str | None = None) -> list[str]:
        """Ids of the permanents on the battlefield ``affected`` (a :class:`cards.model.Affected`
        of a declared card's model) may target, by kind and filters (:func:`matches`)."""
        objects = self.observation["objects"]
        return [oid for oid, o in objects.items() if o["zone"] == "battlefield" and matches(affected, plain(o), caster)]

    def _pick_interesting(self, data, options: list[str], interesting, label: str) -> str:
        """One of ``options``: a quarter of the time any, else (when there is one) one for which
        ``interesting(observed object)`` holds, one that entered as a copy, or a rare one
        (a copy with an exception, a creature cast with X).

        Reaches on purpose the states the rulings talk about (DESIGN: long runs should
        reach rare states on purpose): copies of tokens, of copies, of creatures cast
        with X, of creatures with enters abilities or counters or an Octopus Umbra.
        """
        objects = self.observation["objects"]
        chosen = [oid for oid in options if interesting(objects[oid])]
        copies = [oid for oid in options if oid in self.copies]
        special = [oid for oid in options if oid in self.special]
        source = random_source(data)  # drawn at random (--explore): as st.integers(0, 3) draws
        tier = source.rng.randrange(0, 4) if source is not None else data.draw(st.integers(0, 3),
                                                                                label=f"{label} of interest")
        if tier == 1 and chosen:
            options = chosen
        if tier == 2 and copies:  # a copy of a copy, of a token copy (CR 707.3)
            options = copies
        if tier == 3:  # a copy of a copy made with an exception (707.9b), of a creature cast with X (107.3m)
            options = special or copies or chosen or options
        return self._pick(data, options, label)

    @staticmethod
    def worth_copying(o: dict) -> bool:
        """A creature whose copy shows a copy rule: a token, a copy, {X} in its cost, an
        enters ability, counters, or power and toughness changed by effects."""
        copiable = o.get("copiable") or {}
        return (o.get("token") or "{X}" in (copiable.get("mana_cost") or "")
                or o.get("name") in S.ENTERS_TRIGGER_CREATURES or bool(o.get("counters")) or bool(o.get("pt_effects"))
                or (copiable.get("name") not in (None, o.get("name"))))

    def _penumbra_would_copy_a_legend(self, aura: str, host: str) -> bool:
        """Whether ``aura`` is (or names) Penumbra Umbra and ``host`` is a legendary permanent.

        The generator never puts Penumbra Umbra on a legend: when umbra armor destroys it
        instead of the legend, its token copy of the legend starts the legend rule inside
        the same event, and the umbra armor invariants, which predict what the event
        destroys, would count the legend put into the graveyard by CR 704.5j as a
        creature umbra armor failed to save.
        """
        objects = self.observation["objects"]
        name = objects[aura].get("name") if aura in objects else aura
        return name == "Penumbra Umbra" and "Legendary" in (objects[host].get("supertypes", []) if host in objects else ())


_COLOR_LETTERS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}


def matches(affected, o: dict, caster: str | None = None, source: str | None = None) -> bool:
    """Whether observed object ``o`` is one ``affected`` (a :class:`cards.model.Affected` of a
    card's model) may name: its kind and every filter ("nonblack", "nonartifact", "you
    control", "tapped", "flying", "attacking", ...), read from the observation (CR 115.1, 608.2b)."""
    kind = affected.kind
    types = set(o.get("types") or ())
    if kind in ("creature", "any", "creature or player", "creature and player") and "Creature" not in types \
            and not (kind == "any" and "Planeswalker" in types):
        return False
    if kind in ("artifact", "enchantment", "land") and kind.capitalize() not in types:
        return False
    colors, keywords = set(o.get("colors") or ()), set(o.get("keywords") or ())
    for f in affected.filters:
        fails = _characteristic_filter_fails(f, o, types, colors)
        if fails is None:
            fails = _status_filter_fails(f, o, keywords, caster)
        if fails:
            return False
    return True


def _characteristic_filter_fails(f: str, o: dict, types: set[str], colors: set[str]) -> bool | None:
    """Whether observed object ``o`` fails filter ``f`` of its subtypes, colors, types or
    supertypes ("non-Zombie", "nonblack", "red", "nonartifact", "nonlegendary", "artifact");
    None for a filter of another kind."""
    if f.startswith("non-"):
        return f[4:] in (o.get("subtypes") or ())
    if f.startswith("non") and f[3:] in _COLOR_LETTERS:
        return _COLOR_LETTERS[f[3:]] in colors
    if f in _COLOR_LETTERS:
        return _COLOR_LETTERS[f] not in colors
    if f.startswith("non") and f[3:].capitalize() in ("Artifact", "Land", "Creature", "Enchantment"):
        return f[3:].capitalize() in types
    if f == "nonlegendary":
        return "Legendary" in (o.get("supertypes") or ())
    if f in ("artifact",):
        return "Artifact" not in types
    return None


def _status_filter_fails(f: str, o: dict, keywords: set[str], caster: str | None) -> bool:
    """Whether observed object ``o`` fails filter ``f`` of its controller (seen by ``caster``),
    status, flying or combat ("you control", "tapped", "without flying", "attacking", ...);
    False for a filter not read."""
    if f == "you control":
        return caster is not None and o.get("controller") != caster
    if f == "opponent controls":
        return caster is not None and o.get("controller") == caster
    if f in ("tapped", "untapped"):
        return bool(o.get("tapped")) != (f == "tapped")
    if f == "flying":
        return "flying" not in keywords
    if f == "without flying":
        return "flying" in keywords
    if f in ("attacking", "blocking"):
        return o.get("combat") != f
    if f == "attacking or blocking":
        return o.get("combat") not in ("attacking", "blocking")
    return False

