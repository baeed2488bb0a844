"""The stack and priority (capability ``stack``): one scenario per rule, in games whose board says
``"stack": true``, with the expected values worked out by hand from the Comprehensive Rules and the
cards' Oracle text (quoted); then the invariants of ``invariants.stack`` on the steps of planted bugs
(the stack mutants), and the generation of stack games on the reference engine (counts, not time).
"""

from __future__ import annotations

import collections
import copy
import dataclasses

import pytest

from harness.adapters.reference import ReferenceAdapter
from harness.running.machine import EngineMachine, rule_gates
from harness.generation.plan import Plan
from harness.protocol import IllegalAction as ProtocolIllegal, Transition
from harness.running.runner import run
from invariants import REGISTRY
from reference_engine import IllegalAction, ReferenceEngine, Unsupported
from reference_engine.stack import copied_event
from tests.mutants import MUTANTS
from tests.scenario_helpers import Decider, activate, aura, board, obj


def stack_game(*objects, first="P1"):
    spec = board(*objects)
    if first != "P1":
        spec["players"].reverse()
    return ReferenceEngine().new_game({**spec, "stack": True})


def cast(card, oid, by="P1", targets=(), **extra):
    return {"type": "cast", "card": card, "controller": by, "targets": list(targets), "id": oid, **extra}


def pass_(player):
    return {"type": "pass_priority", "player": player}


def play(game, event, *answers):
    decider = Decider(*answers)
    game.apply(event, decider)
    assert decider.answers == [], decider.answers
    return game.observe()


def refused(game, event, reason):
    before = game.observe()
    with pytest.raises(IllegalAction) as info:
        game.apply(event, Decider())
    assert info.value.reason == reason, info.value
    assert game.observe() == before


def ids(observation):
    return [e["id"] for e in observation["stack"]]


def kinds(observation, kind):
    return [e for e in observation["log"] if e["kind"] == kind]


def both_pass(game, *answers):
    """The player holding priority passes, then the other (CR 117.4): the top object resolves."""
    holder = game.observe()["priority"]["player"]
    play(game, pass_(holder))
    other = game.observe()["priority"]["player"]
    return play(game, pass_(other), *answers)


# ---------------------------------------------------------------- casting and passing
def test_a_spell_waits_on_the_stack_until_both_players_pass():
    """CR 601.2a: the spell moves to the stack; 117.3c: its caster receives priority; 117.3d: a pass
    gives priority to the next player; 117.4: when both have passed in succession the top resolves;
    608.2n: Murder ("Destroy target creature.") goes to its owner's graveyard; 117.3b: the active
    player receives priority."""
    game = stack_game(obj("bears", "Grizzly Bears", "P2"))
    after = play(game, cast("Murder", "m", targets=["bears"]))
    assert after["stack"] == [{"id": "m", "kind": "spell", "card": "Murder", "source": None, "controller": "P1",
                               "targets": ["bears"], "trigger": None, "ability": None}]
    assert after["objects"]["bears"]["zone"] == "battlefield" and "m" not in after["objects"]
    assert after["priority"] == {"player": "P1", "passed": [], "active_player": "P1"}
    assert kinds(after, "put_on_stack") == [{"kind": "put_on_stack", "object": "m", "stack_kind": "spell",
                                             "controller": "P1", "targets": ["bears"]}]
    after = play(game, pass_("P1"))
    assert ids(after) == ["m"] and after["objects"]["bears"]["zone"] == "battlefield"
    assert after["priority"] == {"player": "P2", "passed": ["P1"], "active_player": "P1"}
    after = play(game, pass_("P2"))
    assert after["stack"] == [] and after["objects"]["bears"]["zone"] == "graveyard"
    assert after["objects"]["m"]["zone"] == "graveyard" and after["zones"]["graveyard"]["P1"] == ["m"]
    assert after["priority"] == {"player": "P1", "passed": [], "active_player": "P1"}
    assert after["log"][0] == {"kind": "resolved", "object": "m"}
    assert {"kind": "zone_change", "object": "m", "from": "stack", "to": "graveyard",
            "cause": {"event": "resolution", "rule": "608.2n"}} in after["log"]


