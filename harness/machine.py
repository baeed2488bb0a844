"""The Hypothesis state machine that drives an engine through the protocol.

``@initialize`` draws a board and fills the ``objects`` Bundle with its object ids; each
``@rule`` builds one event whose objects come from that Bundle (so events also hit
objects that have left the battlefield, which must be refused without change); after
every step the session checks every selected invariant. Rules whose capability the
engine doesn't claim are switched off by preconditions.

:func:`make_machine` binds a machine class to an engine, its invariants and a
:class:`Recorder` that keeps the smallest failing scenario on disk as soon as it is
found, so an interrupted run loses nothing.
"""

from __future__ import annotations

import copy
import time

from hypothesis import reject
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, initialize, multiple, precondition, rule

from invariants import ScenarioRun, Violation

from . import interrupts
from . import scenario as scenario_file
from . import strategies as S
from .decider import DrawingDecider, ReplayDecider, ReplayDiverged
from .execution import Declined, EngineFailed, Session, Stats, engine_call


class InvariantViolation(AssertionError):
    """Raised by the machine when a step breaks an invariant; carries the scenario."""

    def __init__(self, violations: list[Violation], scenario: dict):
        self.violations = violations
        self.scenario = scenario
        first = violations[0]
        super().__init__(f"{first.invariant} at step {first.step}: {'; '.join(first.messages)}")


class Recorder:
    """Keeps the smallest failing scenario seen so far and writes it to ``path``.

    Smallest means fewest steps, then fewest board objects. ``first_failure_example``
    is the example count when the first failure was seen.
    """

    def __init__(self, path=None, engine=None, seed=None):
        self.path = path
        self.engine = engine
        self.seed = seed
        self.best: dict | None = None
        self.failures = 0
        self.first_failure_example: int | None = None
        self.started = time.perf_counter()
        self.first_failure_seconds: float | None = None

    @staticmethod
    def size(scenario: dict) -> tuple:
        return (len(scenario["steps"]), len(scenario["board"]["objects"]),
                sum(len(s.get("decisions", ())) for s in scenario["steps"]))

    def found(self, scenario: dict, examples: int) -> None:
        self.failures += 1
        if self.first_failure_example is None:
            self.first_failure_example = examples
            self.first_failure_seconds = time.perf_counter() - self.started
        if self.best is None or self.size(scenario) < self.size(self.best):
            self.best = scenario
            if self.path is not None:
                scenario_file.save(scenario, self.path)


def scenario_run(engine, session: Session) -> ScenarioRun:
    """A :class:`ScenarioRun` of a finished session: its replay uses a fresh game."""

    def again(every_step: bool = True):
        from .protocol import IllegalAction, Unsupported

        timeout = session.step_timeout
        observations = []
        try:
            fresh = engine_call("new_game", engine.new_game, copy.deepcopy(session.board), timeout=timeout)
            if every_step:
                observations.append(engine_call("observe", fresh.observe, timeout=timeout))
            for step in session.steps:
                try:
                    engine_call("apply", fresh.apply, copy.deepcopy(step["event"]),
                                ReplayDecider(step.get("decisions", []), strict=True), timeout=timeout)
                except IllegalAction:
                    pass
                if every_step:
                    observations.append(engine_call("observe", fresh.observe, timeout=timeout))
            return observations if every_step else [engine_call("observe", fresh.observe, timeout=timeout)]
        except ReplayDiverged as exc:
            return observations + [{"replay diverged": str(exc)}]
        except (EngineFailed, Unsupported) as exc:  # a game that went differently the second time
            return observations + [{"replay failed": f"{type(exc).__name__}: {exc}"}]

    return ScenarioRun(session.board, [s["event"] for s in session.steps], session.observations, again)


def needs(capability: str):
    return precondition(lambda self: capability in self.capabilities)


