"""The garbage collector during a run: the objects that exist when it starts are left out of
its collections, and its youngest generation is collected less often.

A run allocates container objects at a high rate (an observation of nested dicts and lists
per engine call) that reference counting frees; with CPython's default threshold (700
allocations) the collector ran about once an engine call, and each full collection walked
every long-lived object of the process (card data, Hypothesis's strategies, the engine's
modules). Measured on an ``--explore`` run of the reference engine (600 examples), the
collector's time fell from 1.6 s to 0.35 s. Objects that exist when the run starts are
long-lived by construction (``gc.freeze``, as servers that fork workers do); they are handed
back to the collector when the run ends, and the thresholds are restored.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from collections.abc import Iterator

#: Container allocations (net of deallocations) between collections of the youngest
#: generation during a run; CPython's default is 700. An example's own observations are freed
#: by reference counting when it ends (``EngineMachine.release``), so what the count gathers
#: between examples is the little cyclic garbage each leaves (its machine, a few hundred
#: containers of the engine's game). At 10,000 the youngest generation was collected about
#: every other example, each time walking the running example's observations (about 8,000
#: containers) and moving them to the older generations, collected in turn: 139 + 12 + 1
#: collections in 300 examples, 7 at 50,000 (callgrind, 30 examples: 1.3% of a step's
#: instructions). At most some tens of MB of cyclic garbage wait for a collection.
YOUNG_THRESHOLD = 5 * 10_000  # (written so: a new literal would change Hypothesis's constant pool)


@contextmanager
def tuned() -> Iterator[None]:
    """For the block: the objects alive now are frozen (``gc.freeze``) and the youngest
    generation's threshold is :data:`YOUNG_THRESHOLD`. Both are undone when the block ends,
    however it ends; a collector switched off (``gc.disable``) stays off. When objects are
    frozen already (a run inside a run, or a process that froze its own, as servers that
    fork do) the freeze is left as it is: ``gc.unfreeze`` would hand back every frozen
    object, the caller's too."""
    previous = gc.get_threshold()
    freeze = gc.get_freeze_count() == 0  # walks the frozen objects: none, in the usual case
    if freeze:
        gc.freeze()
    gc.set_threshold(max(previous[0], YOUNG_THRESHOLD), *previous[1:])
    try:
        yield
    finally:
        gc.set_threshold(*previous)
        if freeze:
            gc.unfreeze()
