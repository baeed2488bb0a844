"""What a user touches: the ``rulesfuzz`` command line and its settings.

Lives here: the command line (:mod:`harness.interfaces.cli`) and its console script
(:mod:`harness.interfaces.console`), ``[tool.rulesfuzz]`` settings (:mod:`harness.interfaces.config`),
the options of ``rulesfuzz run`` for CI and scale (:mod:`harness.interfaces.run_options`), what
the supervisor reports when a run ended early (:mod:`harness.interfaces.supervised_end`) and the
generated contract reference, ``docs/reference.md`` (:mod:`harness.interfaces.contract`,
``python3 -m harness.interfaces.contract --write``). The pytest plugin stays at
:mod:`harness.pytest_plugin` (its entry point) and ``python -m harness`` at ``harness/__main__.py``;
both belong to this room.

May import: ``cards``, ``invariants``, ``reference_engine``, ``harness`` (the package),
``harness.protocol``, ``harness.decisions``, ``harness.wire``, ``harness.reporting``,
``harness.connection``, ``harness.generation``, ``harness.running``: every other room; nothing of
the product but :mod:`harness.errors` imports this room (``tests/test_import_graph.py`` checks
the directions).
"""