def test_priority_and_timing_refusals():
    """CR 117.1: only the player holding priority casts or passes; 307.1: a sorcery (Wrath of God)
    only with the stack empty; 500.2: a step doesn't end while the stack isn't empty; a pass with
    nothing on the stack is no pass over anything; a game without the stack has no pass."""
    game = stack_game(obj("bears", "Grizzly Bears", "P2"))
    refused(game, pass_("P1"), "empty_stack")
    refused(game, cast("Shock", "s", by="P2", targets=["P1"]), "no_priority")
    play(game, cast("Shock", "s", targets=["bears"]))
    refused(game, cast("Wrath of God", "w"), "sorcery_timing")
    refused(game, pass_("P2"), "no_priority")
    refused(game, {"type": "pass_step"}, "stack_not_empty")
    refused(game, {"type": "begin_turn", "player": "P2"}, "stack_not_empty")
    refused(game, {"type": "cast", "card": "Shock", "controller": "P1", "targets": ["P2"]}, "bad_event")  # no id
    plain = ReferenceEngine().new_game(board(obj("bears", "Grizzly Bears")))
    refused(plain, pass_("P1"), "no_stack")


def test_the_other_player_responds_and_the_last_spell_resolves_first():
    """CR 405.5, 608.1: last in, first out. Shock ("deals 2 damage to any target") at Grizzly Bears
    (2/2); P2 responds with Giant Growth ("Target creature gets +3/+3 until end of turn"): it resolves
    first, so the 5/5 Bears survive Shock's 2 damage."""
    game = stack_game(obj("bears", "Grizzly Bears", "P2"))
    play(game, cast("Shock", "s", targets=["bears"]))
    play(game, pass_("P1"))
    after = play(game, cast("Giant Growth", "g", by="P2", targets=["bears"]))
    assert ids(after) == ["s", "g"] and after["priority"] == {"player": "P2", "passed": [], "active_player": "P1"}
    after = both_pass(game)
    assert ids(after) == ["s"] and after["objects"]["bears"]["power"] == 5
    after = both_pass(game)
    bears = after["objects"]["bears"]
    assert after["stack"] == [] and bears["zone"] == "battlefield" and bears["damage"] == 2
    assert after["zones"]["graveyard"]["P1"] == ["s"] and after["zones"]["graveyard"]["P2"] == ["g"]


def test_an_event_between_passes_starts_the_succession_again():
    """CR 117.4: "if all players pass in succession (that is, if all players pass without taking any
    actions in between passing)": an effect between the passes means the other player's pass
    doesn't resolve anything."""
    game = stack_game(obj("bears", "Grizzly Bears", "P2"), obj("rats", "Typhoid Rats"))
    play(game, cast("Murder", "m", targets=["bears"]))
    play(game, pass_("P1"))
    play(game, {"type": "modify_pt", "object": "rats", "power": 1, "toughness": 1})
    after = play(game, pass_("P2"))
    assert ids(after) == ["m"] and after["priority"]["passed"] == ["P2"]
    after = play(game, pass_("P1"))
    assert after["stack"] == [] and after["objects"]["bears"]["zone"] == "graveyard"


# ---------------------------------------------------------------- illegal targets (608.2b)
def test_a_spell_whose_target_left_does_nothing_and_goes_to_the_graveyard():
    """CR 608.2b: Breathe Your Last ("Destroy target creature or planeswalker. You gain 1 life for each
    of its colors.") whose only target was sacrificed in response doesn't resolve: P1 gains no life
    (Grizzly Bears is green: 1 life had it resolved), the card goes to its owner's graveyard."""
    game = stack_game(obj("bears", "Grizzly Bears", "P2"))
    play(game, cast("Breathe Your Last", "b", targets=["bears"]))
    play(game, {"type": "sacrifice", "object": "bears"})
    after = both_pass(game)
    assert after["players"]["P1"]["life"] == 20
    assert after["stack"] == [] and after["objects"]["b"]["zone"] == "graveyard"
    assert kinds(after, "removed_from_stack") == [{"kind": "removed_from_stack", "object": "b",
                                                   "reason": "all targets illegal"}]
    assert not kinds(after, "resolved") and not kinds(after, "life_gained")
    assert {"kind": "zone_change", "object": "b", "from": "stack", "to": "graveyard",
            "cause": {"event": "resolution", "rule": "608.2b"}} in after["log"]


