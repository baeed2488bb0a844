"""Whether every Hypothesis internal the shim reads is where it looks: a table of checks, one
per internal (or group of internals), behind :func:`harness.generation.hypothesis_shim.internals_problems`.

The checks are handed the shim module itself (``shim``): they read its names (the internal
classes it found, what it could not find) when they run, so a test that replaces one of them
sees the check name it. This module imports nothing of the shim (no import cycle).
"""

from __future__ import annotations

import inspect

from hypothesis import seed as hypothesis_seed
from hypothesis import settings as Settings
from hypothesis import stateful
from hypothesis.stateful import Bundle, get_state_machine_test
from hypothesis.strategies import SearchStrategy


def internals_problems(shim) -> list[str]:
    """What ``shim`` reads of Hypothesis's internals that this Hypothesis no longer has, one
    sentence each naming the internal (empty: every one is where the shim looks)."""
    problems = list(shim._MISSING)
    for what, probe in _checks(shim):
        try:
            wrong = probe()
        except Exception as exc:  # an internal gone or changed shape: the probe broke on it
            wrong = f"{type(exc).__name__}: {exc}"
        if wrong:
            problems.append(f"{what}: {wrong}")
    return problems


def _checks(shim):
    """``(what is checked, a probe returning what is wrong or None)``, in the order they run."""
    for built, build, kind, names in _strategy_shapes(shim):
        yield f"{built} (drawn at random by --explore)", (
            lambda build=build, kind=kind, names=names: _shape(shim, build, kind, names))
    yield "SampledFromStrategy._transformations (entries (name, function, ...))", lambda: _transformations(shim)
    yield ("weighted_choice (SampledFromStrategy.do_filtered_draw, ConjectureData.draw_integer(weights=))",
           lambda: _weighted_draw(shim))
    machine = shim._probe_machine()
    yield ("RuleBasedStateMachine.setup_state() and its rule records (rules_of, is_rule, forget_machine)",
           lambda: _records(shim, machine))
    yield "RuleBasedStateMachine._to_test_case (forget_machine)", _test_case_cache
    yield "a machine's _rules_strategy (machine_rule_names, weight_rules)", lambda: _rules_strategy(machine)
    yield ("multiple(...) iterated (results_of)",
           lambda: None if shim.results_of(stateful.multiple(1, 2)) == (1, 2) else "multiple(1, 2) reads otherwise")
    yield "Bundle.filter (drawn at random by --explore: _bundle_sampler)", lambda: _bundle_filter(shim)
    yield "a state machine's test (machine_test, database_key, settings_of)", lambda: _test_attributes(shim, machine)


def _missing_attributes(value, *names: str) -> list[str]:
    return [n for n in names if not hasattr(value, n)]


def _strategy_shapes(shim) -> list[tuple[str, object, type, tuple[str, ...]]]:
    """``(how it is built, a function building it, the internal class it must be, the attributes
    the shim reads)`` of each kind :func:`draw_at_random` knows."""
    from hypothesis import strategies as st

    @st.composite
    def pair(draw, low):
        return (draw(st.integers(low, low + 1)), low)

    return [
        ("st.integers(0, 3)", lambda: st.integers(0, 3), shim.IntegersStrategy, ("start", "end")),
        ("st.booleans()", st.booleans, shim.BooleansStrategy, ()),
        ("st.sampled_from('ab').map(f).filter(g)", _sampled_probe, shim.SampledFromStrategy,
         ("elements", "_transformations")),
        ("st.one_of(a, b)", lambda: st.one_of(st.just(1), st.just(2)), shim.OneOfStrategy, ("element_strategies",)),
        ("st.integers(0, 1).flatmap(f)", lambda: st.integers(0, 1).flatmap(st.just), shim.FlatMapStrategy,
         ("base", "expand")),
        ("st.tuples(a)", lambda: st.tuples(st.just(1)), shim.TupleStrategy, ("element_strategies",)),
        ("st.fixed_dictionaries({...})", lambda: st.fixed_dictionaries({"k": st.just(1)}), shim.FixedDictStrategy,
         ("mapping", "optional")),
        ("st.lists(a, max_size=2)", lambda: st.lists(st.just(1), max_size=2), shim.ListStrategy,
         ("element_strategy", "min_size", "max_size")),
        ("st.lists(a, unique=True)", lambda: st.lists(st.just(1), unique=True), shim.UniqueListStrategy,
         ("element_strategy", "min_size", "max_size", "keys", "tuple_suffixes")),
        ("st.dictionaries(k, v), a .map of a unique list",
         lambda: shim._unwrapped(st.dictionaries(st.just("k"), st.just(1))).mapped_strategy,
         shim.UniqueListStrategy, ("keys", "tuple_suffixes")),
        ("st.integers(0, 3).map(f)", lambda: st.integers(0, 3).map(str), shim.MappedStrategy,
         ("mapped_strategy", "pack")),
        ("st.integers(0, 3).filter(f)", lambda: st.integers(0, 3).filter(bool), shim.FilteredStrategy,
         ("filtered_strategy", "flat_conditions")),
        ("st.permutations([1, 2])", lambda: st.permutations([1, 2]), shim.PermutationStrategy, ("values",)),
        ("@st.composite", lambda: pair(0), shim.CompositeStrategy, ("definition", "args", "kwargs")),
        ("st.data()", st.data, shim.DataStrategy, ()),
        ("Bundle('b')", lambda: Bundle("b"), Bundle, ("name",)),
    ]


