"""Running examples: one game through the protocol, a budget of them, many processes.

Lives here: a game driven event by event and judged by the invariants
(:mod:`harness.running.execution`; its verdicts :mod:`harness.running.game_errors`, its counts
:mod:`harness.running.run_stats`, observation copies :mod:`harness.running.observation_copies`),
the differential oracle (:mod:`harness.running.oracle`), the deciders
(:mod:`harness.running.decider`), the state machine (:mod:`harness.running.machine`), scenario
files and replay (:mod:`harness.running.scenario`; reading and writing them
:mod:`harness.running.scenario_files`, their expectations :mod:`harness.running.expectations`),
recording and reducing findings (:mod:`harness.running.recording`, :mod:`harness.running.reduce`),
exploration (:mod:`harness.running.explore`), the conformance checklist
(:mod:`harness.running.conformance`), the budgeted run (:mod:`harness.running.runner`), workers and
shards (:mod:`harness.running.workers`), supervision (:mod:`harness.running.supervisor`,
:mod:`harness.running.monitor`), Ctrl-C (:mod:`harness.running.interrupts`), example databases
(:mod:`harness.running.databases`) and the garbage collector (:mod:`harness.running.collector`).

May import: ``cards``, ``invariants``, ``reference_engine``, ``harness`` (the package),
``harness.protocol``, ``harness.decisions``, ``harness.wire``, ``harness.reporting``,
``harness.connection`` (with ``harness.serve`` and ``harness.adapters``), ``harness.generation``
(with ``harness.rules``); not the command line (``tests/test_import_graph.py`` checks the
directions).
"""