def test_a_target_that_left_and_came_back_is_a_new_object():
    """CR 400.7, 608.2b: Murder at Grizzly Bears; in response the Bears are sacrificed and Order of
    Whiteclay ("{1}{W}{W}, {Q}: Return target creature card with converted mana cost 3 or less from your
    graveyard to the battlefield") returns them: the card that came back is a new object, Murder's
    target is illegal and it doesn't resolve; the Bears stay on the battlefield."""
    game = stack_game(obj("bears", "Grizzly Bears"), obj("order", "Order of Whiteclay", tapped=True),
                      obj("w1", "Plains"), obj("w2", "Plains"), obj("w3", "Plains"))
    play(game, cast("Murder", "m", targets=["bears"]))
    play(game, {"type": "sacrifice", "object": "bears"})
    for land in ("w1", "w2", "w3"):
        play(game, activate(land))  # "{T}: Add {W}": a mana ability, at once (CR 605.3a)
    after = play(game, activate("order"))  # {1}{W}{W} from the pool of WWW; its one legal target
    assert ids(after) == ["m", "order.ability1"] and after["objects"]["bears"]["zone"] == "graveyard"
    assert after["stack"][1]["targets"] == ["bears"] and after["stack"][1]["ability"] == 0
    after = both_pass(game)
    assert after["objects"]["bears"]["zone"] == "battlefield"
    after = both_pass(game)
    assert after["objects"]["bears"]["zone"] == "battlefield"
    assert kinds(after, "removed_from_stack")[0]["object"] == "m"


# ---------------------------------------------------------------- triggered abilities
def _walkers():
    return (obj("k0", "Hangarback Walker", "P1", counters={"+1/+1": 1}),
            obj("k1", "Hangarback Walker", "P2", counters={"+1/+1": 2}))


def test_triggers_go_on_the_stack_in_apnap_order_and_wait():
    """CR 603.3b: Wrath of God kills both players' Hangarback Walkers ("When Hangarback Walker dies,
    create a 1/1 colorless Thopter artifact creature token with flying for each +1/+1 counter on
    Hangarback Walker"): the active player P1's ability goes on the stack first, P2's on top, so P2's
    resolves first; they wait until both players pass (117.4). Thopters as each last existed
    (603.10a): 2 for P2, then 1 for P1."""
    game = stack_game(*_walkers())
    play(game, cast("Wrath of God", "w"))
    after = both_pass(game)
    assert [(e["id"], e["controller"], e["trigger"]) for e in after["stack"]] == [
        ("k0.ability1", "P1", "dies"), ("k1.ability1", "P2", "dies")]
    assert after["priority"] == {"player": "P1", "passed": [], "active_player": "P1"}
    assert not [o for o in after["objects"].values() if o["name"] == "Thopter Token"]
    after = both_pass(game)
    assert sorted(o for o, v in after["objects"].items() if v["token"]) == ["k1.thopter1", "k1.thopter2"]
    after = both_pass(game)
    assert after["stack"] == [] and after["objects"]["k0.thopter1"]["controller"] == "P1"


def test_apnap_order_follows_the_active_player():
    """CR 603.3b, 117.3a: after begin_turn P2 is the active player and receives priority; its ability
    goes on the stack first, so P1's resolves first."""
    game = stack_game(*_walkers())
    after = play(game, {"type": "begin_turn", "player": "P2"})
    assert after["priority"] == {"player": "P2", "passed": [], "active_player": "P2"}
    after = play(game, {"type": "destroy", "targets": ["k0", "k1"], "cant_be_regenerated": False})
    assert [e["controller"] for e in after["stack"]] == ["P2", "P1"]


def test_a_player_orders_their_own_triggers():
    """CR 603.3b: P1 controls both abilities and chooses their order (decider kind trigger_order): the
    one chosen first goes on the stack first and resolves last."""
    game = stack_game(obj("k0", "Hangarback Walker", counters={"+1/+1": 1}),
                      obj("k1", "Hangarback Walker", counters={"+1/+1": 2}))
    decider = Decider("dies:k1")
    game.apply({"type": "destroy", "targets": ["k0", "k1"], "cant_be_regenerated": False}, decider)
    assert decider.asked == [("P1", "trigger_order", ["dies:k0", "dies:k1"])]
    assert ids(game.observe()) == ["k1.ability1", "k0.ability1"]


