"""Every invariant message says what was expected, what was seen, and which field or log entry
is missing (issue "An adapter in an afternoon", item 2): the messages a new user writing an
engine from the docs found false or unspecific, each on a hand-made broken step.

Expected values come from the rules (CR 111.7, 400.7, 702.89a, 704.5d, 704.5j, 704.5m) and the
broken step itself, never from running the engine."""

from __future__ import annotations

import copy

from invariants import REGISTRY, Transition

from .test_invariants import (
    BEARS_ALONE, GRAVEYARD, MURDER, SACRIFICE, deathtouch_lethal_kills, enchanted_bears,
    murdered_bears, murdered_token, refused_murder, sacrificed_with_umbra,
    sba, second_isamaru, set_field, step, umbra_replaces, with_after,
)


def _messages(name: str, t: Transition) -> list[str]:
    messages = REGISTRY[name].check(t)
    assert messages, f"{name} holds on a broken step"
    return messages


# ---------------------------------------------------------------- umbra armor: never "0 of them left"

def test_the_umbra_count_names_the_aura_that_left_and_the_entry_expected():
    """Umbra armor saved the Bears but the engine logged the Hyena Umbra's going as 704.5m. The
    Aura DID leave: the message says so, with the cause logged, and names the log entry expected
    (a zone_change of one of the Auras, destroyed by Murder: CR 702.89a)."""
    before = enchanted_bears()
    after = step(before, {"b": {"damage": 0, **BEARS_ALONE}, "h": GRAVEYARD},
                 [umbra_replaces("h", "b"), sba("h", "704.5m")])
    [message] = _messages("umbra_armor.exactly_one_aura", Transition(before, MURDER, after))
    assert "left the battlefield" in message and "0 of them left" not in message
    assert "'rule': '704.5m'" in message  # the cause the log has
    assert '"object": "h"' in message and '"cause": {"event": "destroy", "by": "Murder"}' in message


def test_lethal_deathtouch_with_an_umbra_says_where_the_aura_went():
    """Typhoid Rats' 1 damage (deathtouch) on the enchanted Bears: the engine let them die and the
    Aura follow by 704.5m. The message must not say "in the None" nor count the Aura as not
    gone: it says the creature is in the graveyard, none was destroyed instead, and the Aura left
    by a state-based action."""
    [message] = _messages("umbra_armor.simultaneous_state_based_actions", deathtouch_lethal_kills())
    assert "None" not in message.split("saw")[0] and "Aura(s) left" not in message
    assert "it is in the graveyard" in message and "0 of them destroyed instead" in message
    assert "['h'] left the battlefield by a state-based action" in message


def test_a_creature_gone_entirely_is_no_longer_observed_not_in_the_none():
    from .test_invariants import murder_kills_enchanted_bears

    t = with_after(murder_kills_enchanted_bears(), lambda o: (o["objects"].pop("b"),
                                                             o["zones"]["graveyard"]["P1"].remove("b")))
    messages = _messages("umbra_armor.mandatory", t)
    assert any("no longer observed" in m and "expected it still on the battlefield" in m for m in messages), messages


# ---------------------------------------------------------------- objects that are no longer observed

def test_a_token_gone_without_any_log_entry_says_which_entry_is_missing():
    """A token Murder destroyed, gone from the observation, and a log with no entry at all: object
    b (a token) is no longer observed and the log of that step has no zone_change entry for it;
    expected one with to null (CR 111.7, 704.5d), an example given."""
    t = with_after(murdered_token(), lambda o: o["log"].clear())
    [message] = _messages("generic.objects_conserved", t)
    assert message.startswith("b (Grizzly Bears, a token on the battlefield before the event) is no longer observed")
    assert "the log of this step has no zone_change entry for it" in message
    assert '{"kind": "zone_change", "object": "b", "from": "graveyard", "to": null}' in message
    assert "111.7" in message and "704.5d" in message


def test_a_token_whose_last_entry_is_not_to_null_says_what_the_entry_says():
    t = with_after(murdered_token(), lambda o: o["log"].pop())
    [message] = _messages("generic.objects_conserved", t)
    assert 'moves it to "graveyard", not to null' in message and '"to": null' in message