def _sampled_probe():
    from hypothesis import strategies as st

    return st.sampled_from("ab").map(str.upper).filter(bool)


def _shape(shim, build, kind, names):
    inner = shim._unwrapped(build())
    if not isinstance(inner, kind):
        return f"is a {type(inner).__module__}.{type(inner).__qualname__}, not a {kind.__name__}"
    missing = _missing_attributes(inner, *names)
    return f"has no {', '.join(missing)}" if missing else None


def _transformations(shim):
    steps = shim.sampled_transformations(shim._unwrapped(_sampled_probe()))
    if [name for name, _ in steps] != ["map", "filter"] or not all(callable(f) for _, f in steps):
        return f"SampledFromStrategy._transformations reads as {steps!r}, not a map then a filter"


def _weighted_draw(shim):
    class Recorder:  # the ConjectureData a draw sees, recording its integer draws
        calls = []

        def draw_integer(self, min_value=None, max_value=None, **options):
            self.calls.append((min_value, max_value, options))
            return 0

    shim.weighted_choice("abc", lambda: {1: 0.9}).do_filtered_draw(Recorder())
    if not Recorder.calls or Recorder.calls[0] != (0, 2, {"weights": {1: 0.9}}):
        return (f"SampledFromStrategy.do_filtered_draw's first draw is no longer data.draw_integer(0, n - 1) "
                f"(weighted_choice saw {Recorder.calls})")
    from hypothesis.internal.conjecture.data import ConjectureData

    if "weights" not in inspect.signature(ConjectureData.draw_integer).parameters:
        return "ConjectureData.draw_integer takes no weights="


def _records(shim, machine):
    state = machine.setup_state()
    missing = _missing_attributes(state, "rules", "initializers")
    if missing:
        return f"setup_state() has no {', '.join(missing)}"
    record = next(iter(state.rules), None)
    if record is None or not state.initializers:
        return "setup_state() lists no rule or no initializer of a machine with both"
    missing = _missing_attributes(record, "function", "arguments", "targets", "bundles", "preconditions")
    if missing:
        return f"a rule record has no {', '.join(missing)}"
    if not shim.is_rule(getattr(machine, record.function.__name__)):
        return f"a rule's method has no attribute {shim._RULE_MARKER!r}"
    if machine not in stateful.RuleBasedStateMachine._setup_state_per_class:
        return "RuleBasedStateMachine._setup_state_per_class does not hold the machine"


def _test_case_cache():
    to_test_case = stateful.RuleBasedStateMachine.__dict__.get("_to_test_case")
    if hasattr(getattr(to_test_case, "__func__", to_test_case), "cache_clear"):
        return None  # before 6.170.27: an lru_cache by class

    class Probe(stateful.RuleBasedStateMachine):
        pass

    Probe._to_test_case()
    if "_test_case" not in Probe.__dict__:
        return "RuleBasedStateMachine._to_test_case is no lru_cache and keeps no _test_case on the class"
    return None


def _rules_strategy(machine):
    missing = _missing_attributes(machine(), "_rules_strategy")
    if missing:
        return "a machine has no _rules_strategy"
    strategy = machine()._rules_strategy
    missing = _missing_attributes(strategy, "rules")
    if hasattr(strategy, "_enabled_rules_strategy"):  # 6.154 on
        missing += _missing_attributes(strategy, "_rule_is_enabled")
    elif not isinstance(getattr(strategy, "rules_strategy", None), SearchStrategy):  # up to 6.153
        missing += ["_enabled_rules_strategy (6.154 on) or rules_strategy (up to 6.153)"]
    return f"its _rules_strategy has no {', '.join(missing)}" if missing else None


def _bundle_filter(shim):
    filtered = Bundle("b").filter(bool)
    if isinstance(filtered, Bundle):  # since Bundle draws were rewritten: the Bundle keeps it
        steps = shim.sampled_transformations(filtered)
        if [name for name, _ in steps] != ["filter"] or getattr(filtered, "consume", None) is not False:
            return f"Bundle.filter gives a Bundle whose _transformations read {steps!r} (consume: " \
                   f"{getattr(filtered, 'consume', 'missing')})"
    elif not (isinstance(filtered, shim.FilteredStrategy) and isinstance(filtered.filtered_strategy, Bundle)):
        return f"Bundle.filter gives a {type(filtered).__qualname__}, neither a Bundle nor a FilteredStrategy of one"


def _test_attributes(shim, machine):
    test = get_state_machine_test(machine, settings=Settings(max_examples=1, database=None))
    missing = _missing_attributes(test, "hypothesis", "_hypothesis_internal_use_settings")
    if missing:
        return f"get_state_machine_test's test has no {', '.join(missing)}"
    inner = test.hypothesis.inner_test
    before = shim.function_digest(inner)
    inner._hypothesis_internal_add_digest = b"rulesfuzz"
    if shim.function_digest(inner) == before:
        return "function_digest ignores _hypothesis_internal_add_digest"
    hypothesis_seed(3)(test)
    if getattr(test, "_hypothesis_internal_use_seed", None) != 3:
        return "hypothesis.seed no longer sets _hypothesis_internal_use_seed"
