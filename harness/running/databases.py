"""Example databases around Hypothesis's: knowing when a saved failure is replayed, and
keeping workers of one run independent of each other.

Both are :class:`hypothesis.database.ExampleDatabase` subclasses (Hypothesis's public
extension point), wrapping the database ``--database`` names (a directory, Redis, ...).

* :class:`ReplayCounter` counts the saved failures Hypothesis fetches before a batch of
  examples starts (its reuse phase replays them first), so the run can say that a finding
  was a failure saved in the example database, replayed.
* :class:`BufferedDatabase` reads the shared database as it was when the run started (each
  key when first asked for), and keeps its changes until the run ends (:meth:`~BufferedDatabase.flush`
  in this process, or :meth:`~BufferedDatabase.take_changes` for the run's process to write
  them once every worker has ended): slots of one run (``--workers``, ``--shard``) never
  see each other's failures mid-run, so the same seed and worker count give the same
  findings, and the next run (of any shard) replays all of them first. Shards run at the
  same time on a shared database (Redis) may: a key first read after another shard ended.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from hypothesis.database import ExampleDatabase

#: Suffixes of the keys Hypothesis keeps beside a test's failures; ``.pareto`` holds
#: examples that are not failures (the target phase's front), so they don't count.
_NOT_FAILURES = (b".pareto",)


class ReplayCounter(ExampleDatabase):
    """``inner`` (an ExampleDatabase), counting the saved failures fetched while ``clock()`` is at a mark.

    Call :meth:`mark` with the run's example count before each batch of examples; while
    ``clock()`` still returns that count (no example has started), every value fetched
    from a failures key is one Hypothesis is about to replay. :meth:`replayed` says
    whether an example number falls in that range.
    """

    def __init__(self, inner: ExampleDatabase, clock: Callable[[], int]):
        super().__init__()
        self.inner = inner
        self.clock = clock
        self.start = 0
        self.fetched = 0

    def __repr__(self) -> str:
        return f"ReplayCounter({self.inner!r})"

    def mark(self, examples: int) -> None:
        """A new batch of examples starts after example number ``examples``."""
        self.start, self.fetched = examples, 0

    def replayed(self, example: int | None) -> bool:
        """Whether example number ``example`` (1-based over the run) was a saved failure replayed."""
        return example is not None and self.start < example <= self.start + self.fetched

    def fetch(self, key: bytes) -> Iterable[bytes]:
        values = list(self.inner.fetch(key))
        if self.clock() == self.start and not key.endswith(_NOT_FAILURES):
            self.fetched += len(values)
        return values

    def save(self, key: bytes, value: bytes) -> None:
        self.inner.save(key, value)

    def delete(self, key: bytes, value: bytes) -> None:
        self.inner.delete(key, value)

    def move(self, src: bytes, dest: bytes, value: bytes) -> None:
        self.inner.move(src, dest, value)


class BufferedDatabase(ExampleDatabase):
    """``shared`` as it was when first read, plus this worker's own changes, written back by :meth:`flush`.

    Reads see the shared database's values minus those this worker deleted, plus those it
    saved; ``save``, ``delete`` and ``move`` are applied to the shared database, in order,
    only by :meth:`flush` (at the end of the worker's run). Each key is read from the
    shared database once, so what other workers write meanwhile is never seen.
    """

    def __init__(self, shared: ExampleDatabase):
        super().__init__()
        self.shared = shared
        self._values: dict[bytes, set[bytes]] = {}
        self._pending: list[tuple[str, tuple[bytes, ...]]] = []

    def __repr__(self) -> str:
        return f"BufferedDatabase({self.shared!r})"

    def _key(self, key: bytes) -> set[bytes]:
        if key not in self._values:
            self._values[key] = set(self.shared.fetch(key))
        return self._values[key]

    def fetch(self, key: bytes) -> Iterable[bytes]:
        return sorted(self._key(key))

    def save(self, key: bytes, value: bytes) -> None:
        self._key(key).add(value)
        self._pending.append(("save", (key, value)))

    def delete(self, key: bytes, value: bytes) -> None:
        self._key(key).discard(value)
        self._pending.append(("delete", (key, value)))

    def move(self, src: bytes, dest: bytes, value: bytes) -> None:
        self._key(src).discard(value)
        self._key(dest).add(value)
        self._pending.append(("move", (src, dest, value)))

    def pending(self) -> int:
        """How many changes :meth:`flush` would write."""
        return len(self._pending)

    def flush(self) -> None:
        """Write this worker's saves, deletes and moves to the shared database, in order."""
        while self._pending:
            operation, args = self._pending.pop(0)
            getattr(self.shared, operation)(*args)

    def take_changes(self) -> list[tuple[str, tuple[bytes, ...]]]:
        """The saves, deletes and moves not yet written, in order (``[(operation, args)]``, picklable),
        handed over to be written by another process (:func:`write_changes`): :meth:`flush` then writes nothing."""
        changes, self._pending = self._pending, []
        return changes


def write_changes(database: ExampleDatabase, changes: list[tuple[str, tuple[bytes, ...]]]) -> None:
    """Apply ``changes`` (from :meth:`BufferedDatabase.take_changes`) to ``database``, in order."""
    for operation, args in changes:
        getattr(database, operation)(*args)
