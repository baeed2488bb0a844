"""What a run found and how it is told.

Lives here: findings and their keys (:mod:`harness.reporting.findings`), readable text for findings,
scenarios and summaries (:mod:`harness.reporting.report`), the JUnit XML and JSON CI reports
(:mod:`harness.reporting.junit`), regression baselines (:mod:`harness.reporting.baseline`) and the
CR rules, rulings and cards a run exercised (:mod:`harness.reporting.rule_coverage`).

May import: ``cards``, ``invariants``, ``harness`` (the package), ``harness.protocol``,
``harness.decisions``, ``harness.wire``. Nothing about how an engine is reached, how examples are
generated or run (``tests/test_import_graph.py`` checks the directions).
"""
