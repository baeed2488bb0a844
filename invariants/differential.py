"""The differential oracle: an engine's observation must equal the reference engine's.

Given the same board, events and decisions, an engine observes what the reference engine
does, after ``new_game`` (step 0: a board read wrongly is a finding there) and after
every event (CR 613.1 characteristics, 400.1 zones, 120.3 damage, ...). Only what the
engine declares is compared (:class:`Scope`):

* the optional observation fields of capabilities it doesn't claim (``copiable`` without
  ``observe.copiable``, ``pt_effects`` without ``observe.pt_effects``, a player's
  ``mana_pool`` without ``mana``, ``names`` without ``library_search``, ``max_hand_size``
  without ``playtest_supertypes``, ``summoning_sick`` without any of ``tap_untap_costs``,
  ``mana`` and ``control_change``), and ``mana_value`` when its observation has none;
* log entries of capabilities it doesn't claim (``replacement`` without
  ``log.replacement_effects``, ``damage`` without ``damage``, ...; a ``zone_change``'s
  ``cause`` without ``log.zone_change_causes``);
* the paths of ``EngineInfo.ignored_fields``: dotted paths with ``*`` for any id or
  field, e.g. ``objects.*.mana_value``, ``players.*.life``, ``log.damage``, ``zones``
  (a bare field name such as ``summoning_sick`` means ``objects.*.summoning_sick``).

When the reference engine's own log shows it used a capability the engine doesn't claim
(:func:`capabilities_used`: umbra armor replaced a destruction, a triggered ability
resolved, a 704.5 rule the engine doesn't implement applied), its observation is no
verdict on that engine; the harness then ends the example as declined by the reference.

Every difference has a path with ids wildcarded (``objects.*.zone``, ``players.*.life``,
``zones.graveyard.*``, ``log.zone_change``, ``illegal``); the first message of a
violation starts with the most significant one in brackets, and :func:`first_path`
reads it back (the key that tells distinct differential findings apart).

:data:`CONVENTIONS` lists what is normalised before comparing (keywords as a set, an event
that does nothing performed or refused, a decision's options in any order, zone and log
order) and the reference engine's conventions that are compared exactly (docs/reference.md).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from collections.abc import Callable, Iterable, Mapping, Sequence

import cards
from harness.protocol import CAPABILITIES

from .base import Transition, invariant
from .chance import REPLACEMENT_EFFECTS as CHANCE_REPLACEMENTS

DIFFERENTIAL = "differential"  # pseudo-capability added by the runner when --against is given

#: Object fields in the order their differences rank (the protocol's order).
OBJECT_FIELDS = ("name", "names", "zone", "owner", "controller", "token", "types", "supertypes", "subtypes", "colors",
                 "keywords", "power", "toughness", "damage", "tapped", "summoning_sick", "counters", "attached_to",
                 "combat", "blocked", "blocked_by", "blocking", "regeneration_shields", "mana_value", "copiable",
                 "pt_effects")
#: Optional object fields and the capabilities that make them compared, any one of them (None:
#: compared when observed). ``summoning_sick`` is observed by every engine, but only
#: the capabilities whose rules use summoning sickness (CR 302.6: {T} costs, creatures tapped for
#: mana, gaining control) make an engine answer for it: a creature the reference engine calls
#: summoning sick after it entered is no verdict on an engine with none of them.
OPTIONAL_FIELDS = {"copiable": ("observe.copiable",), "pt_effects": ("observe.pt_effects",), "mana_value": None,
                   "names": ("library_search",), "summoning_sick": ("tap_untap_costs", "mana", "control_change"),
                   "blocked": ("combat",), "blocked_by": ("combat",), "blocking": ("combat",)}
#: Optional player fields and the capability that makes them compared.
OPTIONAL_PLAYER_FIELDS = {"mana_pool": "mana", "max_hand_size": "playtest_supertypes"}
#: Log entry kinds compared only when the engine claims the capability that produces them.
LOG_KINDS = {
    "replacement": "log.replacement_effects", "damage": "damage", "player_lost": "sba.life_total",
    "counters_removed": "sba.counter_annihilation", "counters_added": "counters", "trigger": "triggers",
    "trigger_removed": "triggers", "regeneration_shield": "regeneration", "mana_produced": "mana",
    "mana_spent": "mana", "mana_lost": "mana", "activated": "tap_untap_costs", "control_changed": "control_change",
    "coin_flip": "chance", "die_roll": "chance", "unattached": "playtest_supertypes",
    "put_on_stack": "stack", "resolved": "stack", "removed_from_stack": "stack",
}
#: The capability of each replacement effect a ``replacement`` log entry names (default: the effect's name).
REPLACEMENT_CAPABILITY = {"umbra armor": "umbra_armor", **{effect: "chance" for effect in CHANCE_REPLACEMENTS}}
_TOP = ("players", "objects", "zones", "log", "stack", "priority", "combat")
#: Top-level fields of a game with the stack (capability ``stack``): compared when the engine claims it.
STACK_FIELDS = ("stack", "priority")
#: The capability of each state-based action rule (CR 704.5), from the capability table.
SBA_CAPABILITY = {rule: cap.name for cap in CAPABILITIES.values() for rule in cap.rules
                  if rule.startswith("704.5") and (cap.name.startswith("sba.") or cap.name == "legend_rule")}


@dataclass(frozen=True)
class Convention:
    """Something two correct engines may observe differently, and what a differential run does
    with it: ``relaxed`` (normalised before comparing, ``how`` says how, and where in the code)
    or not (compared exactly: ``how`` says what the reference engine does, which an engine must
    match or name in ``ignored_fields``). ``rules``: the CR rules it touches."""

    subject: str
    relaxed: bool
    how: str
    rules: tuple[str, ...] = ()


#: The reference engine's conventions a differential run meets (docs/reference.md renders them).
CONVENTIONS: tuple[Convention, ...] = (
    Convention("keywords", True, "compared as a set, lower case, without `enchant ...` and `equip ...` "
               "(`compared_keywords`): their order carries no rules meaning, and Enchant and Equip only say what "
               "the permanent may be attached to, which attachments show. The reference lists them sorted, lower "
               "case.", ("702.1", "702.5", "702.6")),
    Convention("an event that does nothing", True, "an event the engine performs without changing players, objects "
               "or zones matches the reference refusing it (`matches_reference`): an effect that does nothing may be "
               "either (CR 701.3b). The reference refuses re-attaching an Aura or Equipment to the permanent it is "
               "already attached to (`illegal_attachment`).", ("701.3b",)),
    Convention("a decision's options", True, "the reference engine is given the engine's answer to the question "
               "with the same player, kind and options, the options compared as a set, whatever their order "
               "(`harness.running.decider.same_options`). A question only the reference asks is answered by the run's "
               "decider and recorded after the engine's, labelled `\"asked_by\": \"reference\"` (reports say \"asked "
               "of the reference engine only\"); invariants see only the engine's own. The reference lists umbra "
               "Auras in timestamp order, then `regeneration`.", ("616.1", "603.3b")),
    Convention("zone order", True, "each zone's ids are compared sorted: the order within a zone is not compared "
               "(the library's included).", ("400.1",)),
    Convention("log order", True, "the log is compared as a multiset of entries (each as sorted-key JSON): the "
               "order of the entries of one event is not compared.", ()),
    Convention("counters of an object that left", True, "a `counters_removed` (704.5q) entry of an object not on "
               "the battlefield after the event is not compared: it left by a state-based action performed at the "
               "same time, and its counters ceased to exist with it.", ("704.3", "400.7")),
    Convention("retired creature types", True, "where the reference's object has a creature subtype CR 205.3m no "
               "longer lists (the card database's Oracle texts are of 2019: Hound, now Dog; Viashino, Naga, "
               "Cephalid), its `subtypes` match an engine's that have every other subtype of the reference's and at "
               "most as many in all, so today's type in its place is no difference (`same_subtypes`).",
               ("205.3m",)),
    Convention("the end of the game", False, "the games are of two players, so once a player has lost the game "
               "is over (CR 104.2a, 104.1): the reference refuses every later event (`IllegalAction`, reason "
               "`game_over`), so an engine that performs it differs (`illegal`).", ("104.1", "104.2a")),
    Convention("card types and colors", False, "`supertypes`, `types`, `subtypes` and `colors` are compared as "
               "lists: the reference gives them in the card data's order (the type line's order; colors as the "
               "card data lists them, W U B R G), granted supertypes after printed ones.", ("205", "105")),
    Convention("a spell's damage", False, "a `damage` entry's `source` is the id of the permanent that dealt it, or "
               "the spell's name for a spell (`\"source\": \"Shock\"`); `deathtouch` is whether that permanent had "
               "deathtouch (false for a spell without it).", ("120.3", "702.2")),
    Convention("summoning sickness", False, "`summoning_sick` is true only for a creature that came under its "
               "controller's control since their most recent turn began: a land or another noncreature permanent "
               "enters with false. Compared only for engines claiming `tap_untap_costs`, `mana` or "
               "`control_change`.", ("302.6",)),
    Convention("counters", False, "`counters` lists only kinds with at least one counter: a kind that reaches 0 "
               "(704.5q) is removed, not kept as 0.", ("122.1", "704.5q")),
    Convention("mana pools", False, "`mana_pool` has all six types, `W` `U` `B` `R` `G` `C`, with 0 for none; "
               "`mana_produced`, `mana_spent` and `mana_lost` list only the types with mana.", ("106.4",)),
    Convention("leaving the battlefield", False, "an object that leaves the battlefield is observed with its owner "
               "as controller, untapped, with no damage, counters, attachment, combat status or shields; a token's move is logged "
               "twice: off the battlefield, then to null when it ceases to exist.", ("400.7", "111.7", "704.5d")),
    Convention("destruction by lethal damage", False, "a creature destroyed by 704.5g or 704.5h is logged with "
               "cause `{\"event\": \"destroy\", \"by\": \"704.5g\"}` (or `704.5h`), and an umbra Aura destroyed "
               "instead by the same cause; `state_based_action` causes are for rules that don't destroy. A creature both rules destroy at once "
               "(lethal damage that a deathtouch source dealt) is logged with `704.5g`.",
               ("704.5g", "704.5h", "702.89a")),
)


@dataclass(frozen=True)
class Scope:
    """What is compared: the engine's ``capabilities`` and its ``ignored`` path patterns."""

    capabilities: frozenset[str] = frozenset()
    ignored: tuple[str, ...] = ()
    _patterns: tuple[tuple[str, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "_patterns", tuple(_pattern(p) for p in self.ignored))

    @classmethod
    def of(cls, info, capabilities: Iterable[str] | None = None) -> Scope:
        """The scope of an engine's ``EngineInfo``: its ``capabilities`` (default: those it
        claims; the runner passes those its cards imply too). Raises ValueError for a
        malformed ignored path."""
        ignored = tuple(sorted(getattr(info, "ignored_fields", ()) or ()))
        for pattern in ignored:
            check_ignored_path(pattern)
        return cls(frozenset(info.capabilities if capabilities is None else capabilities), ignored)

    def ignores(self, path: str) -> bool:
        """Whether ``path`` (dotted, real ids) is ignored: a pattern matches it or one of its prefixes."""
        parts = path.split(".")
        return any(len(p) <= len(parts) and all(fnmatchcase(s, q) for s, q in zip(parts, p)) for p in self._patterns)


def _pattern(path: str) -> tuple[str, ...]:
    return tuple(path.split(".")) if "." in path or path in _TOP else ("objects", "*", path)


def check_ignored_path(path) -> None:
    """Raise ValueError unless ``path`` is an ignored-field path (see the module docstring)."""
    if not isinstance(path, str) or not all(path.split(".")):
        raise ValueError(f"ignored_fields: {path!r} is not a dotted path such as 'objects.*.mana_value'")
    parts = _pattern(path)
    if parts[0] not in _TOP:
        raise ValueError(f"ignored_fields: {path!r} must start with one of {list(_TOP)} (or be an object field)")
    if parts[0] == "objects" and len(parts) >= 3 and not any(ch in parts[2] for ch in "*?[") \
            and parts[2] not in OBJECT_FIELDS:
        raise ValueError(f"ignored_fields: {path!r}: {parts[2]!r} is not an object field; known: {list(OBJECT_FIELDS)}")


def compared_keywords(keywords) -> frozenset[str] | None:
    """What of an object's ``keywords`` the differential oracle compares: the keyword abilities
    as a set (their order carries no rules meaning), lower case, without ``enchant ...`` and
    ``equip ...`` (CR 702.5, 702.6: they only say what the permanent may be attached to, which
    attachments themselves show; an engine may list them or not). None when not a list."""
    if not isinstance(keywords, (list, tuple)):
        return None
    return frozenset(k.lower() for k in keywords if isinstance(k, str)
                     and not k.lower().startswith(("enchant ", "equip")))


def same_subtypes(engine, reference) -> bool:
    """Whether an engine's observed ``subtypes`` match the reference's but for creature types CR
    205.3m no longer lists: the reference's other subtypes all there, and no more subtypes in all
    than the reference has (one renamed type, e.g. the database's 2019 Hound as today's Dog)."""
    if not isinstance(engine, list) or not isinstance(reference, list):
        return False
    current = cards.creature_types()
    kept = [s for s in reference if s in current]
    if len(kept) == len(reference):
        return False  # nothing retired: compared exactly
    return set(kept) <= set(engine) and len(engine) <= len(reference)


def _looked_up(table: Mapping[str, str], key, default: str) -> str:
    """``table[key]``, or ``default`` when ``key`` is not one of its (string) keys."""
    return table.get(key, default) if isinstance(key, str) else default


def capabilities_used(entry: dict) -> set[str]:
    """The capabilities a log entry shows in use (e.g. a zone change by 704.5h: ``sba.deathtouch_damage``)."""
    kind = entry.get("kind")
    raw_cause = entry.get("cause")
    cause: dict = raw_cause if isinstance(raw_cause, dict) else {}
    used = set()
    if kind == "replacement":
        used.add(_looked_up(REPLACEMENT_CAPABILITY, entry.get("effect"), str(entry.get("effect"))))
    elif kind == "zone_change":
        rule = cause.get("rule") if cause.get("event") == "state_based_action" else cause.get("by")
        if rule in SBA_CAPABILITY:
            used.add(SBA_CAPABILITY[rule])
        if cause.get("copy_of"):
            used.add("copies")
        if cause.get("event") == "create_token":
            used.add("tokens")
    elif kind in ("player_lost", "counters_removed"):
        used.add(_looked_up(SBA_CAPABILITY, entry.get("rule"), "sba.life_total" if kind == "player_lost" else "counters"))
    elif kind in LOG_KINDS:
        used.add(LOG_KINDS[kind])
    if kind == "damage" and entry.get("deathtouch"):
        used.add("deathtouch")
    return used


def beyond_declaration(log: Iterable[dict], capabilities) -> list[str]:
    """The capabilities the reference engine's ``log`` used that ``capabilities`` doesn't claim, sorted."""
    used = set()
    for entry in log:
        if isinstance(entry, dict):
            used |= capabilities_used(entry)
    return sorted(used - set(capabilities))


@dataclass(frozen=True, order=True)
class Difference:
    """One difference: ``rank`` orders them (most significant first), ``path`` has ids wildcarded."""

    rank: tuple
    path: str
    message: str


def _wild(path: str) -> str:
    parts = path.split(".")
    if parts[0] in ("players", "objects") and len(parts) > 1:
        parts[1] = "*"
    if parts[0] == "zones" and len(parts) > 2:
        parts[2] = "*"
    return ".".join(parts)


def _log_key(entry: dict, scope: Scope, battlefield: frozenset = frozenset()) -> str | None:
    """The canonical form of a log entry as compared, or None when it isn't compared.

    ``counters_removed`` by 704.5q of an object not on the battlefield after the event
    (``battlefield``: the reference's) is not compared: it left by a state-based action
    performed at the same time (CR 704.3), and its counters ceased to exist with it (400.7)
    whether or not an engine logs their annihilation."""
    kind = entry.get("kind") if isinstance(entry, dict) else None
    needed = LOG_KINDS.get(kind) if isinstance(kind, str) else None
    if (needed and needed not in scope.capabilities) or scope.ignores(f"log.{kind}"):
        return None
    if kind == "counters_removed" and entry.get("object") not in battlefield:
        return None
    if kind == "zone_change" and "log.zone_change_causes" not in scope.capabilities:
        entry = {k: v for k, v in entry.items() if k != "cause"}
    return json.dumps(entry, sort_keys=True)


def differences(fork: dict, reference: dict, scope: Scope = Scope()) -> list[Difference]:
    """Every compared difference between two observations, most significant first.

    Ranks: players, then objects (by field in :data:`OBJECT_FIELDS` order, then id), then
    zones, then the log (as a multiset of entries).
    """
    out: list[Difference] = []

    def add(rank, path, message):
        if not scope.ignores(path):
            out.append(Difference(rank, _wild(path), f"[{_wild(path)}] {message}"))

    _player_differences(fork, reference, scope, add)
    _object_differences(fork, reference, scope, add)
    _zone_differences(fork, reference, add)
    if "stack" in scope.capabilities:
        for key in STACK_FIELDS:
            a, b = fork.get(key), reference.get(key)
            if a != b:
                add((2.5, key, ""), key, f"{key}: engine {json.dumps(a, sort_keys=True)[:300]} vs reference "
                                         f"{json.dumps(b, sort_keys=True)[:300]}")
    if "combat" in scope.capabilities and fork.get("combat") != reference.get("combat"):  # the declared combat
        add((2.6, "combat", ""), "combat", f"combat: engine {json.dumps(fork.get('combat'), sort_keys=True)[:300]} vs "
                                           f"reference {json.dumps(reference.get('combat'), sort_keys=True)[:300]}")
    if not scope.ignores("log"):
        _log_differences(fork, reference, scope, add)
    return sorted(out)


#: ``add(rank, path, message)``: records a difference unless the scope ignores its path (:func:`differences`).
_Add = Callable[[tuple, str, str], None]


def _player_differences(fork: dict, reference: dict, scope: Scope, add: _Add) -> None:
    """Each player's compared fields (an optional one only with its capability)."""
    players_a, players_b = fork.get("players", {}), reference.get("players", {})
    for pid in sorted(set(players_a) | set(players_b)):
        a, b = players_a.get(pid) or {}, players_b.get(pid) or {}
        for key in sorted(set(a) | set(b)):
            if OPTIONAL_PLAYER_FIELDS.get(key, "") not in scope.capabilities | {""}:
                continue
            if a.get(key) != b.get(key):
                add((0, key, pid), f"players.{pid}.{key}", f"player {pid} {key}: engine {a.get(key)!r} vs reference "
                                                           f"{b.get(key)!r}")


def _field_rank(key: str) -> int:
    return OBJECT_FIELDS.index(key) if key in OBJECT_FIELDS else 99


def _object_differences(fork: dict, reference: dict, scope: Scope, add: _Add) -> None:
    """Each object missing on one side, and each compared field of the others, in :data:`OBJECT_FIELDS` order."""
    objs_a, objs_b = fork.get("objects", {}), reference.get("objects", {})
    for oid in sorted(set(objs_a) | set(objs_b)):
        a, b = objs_a.get(oid), objs_b.get(oid)
        if a is None or b is None:
            add((1, -1, oid), f"objects.{oid}", f"object {oid}: {'missing in the engine' if a is None else 'missing in reference'}")
            continue
        for key in sorted(set(a) | set(b), key=lambda k: (_field_rank(k), k)):
            if _field_compared(key, a, scope) and not _same_field(key, a.get(key), b.get(key)):
                add((1, _field_rank(key), oid), f"objects.{oid}.{key}",
                    f"object {oid} ({b.get('name')}) {key}: engine {a.get(key)!r} vs reference {b.get(key)!r}")


def _field_compared(key: str, engine_object: dict, scope: Scope) -> bool:
    """Whether an object field is compared: an optional one only when the engine observes it (None) or claims a
    capability it needs (:data:`OPTIONAL_FIELDS`)."""
    needed = OPTIONAL_FIELDS.get(key, ())
    return not ((needed is None and key not in engine_object) or (needed and scope.capabilities.isdisjoint(needed)))


def _same_field(key: str, a, b) -> bool:
    """Whether two values of an object field are the same as compared: keywords as :func:`compared_keywords`,
    subtypes as :func:`same_subtypes`."""
    if a == b:
        return True
    if key == "keywords" and compared_keywords(a) == compared_keywords(b):
        return True
    return key == "subtypes" and same_subtypes(a, b)


def _zones_text(ids) -> list[str]:
    return sorted(map(str, ids or []))


def _zone_differences(fork: dict, reference: dict, add: _Add) -> None:
    """Each zone's contents as a set of ids: the battlefield's (a list), each player's other zones."""
    zones_a, zones_b = fork.get("zones", {}), reference.get("zones", {})
    for zone in sorted(set(zones_a) | set(zones_b)):
        a, b = zones_a.get(zone), zones_b.get(zone)
        if isinstance(a, list) or isinstance(b, list):
            if _zones_text(a) != _zones_text(b):
                add((2, zone, ""), f"zones.{zone}", f"zone {zone}: engine {_zones_text(a)} vs reference "
                                                    f"{_zones_text(b)}")
            continue
        a, b = a or {}, b or {}
        for pid in sorted(set(a) | set(b)):
            if _zones_text(a.get(pid)) != _zones_text(b.get(pid)):
                add((2, zone, pid), f"zones.{zone}.{pid}", f"{pid}'s {zone}: engine {_zones_text(a.get(pid))} "
                                                           f"vs reference {_zones_text(b.get(pid))}")


def _log_differences(fork: dict, reference: dict, scope: Scope, add: _Add) -> None:
    """The compared log entries (:func:`_log_key`) as a multiset: the first difference's kind names it."""
    battlefield = frozenset(map(str, (reference.get("zones") or {}).get("battlefield") or ()))
    log_a = sorted(k for k in (_log_key(e, scope, battlefield) for e in fork.get("log", [])) if k)
    log_b = sorted(k for k in (_log_key(e, scope, battlefield) for e in reference.get("log", [])) if k)
    if log_a != log_b:
        only_fork = [k for k in log_a if k not in log_b]
        only_ref = [k for k in log_b if k not in log_a]
        first = json.loads((only_fork or only_ref or log_a or log_b)[0])
        add((3, first.get("kind"), ""), f"log.{first.get('kind')}",
            f"log: only in the engine {only_fork[:3]}, only in reference {only_ref[:3]}")


def observation_diff(fork: dict, reference: dict, ignored=frozenset(), limit: int = 12,
                     scope: Scope | None = None) -> list[str]:
    """Readable differences between two observations (each message starts with its ``[path]``).

    ``scope`` says what is compared; without it, every field except the ``ignored`` paths.
    """
    if scope is None:
        scope = Scope(frozenset(CAPABILITIES), tuple(sorted(ignored)))
    out = [d.message for d in differences(fork, reference, scope)]
    return out[:limit] + ([f"... and {len(out) - limit} more differences"] if len(out) > limit else [])


_PATH = re.compile(r"^\[([^\]]+)\]")


def first_path(messages: Sequence[str]) -> str | None:
    """The path of the first difference of a differential violation's messages (ids wildcarded), or None."""
    for message in messages[:1]:
        found = _PATH.match(message)
        if found:
            return found.group(1)
    return None


def _unchanged(before: dict, after: dict) -> bool:
    """Whether an event left the game as it was: players, objects and zones equal (the log aside)."""
    return all(before.get(k) == after.get(k) for k in ("players", "objects", "zones", "stack", "priority", "combat"))


@invariant("differential.matches_reference", rules=("613.1", "400.1", "120.3"), family="differential",
           requires=(DIFFERENTIAL,))
def matches_reference(t: Transition):
    """After ``new_game`` and every event the engine's observation equals the reference engine's, given the
    same decisions, for what the engine declares.

    Also: both engines refuse the same events, except that an event the engine performs without
    changing anything (players, objects and zones as before) matches the reference refusing it:
    an effect that does nothing (CR 701.3b, attaching an Aura or Equipment where it already is)
    may be either.
    """
    if t.reference is None:
        return None
    fork_illegal, ref_illegal = t.illegal is not None, t.reference.get("illegal") is not None
    if ref_illegal and not fork_illegal and t.before is not None and _unchanged(t.before, t.after):
        return []  # "the effect does nothing" (CR 701.3b, a re-attach): the same game, refused or not
    if fork_illegal != ref_illegal:
        return [f"[illegal] the engine {'refused' if fork_illegal else 'performed'} the event "
                f"({t.illegal or 'legal'}) but the reference {'refused' if ref_illegal else 'performed'} it "
                f"({t.reference.get('illegal') or 'legal'})"]
    if fork_illegal:
        return []
    scope = t.reference.get("scope")
    if scope is None:
        return observation_diff(t.after, t.reference["after"], t.reference.get("ignored", frozenset()))
    return observation_diff(t.after, t.reference["after"], scope=scope)