def test_a_card_that_is_no_longer_observed_is_said_to_be_a_card():
    t = with_after(murdered_bears(), lambda o: (o["objects"].pop("b"), o["zones"]["graveyard"]["P1"].remove("b")))
    [message] = _messages("generic.objects_conserved", t)
    assert "a card" in message and "a card never ceases to exist" in message and "400.7" in message
    assert "is no longer observed" in message and "its move logged as a zone_change entry" in message


def test_an_object_from_nowhere_names_the_entry_that_would_create_it():
    def add(obs):
        obs["objects"]["z"] = copy.deepcopy(obs["objects"]["b"])
        obs["zones"]["graveyard"]["P1"].append("z")
    [message] = _messages("generic.objects_conserved", with_after(murdered_bears(), add))
    assert "appeared without being created" in message and '"object": "z", "from": null' in message


def test_a_sacrificed_card_that_is_no_longer_observed_is_not_just_vanished():
    t = sacrificed_with_umbra()
    assert t.event == SACRIFICE
    broken = with_after(t, lambda o: (o["objects"].pop("b"), o["zones"]["graveyard"]["P1"].remove("b")))
    messages = _messages("zones.sacrificed_goes_to_its_owners_graveyard", broken)
    assert messages[0].startswith("b (Grizzly Bears) was sacrificed but is no longer observed at all")
    assert "expected it in P1's graveyard" in messages[0]


# ---------------------------------------------------------------- the sweep: fields named, values expected

def test_a_refused_event_that_changed_objects_names_the_field_and_both_values():
    [message, *_] = _messages("generic.illegal_changes_nothing", refused_murder({"zone": "exile"}))
    assert "changed objects" in message and 'objects.b.zone: before "graveyard", after "exile"' in message


def test_permanent_state_off_the_battlefield_names_only_what_was_kept():
    [message] = _messages("generic.damage_only_on_battlefield",
                          with_after(murdered_bears(), set_field("b", damage=2)))
    assert "damage 2 (expected 0)" in message and "tapped" not in message


def test_a_field_of_the_wrong_type_says_the_type_expected():
    messages = _messages("generic.observation_shape", with_after(murdered_bears(), set_field("b", damage="lots")))
    assert any("damage = 'lots' has the wrong type: expected an integer, got str" in m for m in messages), messages


def test_a_kept_legend_gone_entirely_is_not_in_the_none():
    """P1 chose to keep the Isamaru ``i`` already on the battlefield; the engine lost it entirely."""
    def gone(obs):
        obs["objects"].pop("i")
        obs["zones"]["battlefield"].remove("i")
    messages = _messages("legend_rule.controller_chooses", with_after(second_isamaru(keep="i"), gone))
    assert any("was chosen to stay under the legend rule but is no longer observed" in m for m in messages), messages
    assert not any("in the None" in m for m in messages)


def test_a_token_left_in_a_graveyard_names_the_entry_expected():
    t = with_after(murdered_token(), lambda o: (o["objects"].update(b={**t0["objects"]["b"], **GRAVEYARD}),
                                                o["zones"]["graveyard"]["P1"].append("b")))
    messages = _messages("sba.token_zone", t)
    assert '"object": "b", "from": "graveyard", "to": null' in messages[0]


t0 = murdered_token().before


def test_an_aura_on_a_dead_creature_says_where_its_creature_is():
    from .test_invariants import murder_kills_enchanted_bears

    t = with_after(murder_kills_enchanted_bears(), lambda o: (
        o["objects"]["h"].update(zone="battlefield", attached_to="b"), o["zones"]["graveyard"]["P1"].remove("h"),
        o["zones"]["battlefield"].append("h")))
    [message] = _messages("sba.unattached_aura", t)
    assert "attached to 'b', not a permanent (an object in the graveyard)" in message


def test_a_creature_left_standing_names_the_replacement_entry_missing():
    from .test_invariants import deathtouch_ignored

    messages = _messages("zones.destroyed_unless_replaced", deathtouch_ignored())
    assert "no replacement entry for it" in messages[0] and '"affected": "b"' in messages[0]


def test_a_mana_pool_left_full_says_it_must_be_empty():
    from .mana_invariant_cases import _set_pool, altered, obj, run, tap

    t = altered(run([obj("f", "Forest")], [tap("f"), {"type": "pass_step"}]), _set_pool("P1", G=1))
    [message] = _messages("mana.pool_empties", t)
    assert "expected it empty" in message and "players.P1.mana_pool" in message
