"""Typed JSON shapes handed to code that reads plain dicts.

The harness's own code types boards, events and observations with :mod:`harness.protocol`'s
``TypedDict`` s (``BoardSpec``, ``Event``, ``Observation`` ...). The invariants (``invariants/``)
and the records they check (:class:`harness.protocol.Transition`, ``ScenarioRun``) read them as
JSON-shaped ``dict`` s, as an engine returned them (shaped or not). The type checker takes a
``TypedDict`` for a ``Mapping[str, object]``, never for a ``dict``: :func:`plain` is where a typed
value crosses to such a reader. It returns the value itself (no copy): nothing changes at run time.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Mapping


def plain(value: Mapping[str, Any]) -> dict:
    """``value`` itself, typed as the plain dict the invariants read (not through ``typing.cast``:
    a call of its own, and this one runs a few times a step)."""
    return value  # type: ignore[return-value]
