"""How one game of an engine ends early: the harness's verdicts on an engine call.

:class:`EngineFailed` (a crash or a hang: a finding), :class:`Declined` (the engine doesn't model
what the example needs: never a finding), :class:`BoardRejected` (a board that is not a legal
position: bad input) and :class:`NotAGame`; :mod:`harness.running.execution` raises them and
re-exports them.
"""

from __future__ import annotations

from harness.reporting.findings import crash_site, crash_site_message
from harness.protocol import RulesfuzzError


class BoardRejected(RulesfuzzError):
    """A scenario's board is not a legal position (bad input); the message says why."""


class EngineFailed(RulesfuzzError):
    """An engine call raised something other than ``IllegalAction``/``Unsupported``, or hung: a finding.

    ``site`` is where it crashed (:func:`harness.reporting.findings.crash_site`: the exception type and
    the engine's innermost frame, ``timeout``, a process fault), None when unknown;
    :attr:`messages` are the finding's messages, the site's last (it is in the finding key).
    """

    def __init__(self, message: str, site: str | None = None):
        super().__init__(message)
        self.site = site

    @property
    def messages(self) -> tuple[str, ...]:
        return (str(self), crash_site_message(self.site)) if self.site else (str(self),)


def _site(exc: BaseException) -> str:
    """:func:`crash_site` of ``exc``; the exception's type if that fails (it never hides the crash)."""
    try:
        return crash_site(exc)
    except Exception:  # noqa: BLE001  a report's detail must not replace the finding
        return type(exc).__name__


class Declined(RulesfuzzError):
    """The engine raised :class:`harness.protocol.Unsupported`: it doesn't model what the example needs.

    ``reason`` and ``message`` are the engine's; ``step`` is where it declined (0: the
    board, at ``new_game``; n: the n-th event); ``engine`` names which engine declined
    (``"reference"`` for the oracle in differential mode). Never a finding.
    """

    def __init__(self, reason: str, message: str, step: int, engine: str = "engine"):
        where = "the board" if step == 0 else f"step {step}"
        super().__init__(f"{engine} declined {where}: {reason}" + (f" ({message})" if message else ""))
        self.reason = reason
        self.message = message
        self.step = step
        self.engine = engine


class NotAGame(RulesfuzzError):
    """``engine.new_game`` returned something without ``apply`` and ``observe``."""
