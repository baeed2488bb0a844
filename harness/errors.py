"""Every exception rulesfuzz raises, in one place, so a user catches them by type.

All derive from :class:`RulesfuzzError` (defined in :mod:`harness.protocol`, which imports
nothing of the project); each keeps its other bases, so ``except ValueError`` still catches
those that are ``ValueError``. Where each is defined is its module below; import it from there
or from here. Two of the reference engine's names are the protocol's too, so here they carry
``Reference`` in front.

The protocol (what an engine raises):

* :class:`RulesfuzzError`: the base of them all.
* :class:`Unsupported`: an engine doesn't model what the example needs (``reason`` a short code).
* :class:`IllegalAction`: an event the rules don't allow; the game is unchanged.

Card data (:mod:`cards`):

* :class:`UnknownCardName` (``KeyError``): not an Oracle name of the pool, the ``--oracle``
  files or the card database.
* :class:`OracleFileError` (``ValueError``): an ``--oracle`` file that can't be used.
* :class:`DefinitionError` (``ValueError``): a card definition that can't be read.

Reaching an engine (:mod:`harness.connection`, :mod:`harness.serve`):

* :class:`EngineLoadError`: an engine spec that can't be resolved to an engine.
* :class:`EngineProcessError`: an ``exec:`` engine's process broke the protocol (exited, wrote
  non-JSON, an unexpected message); :class:`EngineStartError`, its subclass: the command could
  not be started at all.
* :class:`EngineError`: an ``exec:`` engine answered with an error other than illegal action,
  unsupported or bad board.
* :class:`BadBoard`: an ``exec:`` engine refused to build a game from the board.
* :class:`NotApplicable`: ``--engine-coverage`` of an engine with no Python source here.
* :class:`DecisionRefused`: (served engine) the harness answered a callback with an error.

Generating (:mod:`harness.generation`):

* :class:`EmptyBundle`: a draw from a Bundle that holds nothing yet.
* :class:`NothingSatisfies`: a filtered draw found no value passing its filter.

Running (:mod:`harness.running`):

* :class:`EngineTimeout`: the engine did not return from one call within the step timeout.
* :class:`BoardRejected`: a scenario's board is not a legal position (bad input).
* :class:`EngineFailed`: an engine call raised something other than ``IllegalAction`` or
  ``Unsupported``, or hung: a finding.
* :class:`Declined`: the engine raised ``Unsupported`` for what the example needs.
* :class:`NotAGame`: ``engine.new_game`` returned something without ``apply`` and ``observe``.
* :class:`ExampleDeclined`: an example ended without a verdict (exploration).
* :class:`InvariantViolation` (``AssertionError``): a step broke an invariant; carries the
  scenario and the finding's key.
* :class:`BadDecisionRequest`: the engine asked a malformed question (no options, ...).
* :class:`ReplayDiverged`: a replayed engine asked a question the scenario did not record;
  :class:`UnrecordedDecision`, its subclass, in a strict replay.
* :class:`ScenarioError`: a scenario file that can't be read or doesn't follow the schema.
* :class:`DatabaseError` (``ValueError``): an ``--database`` spec that can't be used.
* :class:`SlotError` (``ValueError``): a bad ``--workers`` or ``--shard`` value.
* :class:`WorkerFailed` (``RuntimeError``): a worker process ended without a result.

Reporting and the command line (:mod:`harness.reporting`, :mod:`harness.interfaces`):

* :class:`BaselineError`: a baseline or run report that can't be read or doesn't follow its
  schema.
* :class:`BadInput`: bad usage or input of ``rulesfuzz`` (one line, exit 2).
* :class:`ConfigError` (``ValueError``): a ``[tool.rulesfuzz]`` table, profile or value that
  can't be used.
* :class:`OptionError` (``ValueError``): a bad option value, setting or report path.
* :class:`ReportNotWritten` (``OSError``): a ``--json`` or ``--junit-xml`` report that could not
  be written at the end of a run.
* :class:`RulesfuzzFailure`: the pytest plugin's test item found something new (or tested
  nothing); imported from :mod:`harness.pytest_plugin` on first use, since it needs pytest.

The reference engine (:mod:`reference_engine`, raised inside it; its adapter turns them into
the protocol's):

* :class:`ReferenceEngineError`: the base of the reference engine's errors.
* :class:`ReferenceIllegalAction`, :class:`ReferenceUnsupported`: as the protocol's.
* :class:`UnknownCard` (``KeyError``): a card name not in the engine's pool.
* :class:`ReferenceBadBoard` (``ValueError``): a board the engine can't build a game from.

Not errors, so not :class:`RulesfuzzError`: ``harness.running.interrupts.BudgetExhausted`` (a
``KeyboardInterrupt``: the run's ``--max-seconds`` ran out) and the private ``BaseException``
that cuts an example short.

This module imports every room of the harness; nothing of rulesfuzz imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cards import UnknownCardName
from cards.definitions import DefinitionError
from cards.oracle_files import OracleFileError
from harness.connection.engine_coverage import NotApplicable
from harness.connection.loading import EngineLoadError
from harness.connection.rpc import BadBoard, EngineError, EngineProcessError, EngineStartError
from harness.generation.hypothesis_shim import EmptyBundle, NothingSatisfies
from harness.interfaces.cli import BadInput
from harness.interfaces.config import ConfigError
from harness.interfaces.run_options import OptionError, ReportNotWritten
from harness.protocol import IllegalAction, RulesfuzzError, Unsupported
from harness.reporting.baseline import BaselineError
from harness.running.decider import BadDecisionRequest, ReplayDiverged
from harness.running.execution import BoardRejected, Declined, EngineFailed, EngineTimeout, NotAGame
from harness.running.explore import ExampleDeclined
from harness.running.recording import InvariantViolation
from harness.running.runner import DatabaseError
from harness.running.scenario import ScenarioError, UnrecordedDecision
from harness.running.workers import SlotError, WorkerFailed
from harness.serve import DecisionRefused
from reference_engine.errors import BadBoard as ReferenceBadBoard
from reference_engine.errors import EngineError as ReferenceEngineError
from reference_engine.errors import IllegalAction as ReferenceIllegalAction
from reference_engine.errors import UnknownCard
from reference_engine.errors import Unsupported as ReferenceUnsupported

if TYPE_CHECKING:  # at run time by __getattr__, on first use: the plugin imports pytest
    from harness.pytest_plugin import RulesfuzzFailure

__all__ = [
    "BadBoard", "BadDecisionRequest", "BadInput", "BaselineError", "BoardRejected", "ConfigError", "DatabaseError",
    "DecisionRefused", "Declined", "DefinitionError", "EmptyBundle", "EngineError", "EngineFailed", "EngineLoadError",
    "EngineProcessError", "EngineStartError", "EngineTimeout", "ExampleDeclined", "IllegalAction",
    "InvariantViolation", "NotAGame", "NotApplicable", "NothingSatisfies", "OptionError", "OracleFileError",
    "ReferenceBadBoard", "ReferenceEngineError", "ReferenceIllegalAction", "ReferenceUnsupported",
    "ReplayDiverged", "ReportNotWritten", "RulesfuzzError", "RulesfuzzFailure", "ScenarioError", "SlotError",
    "UnknownCard", "UnknownCardName", "UnrecordedDecision", "Unsupported", "WorkerFailed",
]


def __getattr__(name: str):
    """``RulesfuzzFailure`` from :mod:`harness.pytest_plugin` on first use (it imports pytest)."""
    if name == "RulesfuzzFailure":
        from harness.pytest_plugin import RulesfuzzFailure

        return RulesfuzzFailure
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