def test_penumbra_umbra_copies_the_creature_as_it_last_existed():
    """CR 603.10a, 608.2h and Penumbra Umbra's ruling: "If the enchanted creature is no longer on the
    battlefield when Penumbra Umbra's second ability resolves, use its copiable values as it last
    existed on the battlefield." Umbra armor saves Grizzly Bears from destruction and destroys the
    Aura (702.89a); the Bears are sacrificed before the ability resolves: it still makes a black
    2/2 Grizzly Bears token for P1."""
    game = stack_game(obj("bears", "Grizzly Bears"), aura("pen", "Penumbra Umbra", "bears"))
    after = play(game, {"type": "destroy", "targets": ["bears"], "cant_be_regenerated": False})
    assert after["objects"]["bears"]["zone"] == "battlefield" and after["objects"]["pen"]["zone"] == "graveyard"
    assert after["stack"][0]["source"] == "pen" and after["stack"][0]["trigger"] == "put into a graveyard"
    play(game, {"type": "sacrifice", "object": "bears"})
    after = both_pass(game)
    token = after["objects"]["pen.token"]
    assert (token["name"], token["colors"], token["power"], token["toughness"], token["controller"], token["token"]) \
        == ("Grizzly Bears", ["B"], 2, 2, "P1", True)


def test_an_ability_on_the_stack_is_paid_for_at_once_and_resolves_later():
    """CR 602.2: Sakura-Tribe Elder ("Sacrifice Sakura-Tribe Elder: Search your library for a basic land
    card, put that card onto the battlefield tapped") is sacrificed as the cost; the search happens
    only when the ability resolves. A Forest's mana ability still resolves at once (605.3a)."""
    game = stack_game(obj("elder", "Sakura-Tribe Elder"), obj("f", "Forest"),
                      obj("lib", "Forest", zone="library"))
    after = play(game, activate("f"))
    assert after["stack"] == [] and after["players"]["P1"]["mana_pool"]["G"] == 1
    after = play(game, activate("elder"))
    assert after["objects"]["elder"]["zone"] == "graveyard" and after["objects"]["lib"]["zone"] == "library"
    assert after["stack"][0]["id"] == "elder.ability1" and after["stack"][0]["kind"] == "ability"
    after = both_pass(game, "lib")
    assert after["objects"]["lib"]["zone"] == "battlefield" and after["objects"]["lib"]["tapped"]


def test_a_token_id_taken_before_the_spell_resolves_is_declined():
    """Raise the Alarm names its tokens as it is cast; an id taken by another object meanwhile can't be
    given to its token: the reference engine declines (Unsupported) rather than judge."""
    game = stack_game()
    play(game, cast("Raise the Alarm", "r", token_ids=["t1", "t2"]))
    play(game, {"type": "put_onto_battlefield", "id": "t1", "card": "Grizzly Bears", "controller": "P1",
                "attach_to": None})
    play(game, pass_("P1"))
    with pytest.raises(Unsupported):
        game.apply(pass_("P2"), Decider())


# ---------------------------------------------------------------- the invariants on planted bugs
def _steps(engine, spec, events, answers=()):
    """The transitions of ``events`` on ``engine`` (a ReferenceAdapter) from board ``spec``."""
    game = engine.new_game({**spec, "stack": True})
    before, out = game.observe(), []
    for event in events:
        try:
            game.apply(event, Decider(*answers.get(len(out), ())) if answers else Decider())
        except ProtocolIllegal as exc:
            out.append(Transition(before, event, game.observe(), exc.reason))
            continue
        after = game.observe()
        out.append(Transition(before, event, after))
        before = after
    return out


def _violated(name, transitions):
    check = REGISTRY[name].check
    return [m for t in transitions for m in (check(t) or [])]


MURDER = (board(obj("bears", "Grizzly Bears", "P2")), [cast("Murder", "m", targets=["bears"]), pass_("P1"),
                                                       pass_("P2")])
SHOCK_GROWTH = (board(obj("bears", "Grizzly Bears", "P2")),
                [cast("Shock", "s", targets=["bears"]), cast("Giant Growth", "g", targets=["bears"]), pass_("P1"),
                 pass_("P2")])
WRATH = (board(*_walkers()), [cast("Wrath of God", "w"), pass_("P1"), pass_("P2")])
FIZZLE = (board(obj("bears", "Grizzly Bears", "P2")),
          [cast("Breathe Your Last", "b", targets=["bears"]), {"type": "sacrifice", "object": "bears"}, pass_("P1"),
           pass_("P2")])
PENUMBRA = (board(obj("bears", "Grizzly Bears"), aura("pen", "Penumbra Umbra", "bears")),
            [{"type": "destroy", "targets": ["bears"], "cant_be_regenerated": False},
             {"type": "sacrifice", "object": "bears"}, pass_("P1"), pass_("P2")])


