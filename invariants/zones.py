"""Zone changes and their destinations, for any engine (CR 400.3, 404.1, 701.7a, 701.17a, 702.12b).

Checked without help from umbra Auras: a permanent that is destroyed and that no
replacement effect can save (no umbra Aura, worked out from the card data, and no usable
regeneration shield) and that isn't indestructible (card data) leaves the battlefield; a
sacrificed permanent always does (sacrifice is not destruction, CR 701.17a); and whatever
goes to a graveyard goes to its owner's (CR 400.3, 404.1), a token then ceasing to exist
(CR 111.7, 704.5d).
"""

from __future__ import annotations

from .base import Transition, invariant
from .card_abilities import has_keyword
from .observed import DESTROYING_EVENTS, umbra_auras, destroyed_in_step


def _in_owners_graveyard(t: Transition, oid: str, owner: str) -> str | None:
    """Why ``oid`` is not in ``owner``'s graveyard after the event (None if it is, or is a token that ceased to exist)."""
    after = t.after["objects"].get(oid)
    if after is None:
        return None if t.before["objects"][oid]["token"] else (
            f"{oid} is no longer observed at all, though it is a card, not a token (a card never ceases to exist, "
            f"CR 400.7): expected it in {owner}'s graveyard")
    if after["zone"] == "battlefield":
        return f"{oid} is still on the battlefield; expected it in its owner {owner}'s graveyard"
    listed = ((t.after.get("zones") or {}).get("graveyard") or {}).get(owner) or []
    if after["zone"] != "graveyard" or oid not in listed:
        holders = [p for p, ids in (((t.after.get("zones") or {}).get("graveyard")) or {}).items() if oid in (ids or [])]
        where = f"listed in {owner}'s graveyard" if oid in listed else (
            f"listed in the graveyard of {holders}, not in its owner {owner}'s" if holders else
            f"not listed in {owner}'s graveyard (zones.graveyard.{owner})")
        return f"{oid} is in the {after['zone']} ({where}); expected it in its owner {owner}'s graveyard"
    return None


@invariant("zones.sacrificed_goes_to_its_owners_graveyard", refused=False, rules=("701.17a", "400.3", "404.1"),
           family="generic", requires=("sacrifice",), on=("sacrifice",))
def sacrificed_goes_to_its_owners_graveyard(t: Transition):
    """A sacrificed permanent is put into its owner's graveyard; no replacement effect in scope stops it
    (umbra armor and regeneration replace destruction only)."""
    if t.illegal is not None or t.event.get("type") != "sacrifice":
        return None
    oid = t.event.get("object")
    if not isinstance(oid, str):
        return None
    before = t.before["objects"].get(oid)
    if before is None or before["zone"] != "battlefield":
        return None
    problem = _in_owners_graveyard(t, oid, before["owner"])
    return [f"{oid} ({before['name']}) was sacrificed but {problem.split(' ', 1)[1]}"] if problem else []


@invariant("zones.destroyed_without_replacement_leaves", refused=False,
           rules=("701.7a", "702.12b", "704.5g", "704.5h", "400.3"),
           family="generic", requires=("destroy",), on=DESTROYING_EVENTS)
def destroyed_without_replacement_leaves(t: Transition):
    """A creature destroyed by a spell, an effect, lethal damage or deathtouch damage, that isn't
    indestructible and that no replacement effect can save, is put into its owner's graveyard.

    Indestructible and deathtouch are read from the card data; umbra Auras are worked out from
    the card data and the board; a regeneration shield saves it unless it can't be regenerated.
    """
    if t.illegal is not None:
        return None
    out = []
    applicable = False
    for oid, prediction in destroyed_in_step(t).items():
        before = t.before["objects"][oid]
        if has_keyword(before, "indestructible") or umbra_auras(t.before, oid):
            continue
        if before["regeneration_shields"] > 0 and not prediction["cant_be_regenerated"]:
            continue
        applicable = True
        problem = _in_owners_graveyard(t, oid, before["owner"])
        if problem:
            out.append(f"{oid} ({before['name']}) was destroyed ({prediction['by']}) with nothing to save it, "
                       f"but {problem.split(' ', 1)[1]}")
    return out if applicable else None


@invariant("zones.graveyard_is_the_owners", refused=False, rules=("400.3", "404.1", "108.3"), family="generic",
           on_log=("zone_change",))
def graveyard_is_the_owners(t: Transition):
    """Every object the log puts into a graveyard is in its owner's graveyard (not its controller's)."""
    if t.illegal is not None:
        return None
    moved = [e["object"] for e in t.log if e.get("kind") == "zone_change" and e.get("to") == "graveyard"
             and e.get("object") in t.before["objects"]]
    if not moved:
        return None
    out = []
    for oid in moved:
        after = t.after["objects"].get(oid)
        if after is None or after["zone"] != "graveyard":
            continue  # a token that then ceased to exist, or moved on
        owner = t.before["objects"][oid]["owner"]
        graveyards = (t.after.get("zones") or {}).get("graveyard") or {}
        if oid not in (graveyards.get(owner) or []):
            holder = [p for p, ids in graveyards.items() if oid in (ids or [])]
            out.append(f"{oid} ({after['name']}), owned by {owner}, went to the graveyard of {holder or 'nobody'}: "
                       f"expected it listed in zones.graveyard.{owner} (CR 404.1)")
    return out


@invariant("zones.destroyed_unless_replaced", refused=False, rules=("701.7a", "614.1a", "704.5g", "704.5h", "702.12b"),
           family="generic", requires=("destroy", "log.replacement_effects"), on=DESTROYING_EVENTS)
def destroyed_unless_replaced(t: Transition):
    """A creature that would be destroyed and isn't indestructible leaves the battlefield, unless a
    replacement effect replaced its destruction (and the log says which).

    The generic form of umbra armor's and regeneration's rules: whatever could have saved it, a
    creature still on the battlefield after a destruction (a spell, an effect, lethal or
    deathtouch damage) must show the replacement effect that saved it.
    """
    if t.illegal is not None:
        return None
    out = []
    applicable = False
    replaced = {e.get("affected") for e in t.log if e.get("kind") == "replacement"}
    for oid, prediction in destroyed_in_step(t).items():
        before = t.before["objects"][oid]
        if has_keyword(before, "indestructible"):
            continue
        applicable = True
        after = t.after["objects"].get(oid)
        if after is not None and after["zone"] == "battlefield" and oid not in replaced:
            out.append(f"{oid} ({before['name']}) would be destroyed ({prediction['by']}) and is still on the "
                       f"battlefield, but no replacement effect replaced its destruction: the log of this step has "
                       f"no replacement entry for it (expected e.g. {{\"kind\": \"replacement\", \"effect\": "
                       f"\"regeneration\" or \"umbra armor\", \"affected\": \"{oid}\", ...}}), or it must be in "
                       f"its owner's graveyard")
    return out if applicable else None
