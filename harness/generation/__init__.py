"""What a run generates: boards, events and their targets, drawn with Hypothesis.

Lives here: the strategies for boards and event parameters (:mod:`harness.generation.strategies`),
live targets (:mod:`harness.generation.targeting`), the per-run plan of cards and capabilities
(:mod:`harness.generation.plan`), coverage guidance (:mod:`harness.generation.guidance`) and the
one place Hypothesis internals are read (:mod:`harness.generation.hypothesis_shim`). The state
machine's rules, one mixin per area, stay at :mod:`harness.rules` and belong to this room.

May import: ``cards``, ``invariants``, ``harness`` (the package), ``harness.protocol``,
``harness.decisions``, ``harness.wire``, ``harness.reporting``, ``harness.rules``; not the
engine connection, not the running of examples (``tests/test_import_graph.py`` checks the
directions).
"""
