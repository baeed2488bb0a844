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

from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, initialize, multiple, precondition, rule

from invariants import ScenarioRun, Violation

from . import scenario as scenario_file
from . import strategies as S
from .decider import DrawingDecider, ReplayDecider, ReplayDiverged
from .execution import Session, Stats


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

    @staticmethod
    def size(scenario: dict) -> tuple:
        return (len(scenario["steps"]), len(scenario["board"]["objects"]),
                sum(len(s.get("decisions", ())) for s in scenario["steps"]))

    def found(self, scenario: dict, examples: int) -> None:
        self.failures += 1
        if self.first_failure_example is None:
            self.first_failure_example = examples
        if self.best is None or self.size(scenario) < self.size(self.best):
            self.best = scenario
            if self.path is not None:
                scenario_file.save(scenario, self.path)


def scenario_run(engine, session: Session) -> ScenarioRun:
    """A :class:`ScenarioRun` of a finished session: its replay uses a fresh game."""

    def again():
        fresh = engine.new_game(session.board)
        observations = [fresh.observe()]
        from .protocol import IllegalAction

        for step in session.steps:
            try:
                fresh.apply(step["event"], ReplayDecider(step.get("decisions", []), strict=True))
            except IllegalAction:
                pass
            except ReplayDiverged as exc:
                observations.append({"replay diverged": str(exc)})
                break
            observations.append(fresh.observe())
        return observations

    return ScenarioRun(session.board, [s["event"] for s in session.steps], session.observations, again)


def needs(capability: str):
    return precondition(lambda self: capability in self.capabilities)


class EngineMachine(RuleBasedStateMachine):
    """Rules for the umbra armor slice. Use :func:`make_machine` to bind an engine."""

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

    # ------------------------------------------------------------------ driving
    @initialize(target=objects, board=st.deferred(lambda: S.boards(EngineMachine.max_creatures,
                                                                   EngineMachine.max_auras)))
    def setup(self, board):
        self.run_stats.examples += 1
        self.session = Session(self.engine, board, self.step_invariants, self.run_stats, self.step_timeout,
                               self.against)
        return multiple(*(o["id"] for o in board["objects"]))

    def _apply(self, event: dict, data) -> None:
        violations = self.session.step(event, DrawingDecider(data))
        if violations:
            scenario = scenario_file.build(self.session.board, self.session.steps, violations,
                                           self.engine, self.recorder.seed)
            self.recorder.found(scenario, self.run_stats.examples)
            raise InvariantViolation(violations, scenario)

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
                violations = [Violation(inv.name, len(session.steps), tuple(messages))]
                scenario = scenario_file.build(session.board, session.steps, violations, self.engine,
                                               self.recorder.seed)
                self.recorder.found(scenario, self.run_stats.examples)
                raise InvariantViolation(violations, scenario)

    # ------------------------------------------------------------------ live targets
    # Rules drawing from the Bundle also hit objects that have left the battlefield (the
    # engine must refuse those without change); these draw from the permanents on the
    # battlefield now, so most events do something.
    def _live(self, keyword: str | None = None) -> list[str]:
        objects = self.session.observation["objects"]
        return [oid for oid, o in objects.items() if o["zone"] == "battlefield" and "Creature" in o["types"]
                and (keyword is None or keyword in o["keywords"])]

    def has_creature(self) -> bool:
        return self.session is not None and bool(self._live())

    def has_deathtouch(self) -> bool:
        return self.session is not None and bool(self._live("deathtouch"))

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
        self._apply({"type": "attach", "aura": aura, "to": to}, data)

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