class EngineMachine(RuleBasedStateMachine):
    """Rules for umbra armor, and for layers, counters and copies. Use :func:`make_machine` to bind an engine."""

    engine = None
    step_invariants: list = []
    scenario_invariants: list = []
    run_stats: Stats = None
    recorder: Recorder = None
    capabilities: frozenset = frozenset()
    step_timeout: float | None = None
    against = None
    max_creatures = 4
    max_auras = 3

    objects = Bundle("objects")

    def __init__(self):
        super().__init__()
        self.session: Session | None = None
        self.new_ids = 0
        self.copies: list[str] = []  # ids the log shows entering as copies (CR 707)
        # Rare objects whose copies show a copy rule: Penumbra Umbra's black tokens (a copy
        # with an exception, CR 707.9b) and creatures cast with X >= 1 (CR 107.3m).
        self.special: list[str] = []
        self._live_cache: tuple | None = None

    # ------------------------------------------------------------------ driving
    @initialize(target=objects, board=st.deferred(lambda: S.boards(EngineMachine.max_creatures,
                                                                   EngineMachine.max_auras)))
    def setup(self, board):
        interrupts.check()
        self.run_stats.examples += 1
        try:
            self.session = Session(self.engine, board, self.step_invariants, self.run_stats, self.step_timeout,
                                   self.against)
        except Declined as exc:
            self._decline(exc)
        if self.session.initial_violations:  # the engine raised or hung on the board, or observed it malformed
            self._found(self.session.initial_violations)
        return multiple(*(o["id"] for o in board["objects"]))

    def _found(self, violations: list[Violation]) -> None:
        """Record the scenario of this example (the smallest is kept on disk) and fail it."""
        session = self.session
        scenario = scenario_file.build(session.board, session.steps, violations, self.engine, self.recorder.seed)
        if session.output:
            scenario["engine_output"] = session.output
        self.recorder.found(scenario, self.run_stats.examples)
        raise InvariantViolation(violations, scenario)

    def _decline(self, exc: Declined) -> None:
        """End the example without blame: the engine doesn't model what it needs (counted by reason).

        Hypothesis counts the example as rejected, so shrinking never turns a finding into
        a declined example.
        """
        self.run_stats.declined(exc)
        reject()

    def _apply(self, event: dict, data) -> None:
        interrupts.check()
        try:
            violations = self.session.step(event, DrawingDecider(data))
        except Declined as exc:
            self._decline(exc)
        objects = self.session.observation.get("objects", {})
        for entry in self.session.observation.get("log", ()):
            cause = entry.get("cause") if isinstance(entry, dict) else None
            if entry.get("kind") == "zone_change" and isinstance(cause, dict) and cause.get("copy_of"):
                self.copies.append(entry["object"])
                if (objects.get(cause.get("by")) or {}).get("name") == "Penumbra Umbra":
                    self.special.append(entry["object"])
        if event.get("type") == "put_onto_battlefield" and event.get("x"):
            self.special.append(event.get("id"))
        if violations:
            self._found(violations)

    def _new_id(self) -> str:
        self.new_ids += 1
        return f"n{self.new_ids}"

    def teardown(self):
        session = self.session
        if session is None or session.broken or not self.scenario_invariants or not session.steps:
            return
        run = scenario_run(self.engine, session)
        for inv in self.scenario_invariants:
            messages = inv.check(run)
            self.run_stats.checked[inv.name] = self.run_stats.checked.get(inv.name, 0) + 1
            self.run_stats.applicable[inv.name] = self.run_stats.applicable.get(inv.name, 0) + 1
            if messages:
                self._found([Violation(inv.name, len(session.steps), tuple(messages))])

    # ------------------------------------------------------------------ live targets
    # Rules drawing from the Bundle also hit objects that have left the battlefield (the
    # engine must refuse those without change); these draw from the permanents on the
    # battlefield now, so most events do something.
    def _live(self, keyword: str | None = None) -> list[str]:
        observation = self.session.observation
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

    def _live_auras(self) -> list[str]:
        objects = self.session.observation["objects"]
        return [oid for oid, o in objects.items() if o["zone"] == "battlefield" and "Aura" in o.get("subtypes", ())]

    def has_aura(self) -> bool:
        return self.session is not None and bool(self._live_auras()) and bool(self._live())

    def _pick(self, data, options: list[str], label: str) -> str:
        return data.draw(st.sampled_from(sorted(options)), label=label)

    def _pick_interesting(self, data, options: list[str], interesting, label: str) -> str:
        """One of ``options``: a quarter of the time any, else (when there is one) one for which
        ``interesting(observed object)`` holds, one that entered as a copy, or a rare one
        (a copy with an exception, a creature cast with X).

        Reaches on purpose the states the rulings talk about (DESIGN: long runs should
        reach rare states on purpose): copies of tokens, of copies, of creatures cast
        with X, of creatures with enters abilities or counters or an Octopus Umbra.
        """
        objects = self.session.observation["objects"]
        chosen = [oid for oid in options if interesting(objects[oid])]
        copies = [oid for oid in options if oid in self.copies]
        special = [oid for oid in options if oid in self.special]
        tier = data.draw(st.integers(0, 3), label=f"{label} of interest")
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

    @needs("destroy")
    @precondition(has_creature)
    @rule(spell=st.sampled_from(S.DESTROY_SPELLS), caster=S.players, data=st.data())
    def cast_destroy_on_creature(self, spell, caster, data):
        victim = data.draw(st.sampled_from(self._live()), label="victim")
        self._apply({"type": "cast", "card": spell, "controller": caster, "targets": [victim]}, data)

    @needs("damage")
    @precondition(has_creature)
    @rule(spell=st.sampled_from(S.DAMAGE_SPELLS), caster=S.players, data=st.data())
    def cast_damage_on_creature(self, spell, caster, data):
        victim = data.draw(st.sampled_from(self._live()), label="victim")
        self._apply({"type": "cast", "card": spell, "controller": caster, "targets": [victim]}, data)

    @needs("deathtouch")
    @precondition(has_deathtouch)
    @rule(amount=st.integers(1, 4), data=st.data())
    def deathtouch_damage(self, amount, data):
        source = data.draw(st.sampled_from(self._live("deathtouch")), label="source")
        victim = data.draw(st.sampled_from(self._live()), label="victim")
        self._apply({"type": "damage", "source": source, "target": victim, "amount": amount}, data)

    @needs("umbra_armor")
    @precondition(has_creature)
    @rule(target=objects, card=st.sampled_from(S.UMBRA_AURAS), controller=S.players, data=st.data())
    def put_umbra_on_creature(self, card, controller, data):
        host = data.draw(st.sampled_from(self._live()), label="host")
        oid = self._new_id()
        self._apply({"type": "put_onto_battlefield", "id": oid, "card": card, "controller": controller,
                     "attach_to": host}, data)
        return oid

    def _live_umbra_auras(self) -> list[str]:
        objects = self.session.observation["objects"]
        return sorted(oid for oid, o in objects.items() if o["zone"] == "battlefield" and "umbra armor" in o["keywords"]
                      and (objects.get(o["attached_to"]) or {}).get("zone") == "battlefield")

    def has_umbra_aura(self) -> bool:
        return self.session is not None and bool(self._live_umbra_auras())

    @needs("destroy")
    @needs("umbra_armor")
    @precondition(has_umbra_aura)
    @rule(data=st.data())
    def destroy_with_its_aura(self, data):
        """One effect destroys a permanent and its umbra Aura, in either order (Planar Cleansing;
        ruling Hyena Umbra 2010-06-15: the Aura is destroyed "in two different ways at the same time")."""
        aura = data.draw(st.sampled_from(self._live_umbra_auras()), label="aura")
        host = self.session.observation["objects"][aura]["attached_to"]
        targets = data.draw(st.permutations([aura, host]), label="targets")
        self._apply({"type": "destroy", "targets": targets, "cant_be_regenerated": data.draw(st.booleans())}, data)

    # ------------------------------------------------------------------ events
    @needs("destroy")
    @rule(spell=st.sampled_from(S.DESTROY_SPELLS), victim=objects, caster=S.players, data=st.data())
    def cast_destroy(self, spell, victim, caster, data):
        self._apply({"type": "cast", "card": spell, "controller": caster, "targets": [victim]}, data)

    @needs("destroy")
    @rule(caster=S.players, data=st.data())
    def cast_wrath_of_god(self, caster, data):
        self._apply({"type": "cast", "card": "Wrath of God", "controller": caster, "targets": []}, data)

    @needs("damage")
    @rule(spell=st.sampled_from(S.DAMAGE_SPELLS), victim=st.one_of(objects, S.players), caster=S.players,
          data=st.data())
    def cast_damage(self, spell, victim, caster, data):
        self._apply({"type": "cast", "card": spell, "controller": caster, "targets": [victim]}, data)

    @needs("damage")
    @rule(source=objects, victim=objects, amount=st.integers(1, 6), data=st.data())
    def deal_damage(self, source, victim, amount, data):
        self._apply({"type": "damage", "source": source, "target": victim, "amount": amount}, data)

    @needs("destroy")
    @rule(victims=st.lists(objects, min_size=1, max_size=3, unique=True), cant=st.booleans(), data=st.data())
    def destroy(self, victims, cant, data):
        self._apply({"type": "destroy", "targets": victims, "cant_be_regenerated": cant}, data)

    @needs("sacrifice")
    @rule(obj=objects, data=st.data())
    def sacrifice(self, obj, data):
        self._apply({"type": "sacrifice", "object": obj}, data)

    @needs("pt_until_end_of_turn")
    @rule(obj=objects, n=st.integers(-4, 3), data=st.data())
    def modify_pt(self, obj, n, data):
        self._apply({"type": "modify_pt", "object": obj, "power": n, "toughness": n}, data)

    @needs("pt_until_end_of_turn")
    @rule(obj=objects, caster=S.players, data=st.data())
    def cast_giant_growth(self, obj, caster, data):
        self._apply({"type": "cast", "card": "Giant Growth", "controller": caster, "targets": [obj]}, data)

    @rule(target=objects, card=st.sampled_from(sorted(S.CREATURES)), controller=S.players, data=st.data())
    def put_creature(self, card, controller, data):
        oid = self._new_id()
        self._apply({"type": "put_onto_battlefield", "id": oid, "card": card, "controller": controller,
                     "attach_to": None}, data)
        return oid

    @needs("umbra_armor")
    @rule(target=objects, card=st.sampled_from(S.UMBRA_AURAS), host=objects, controller=S.players, data=st.data())
    def put_umbra(self, card, host, controller, data):
        oid = self._new_id()
        self._apply({"type": "put_onto_battlefield", "id": oid, "card": card, "controller": controller,
                     "attach_to": host}, data)
        return oid

    @needs("legend_rule")
    @rule(target=objects, controller=S.players, data=st.data())
    def put_legend(self, controller, data):
        oid = self._new_id()
        self._apply({"type": "put_onto_battlefield", "id": oid, "card": S.LEGENDS[0], "controller": controller,
                     "attach_to": None}, data)
        return oid

    @needs("umbra_armor")
    @rule(aura=objects, to=objects, data=st.data())
    def attach(self, aura, to, data):
        if self._penumbra_would_copy_a_legend(aura, to):
            return
        self._apply({"type": "attach", "aura": aura, "to": to}, data)

    def _penumbra_would_copy_a_legend(self, aura: str, host: str) -> bool:
        """Whether ``aura`` is (or names) Penumbra Umbra and ``host`` is a legendary permanent.

        The generator never puts Penumbra Umbra on a legend: when umbra armor destroys it
        instead of the legend, its token copy of the legend starts the legend rule inside
        the same event, and the umbra armor invariants, which predict what the event
        destroys, would count the legend put into the graveyard by CR 704.5j as a
        creature umbra armor failed to save.
        """
        objects = self.session.observation["objects"]
        name = objects[aura].get("name") if aura in objects else aura
        return name == "Penumbra Umbra" and "Legendary" in (objects.get(host) or {}).get("supertypes", ())

    @needs("regeneration")
    @rule(obj=objects, data=st.data())
    def activate_regeneration(self, obj, data):
        self._apply({"type": "activate_regeneration", "object": obj}, data)

    @needs("combat_status")
    @rule(obj=objects, status=st.sampled_from(S.COMBAT), data=st.data())
    def set_combat(self, obj, status, data):
        self._apply({"type": "set_combat", "object": obj, "status": status}, data)

    @needs("cleanup")
    @rule(data=st.data())
    def cleanup(self, data):
        self._apply({"type": "cleanup"}, data)

    # ------------------------------------------------ layers, counters, copies
    # CR 613 (layers 7b, 7c, 7d in timestamp order), 122 (counters), 707 (copies),
    # 107.3m (X), 603 (triggered abilities). Targets are live permanents, so setting
    # effects, counters, switches and copies pile up on the same creatures.
    @needs("counters")
    @precondition(has_creature)
    @rule(kind=st.sampled_from(S.COUNTER_KINDS), amount=st.integers(1, 3), data=st.data())
    def add_counters(self, kind, amount, data):
        victim = self._pick_interesting(
            data, self._live(), lambda o: bool({"+1/+1", "-1/-1"} & set(o.get("counters") or ())), "victim")
        counters = self.session.observation["objects"][victim].get("counters") or {}
        opposite = "-1/-1" if "+1/+1" in counters else "+1/+1" if "-1/-1" in counters else None
        if opposite and data.draw(st.booleans(), label="annihilate"):  # reach CR 704.5q with N < both counts
            kind = opposite
        self._apply({"type": "add_counters", "object": victim, "kind": kind, "amount": amount}, data)

    @needs("layers")
    @precondition(has_creature)
    @rule(power=st.integers(0, 4), toughness=st.integers(0, 4), data=st.data())
    def set_base_pt(self, power, toughness, data):
        victim = self._pick(data, self._live(), "victim")
        self._apply({"type": "set_base_pt", "object": victim, "power": power, "toughness": toughness}, data)

    @needs("layers")
    @precondition(has_creature)
    @rule(data=st.data())
    def switch_pt(self, data):
        victim = self._pick(data, self._live(), "victim")
        self._apply({"type": "switch_pt", "object": victim}, data)

    @needs("layers")
    @rule(controller=S.players, pt=st.sampled_from(S.ANTHEMS), data=st.data())
    def anthem(self, controller, pt, data):
        self._apply({"type": "create_effect", "affects": "creatures_you_control", "controller": controller,
                     "power": pt[0], "toughness": pt[1]}, data)

    @needs("layers")
    @needs("umbra_armor")
    @precondition(has_creature)
    @rule(target=objects, card=st.sampled_from(S.LAYERS_AURAS), controller=S.players, data=st.data())
    def put_layers_aura(self, card, controller, data):
        """Octopus Umbra (a setting effect, layer 7b) on any creature, or Penumbra Umbra
        ("enchant creature you control") on a creature, with that creature's controller."""
        objects = self.session.observation["objects"]
        oid = self._new_id()
        hosts = [o for o in self._live() if not self._penumbra_would_copy_a_legend("Penumbra Umbra", o)]
        if card == "Penumbra Umbra" and "copies" in self.capabilities and hosts:
            host = self._pick_interesting(data, hosts, self.worth_copying, "host")
            controller = objects[host].get("controller", controller)
        else:
            card, host = "Octopus Umbra", self._pick(data, self._live(), "host")
        self._apply({"type": "put_onto_battlefield", "id": oid, "card": card, "controller": controller,
                     "attach_to": host}, data)
        return oid

    @needs("umbra_armor")
    @precondition(has_aura)
    @rule(data=st.data())
    def attach_live(self, data):
        objects = self.session.observation["objects"]
        aura = self._pick_interesting(data, self._live_auras(), lambda o: o.get("name") == "Octopus Umbra", "aura")
        hosts = [oid for oid in self._live() if oid != objects[aura].get("attached_to")
                 and not self._penumbra_would_copy_a_legend(aura, oid)]
        if hosts:
            # Moving a setting Aura onto a creature with a later setting effect shows its new timestamp.
            host = self._pick_interesting(
                data, hosts, lambda o: any(e.get("layer") == "7b" for e in o.get("pt_effects") or ()), "to")
            self._apply({"type": "attach", "aura": aura, "to": host}, data)

    def has_layers_creature(self) -> bool:
        return bool({"copies", "x_costs", "triggers"} & self.capabilities)

    @precondition(has_layers_creature)
    @rule(target=objects, card=st.sampled_from(S.LAYERS_CREATURES), controller=S.players, x=st.integers(0, 3),
          data=st.data())
    def put_layers_creature(self, card, controller, x, data):
        """A creature that enters as a copy (Clone, Mirror Image: CR 707.5), one cast with X
        (CR 107.3m), or one with an enters ability (CR 603.6a)."""
        oid = self._new_id()
        event = {"type": "put_onto_battlefield", "id": oid, "card": card, "controller": controller,
                 "attach_to": None}
        if card in S.COPY_CREATURES and "copies" in self.capabilities and self._live() \
                and data.draw(st.integers(0, 5), label="copy"):
            event["copy_of"] = self._pick_interesting(data, self._live(), self.worth_copying, "copy_of")
        if card in S.X_CREATURES and "x_costs" in self.capabilities:
            event["x"] = x
        self._apply(event, data)
        return oid

    @needs("copies")
    @rule(target=objects, spell=st.sampled_from(S.TOKEN_SPELLS), caster=S.players, data=st.data())
    def cast_token_spell(self, spell, caster, data):
        """Cackling Counterpart (a token copy of a creature its caster controls, CR 707.2) or
        Raise the Alarm (two Soldier tokens the spell defines, CR 111.3)."""
        if spell == "Cackling Counterpart" and self._live():
            original = self._pick_interesting(data, self._live(), self.worth_copying, "target")
            caster = self.session.observation["objects"][original].get("controller", caster)
            ids = [self._new_id()]
            event = {"type": "cast", "card": spell, "controller": caster, "targets": [original], "token_ids": ids}
        else:
            ids = [self._new_id(), self._new_id()]
            event = {"type": "cast", "card": "Raise the Alarm", "controller": caster, "targets": [], "token_ids": ids}
        self._apply(event, data)
        return multiple(*ids)


def make_machine(engine, invariants, scenario_invariants=(), stats: Stats | None = None,
                 recorder: Recorder | None = None, step_timeout: float | None = None, against=None):
    """A subclass of :class:`EngineMachine` bound to ``engine`` and its invariants.

    ``against`` is the reference engine for differential mode, or None.
    """
    return type(
        "EngineMachineFor_" + "".join(c if c.isalnum() else "_" for c in engine.info.name),
        (EngineMachine,),
        {
            "engine": engine,
            "step_invariants": list(invariants),
            "scenario_invariants": list(scenario_invariants),
            "run_stats": stats if stats is not None else Stats(),
            "recorder": recorder if recorder is not None else Recorder(),
            "capabilities": frozenset(engine.info.capabilities),
            "step_timeout": step_timeout,
            "against": against,
        },
    )