@pytest.mark.parametrize("mutant, scenario, invariant", [
    ("stack_resolves_before_all_pass", MURDER, "stack.resolves_only_when_all_pass"),
    ("stack_resolves_fifo", SHOCK_GROWTH, "stack.last_in_first_out"),
    ("stack_triggers_nap_first", WRATH, "stack.triggers_in_apnap_order"),
    ("stack_fizzled_spell_partly_resolves", FIZZLE, "stack.illegal_targets_no_effect"),
    ("stack_trigger_current_information", PENUMBRA, "stack.penumbra_copies_as_it_last_existed"),
])
def test_each_stack_invariant_catches_its_mutant_and_passes_the_reference(mutant, scenario, invariant):
    spec, events = scenario
    assert _violated(invariant, _steps(ReferenceAdapter(), spec, events)) == []
    assert _violated(invariant, _steps(MUTANTS[mutant].load(), spec, events)), mutant


def test_every_stack_invariant_holds_on_the_scenarios_of_the_reference():
    for spec, events in (MURDER, SHOCK_GROWTH, WRATH, FIZZLE, PENUMBRA):
        steps = _steps(ReferenceAdapter(), spec, events)
        for name, inv in REGISTRY.items():
            if inv.scope == "step" and name.startswith(("stack.", "generic.", "sba.")):
                assert _violated(name, steps) == [], name


def test_the_other_step_invariants_are_not_applicable_while_objects_wait_on_the_stack():
    steps = _steps(ReferenceAdapter(), *MURDER)
    assert REGISTRY["zones.destroyed_without_replacement_leaves"].check(steps[0]) is None  # Murder cast, not resolved
    assert REGISTRY["generic.objects_conserved"].check(steps[2]) == []  # the Murder card appears from the stack


# ---------------------------------------------------------------- generation
class Watching:
    """The reference engine, counting what the harness gives it: event types, boards with the stack,
    resolutions and spells that didn't resolve."""

    def __init__(self, engine):
        self.inner, self.info = engine, engine.info
        self.seen = collections.Counter()

    def new_game(self, spec):
        self.seen["stack boards" if spec.get("stack") else "boards"] += 1
        game, seen = self.inner.new_game(spec), self.seen

        class Game:
            def apply(self, event, decider):
                seen[event["type"]] += 1
                game.apply(event, decider)
                for entry in game.observe()["log"]:
                    if entry["kind"] in ("resolved", "removed_from_stack", "put_on_stack"):
                        seen[entry["kind"]] += 1

            def observe(self):
                return game.observe()

        return Game()


def test_the_reference_engine_plays_stack_games_and_stays_clean(outside_coverage):
    engine = Watching(ReferenceAdapter())
    result = run(engine, max_examples=40, seed=3, database=None, invariant_names=[
        n for n in REGISTRY if n.startswith(("stack.", "generic.", "sba."))])
    assert result.violation is None, result.violation
    seen = engine.seen
    assert seen["stack boards"] > 0 and seen["pass_priority"] > 0, seen
    assert seen["put_on_stack"] > 0 and seen["resolved"] > 0, seen


def test_an_engine_without_stack_gets_no_stack_game():
    plain = ReferenceAdapter(name="reference-without-stack")
    plain.info = dataclasses.replace(plain.info, capabilities=plain.info.capabilities - {"stack"})
    gates = rule_gates(EngineMachine, Plan.for_info(plain.info))
    for name in ("stack_cast_respond_pass", "stack_triggers_then_pass", "stack_target_leaves",
                 "stack_umbra_then_response", "stack_respond_then_pass", "pass_priority"):
        assert gates[name] is not None, name
    engine = Watching(plain)
    assert run(engine, max_examples=15, seed=3, database=None).violation is None
    assert engine.seen["stack boards"] == 0 and engine.seen["pass_priority"] == 0, engine.seen


def test_a_stack_entry_keeps_a_copy_of_its_event_that_shares_nothing_with_it():
    """A spell's entry keeps its cast event (CR 601.2: what was announced as it was cast), a copy
    made as copy.deepcopy makes it: equal, with no dict or list of the event's, the event's
    values that are not JSON copied by copy.deepcopy (a tuple of lists gets new lists)."""
    event = {"type": "cast", "card": "Shock", "targets": ["b"], "x": 2, "flag": True, "none": None,
             "nested": {"ids": ["a", "b"], "amount": 1.5}, "odd": (["l"], "s")}
    copied = copied_event(event)
    assert copied == copy.deepcopy(event) and type(copied["odd"]) is tuple
    assert copied is not event and copied["targets"] is not event["targets"]
    assert copied["nested"] is not event["nested"] and copied["nested"]["ids"] is not event["nested"]["ids"]
    assert copied["odd"][0] is not event["odd"][0]
