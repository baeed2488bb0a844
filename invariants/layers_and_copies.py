"""Layers, counters and copies: CR 613 (interaction of continuous effects), 122 and 704.5q
(counters), 707 (copying objects), 107.3m (X), 603 (triggered abilities), and every
Gatherer ruling of Octopus Umbra and Penumbra Umbra about them.

Split by concern: the layer and counter invariants are in :mod:`invariants.layers`, the copy
invariants in :mod:`invariants.copies`; this module imports both (registering their invariants,
layers first) and keeps every name it had.

The observation fields these invariants read (``harness.protocol``): per object
``copiable`` (its copiable values, CR 707.2), ``pt_effects`` (the continuous effects on
its power and toughness in timestamp order, with their layer), ``counters``,
``mana_cost`` and ``mana_value``; log entries ``counters_added``, ``counters_removed``,
``trigger`` and ``zone_change`` with cause ``create_token`` / ``copy_of``.
"""

from __future__ import annotations

from .layers import (
    LAYERS, OCTOPUS_1, OCTOPUS_2, SETTING_AURAS, counter_pt, counters_added, counters_annihilated,
    counters_change_only_by_counter_events, entered, expected_counters, later_setting_effect_wins, layered_pt,
    modifying_effects_and_counters_still_apply, moved_in_event, new_setting_effects, on_battlefield_after,
    power_toughness_in_layer_order, resolved_effects_affect_a_fixed_set, umbra_armor_removes_damage_not_counters,
    until_end_of_turn_effects_end,
)
from .copies import (
    COPIES, ENTERS_TRIGGER_CARDS, PENUMBRA_COPYING, PENUMBRA_ENTERS, PENUMBRA_EXACT, PENUMBRA_LKI, PENUMBRA_TOKEN,
    PENUMBRA_X, X_COUNTER_CARDS, copiable_values_only, copies_made, enters_abilities_trigger, game_over, mana_value,
    penumbra_umbra_copies_the_enchanted_creature, status_counters_and_auras_not_copied, x_is_zero,
)

__all__ = [
    "COPIES", "ENTERS_TRIGGER_CARDS", "LAYERS", "OCTOPUS_1", "OCTOPUS_2", "PENUMBRA_COPYING", "PENUMBRA_ENTERS",
    "PENUMBRA_EXACT", "PENUMBRA_LKI", "PENUMBRA_TOKEN", "PENUMBRA_X", "SETTING_AURAS", "X_COUNTER_CARDS",
    "copiable_values_only", "copies_made", "counter_pt", "counters_added", "counters_annihilated",
    "counters_change_only_by_counter_events", "entered", "enters_abilities_trigger", "expected_counters", "game_over",
    "later_setting_effect_wins", "layered_pt", "mana_value", "modifying_effects_and_counters_still_apply",
    "moved_in_event", "new_setting_effects", "on_battlefield_after", "penumbra_umbra_copies_the_enchanted_creature",
    "power_toughness_in_layer_order", "resolved_effects_affect_a_fixed_set", "status_counters_and_auras_not_copied",
    "umbra_armor_removes_damage_not_counters", "until_end_of_turn_effects_end", "x_is_zero",
]
