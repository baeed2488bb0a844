"""The declared shape of a :class:`reference_engine.game.Game`, for the type checker only.

The engine's rules are mixins (``StackRules``, ``CombatRules``, ``Layers``, ...) combined into
``Game``; each uses the game's state and the others' methods through ``self``. For mypy each
mixin derives from :class:`GameBase`, which declares that state (the attributes ``Game`` and
the mixins set) and every method one mixin (or a module-level function taking ``game``) uses of
another; at run time the mixins derive from ``object`` and the engine never imports this module::

    if TYPE_CHECKING:
        from .game_base import GameBase
    else:
        GameBase = object

Why a base and not a ``typing.Protocol`` for ``self``: several mixins extend a method of another
through ``super()`` (``ChanceRules.resolve_activated_ability``, ``ZoneRules.leaves_triggers``, ...),
which mypy resolves in the class's own bases; with a protocol as ``self`` it resolves it to the
protocol's bodiless member and refuses the call (``safe-super``). With a declared base the call
type-checks against the declaration here, and every mixin's definition is checked as an override
of it (same parameters, compatible types), so this file can't drift from the engine silently.
(tests/test_game_base.py checks the same at run time.) A base also spares every mixin method
an explicit ``self`` annotation, and mixins' own methods keep ``self`` as the mixin.

The declarations copy the signatures of the implementations (the one last in ``Game``'s method
resolution order where several mixins define it, ``Game``'s own first); their bodies never run.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Literal
from collections.abc import Callable

from .records import EVENT_BY  # the default ``by`` of exile, return_to_hand, flicker

if TYPE_CHECKING:
    from cards import Card

    from .abilities import ActivatedAbility, Cost
    from .cards import CardDef, CardScript
    from .objects import GameObject, LastKnown, Player, PTEffect, Trigger
    from .records import ChanceEvent, Combat, Mana, Source, StackEntry
    from .shapes import ObservedStack


class GameBase:
    """The state and the methods the mixins of ``Game`` use of each other (module docstring)."""

    # ---- state set by Game.__init__ (reference_engine.game)
    players: dict[str, Player]
    objects: dict[str, GameObject]
    effects: list[PTEffect]
    last_known: dict[str, LastKnown]
    pending_triggers: list[Trigger]
    stack: list[Trigger | StackEntry]  # triggered abilities; in a stack game, StackEntry objects
    log: list[dict]
    mana_pools: dict[str, list[Mana]]
    shuffled_libraries: set[str]
    _clock: int
    _deferred: list[tuple[list[str], dict]] | None
    _cache: dict | None  # what is computed from the state at _cache_version (layers.state_cache)
    _cache_version: int
    _kept_cache: dict | None
    # ---- state of the stack and priority (StackRules.init_stack)
    stack_game: bool
    active_player: str
    priority_player: str
    passed: list[str]
    departures: dict[str, int]
    stack_ids: set[str]
    _deferring: dict | Literal[False]  # the activate event whose ability goes on the stack, or False
    resolving: StackEntry | None
    _activation_source: Source | None  # the activated ability's source as it was activated
    # ---- combat (CombatRules)
    combat_state: Combat | None
    # ---- layers (Layers._anthem_applies: objects whose anthems are being decided)
    _anthem_guard: set[str]

    # ---- game.Game
    def _tick(self) -> int:
        raise NotImplementedError

    def battlefield(self) -> list[GameObject]:
        raise NotImplementedError

    def attached_to(self, oid: str) -> list[GameObject]:
        raise NotImplementedError

    def unchanging(self) -> AbstractContextManager[None]:
        raise NotImplementedError

    def can_enchant(self, aura: GameObject, target_id: str | None) -> bool:
        raise NotImplementedError

    def could_enchant(self, script, controller: str, aura_id: str, target_id: str | None) -> bool:
        raise NotImplementedError

    def simultaneous(self) -> AbstractContextManager[None]:
        raise NotImplementedError

    def move_to_graveyard(self, ids, cause: dict) -> None:
        raise NotImplementedError

    def attach_aura(self, aura: GameObject, target: GameObject) -> None:
        raise NotImplementedError

    def remember(self, obj: GameObject) -> None:
        raise NotImplementedError

    def cease_to_exist(self, oid: str) -> None:
        raise NotImplementedError

    def add_effect(self, affected, sublayer: str, power: int, toughness: int, source: str | None = None) -> None:
        raise NotImplementedError

    def new_object(self, oid: str, name: str, controller: str, token: bool = False, **entering) -> GameObject:
        raise NotImplementedError

    def decline_if_unmodelled(self, event: dict) -> None:
        raise NotImplementedError

    # ---- stack.StackRules
    def init_stack(self, board: dict) -> None:
        raise NotImplementedError

    def next_player(self, player: str) -> str:
        raise NotImplementedError

    def all_passed(self, player: str) -> bool:
        raise NotImplementedError

    def top_of_stack(self) -> StackEntry:
        raise NotImplementedError

    def observe_stack(self) -> ObservedStack:
        raise NotImplementedError

    def apply_with_stack(self, event: dict, decider) -> None:
        raise NotImplementedError

    def _check_priority(self, player: str, what: str) -> None:
        raise NotImplementedError

    def resolution(self, entry: StackEntry):
        raise NotImplementedError

    def resolve_entry(self, entry: StackEntry, plan, decider) -> None:
        raise NotImplementedError

    # ---- combat.CombatRules
    def current_combat(self) -> Combat | None:
        raise NotImplementedError

    def validate_attackers(self, player, ids) -> list[GameObject]:
        raise NotImplementedError

    def validate_blocks(self, blocks) -> dict[str, str]:
        raise NotImplementedError

    def validate_combat_damage(self) -> None:
        raise NotImplementedError

    def declare_attackers(self, player: str, attackers: list[GameObject]) -> None:
        raise NotImplementedError

    def declare_blockers(self, blocks: dict[str, str]) -> None:
        raise NotImplementedError

    def combat_damage_step(self, decider) -> None:
        raise NotImplementedError

    def end_combat(self) -> None:
        raise NotImplementedError

    def observe_combat(self, observation: dict) -> None:
        raise NotImplementedError

    # ---- playtest.PlaytestRules
    def granted_supertypes(self, obj: GameObject, card: CardDef) -> tuple[str, ...]:
        raise NotImplementedError

    def max_hand_size(self, player: str) -> int | None:
        raise NotImplementedError

    def equipment_effects(self, creature: GameObject, attached: list[GameObject]) -> list:
        raise NotImplementedError

    def unattach_equipment(self) -> bool:
        raise NotImplementedError

    # ---- destruction.DestructionRules
    def destroy(self, targets, by: str, decider, cant_be_regenerated=frozenset()) -> None:
        raise NotImplementedError

    def remove_damage(self, obj) -> None:
        raise NotImplementedError

    def sacrifice(self, obj) -> None:
        raise NotImplementedError

    # ---- state_based_actions.StateBasedActions
    def check_state_based_actions(self, decider) -> None:
        raise NotImplementedError

    def annihilate_counters(self, obj) -> bool:
        raise NotImplementedError

    def legend_rule_keep(self, controller: str, ids: list[str], decider) -> str:
        raise NotImplementedError

    # ---- layers.Layers
    def copiable_values(self, obj: GameObject) -> tuple[CardDef, CardScript]:
        raise NotImplementedError

    def pt_effects(self, obj: GameObject, attached: list[GameObject] | None = None) -> list[PTEffect]:
        raise NotImplementedError

    def anthem_effects(self, obj: GameObject) -> list[PTEffect]:
        raise NotImplementedError

    def resolved_effects_on(self, oid: str) -> list[PTEffect]:
        raise NotImplementedError

    def apply_pt_layers(self, power: int, toughness: int, effects: list[PTEffect], counters: dict) -> tuple[int, int]:
        raise NotImplementedError

    # ---- copies.CopyRules
    def copy_source_values(self, obj: GameObject) -> tuple[CardDef, CardScript]:
        raise NotImplementedError

    def create_token_copy(self, token_id: str, original_id: str, controller: str, by: str,
                          colors: tuple[str, ...] | None = None) -> GameObject | None:
        raise NotImplementedError

    def create_token(self, token_id: str, definition: CardDef, script: CardScript, controller: str,
                     by: str) -> GameObject:
        raise NotImplementedError

    def new_token_id(self, base: str) -> str:
        raise NotImplementedError

    def enter_battlefield(self, oid: str, definition: CardDef, script: CardScript, controller: str, *,
                          token: bool = False, copy_effect: tuple[CardDef, CardScript] | None = None,
                          copy_of: str | None = None, spell_x: int = 0, attach_to: str | None = None,
                          cause: dict | None = None, tapped: bool = False) -> GameObject:
        raise NotImplementedError

    def enters_with_counters(self, obj: GameObject) -> None:
        raise NotImplementedError

    # ---- chance.ChanceRules
    # also PlaytestRules
    def has_abilities(self, obj: GameObject) -> bool:
        raise NotImplementedError

    def instruct_players(self, players: list[str], start: ChanceEvent, instructions: int, calls: bool,
                         decider) -> None:
        raise NotImplementedError

    # ---- search.SearchRules
    def has_all_names(self, obj: GameObject) -> bool:
        raise NotImplementedError

    def share_a_name(self, a: GameObject, b: GameObject) -> bool:
        raise NotImplementedError

    def search_library(self, player: str, wanted: Callable[[Card], bool], count: int, by: str, decider,
                       destination: str) -> list[GameObject]:
        raise NotImplementedError

    # ---- zones.ZoneRules
    def exile(self, ids, by: str = EVENT_BY["exile"]) -> None:
        raise NotImplementedError

    def return_to_hand(self, ids, by: str = EVENT_BY["return_to_hand"]) -> None:
        raise NotImplementedError

    def flicker(self, obj: GameObject, new_id: str, by: str = EVENT_BY["flicker"],
                controller: str | None = None) -> GameObject | None:
        raise NotImplementedError

    def returned_id(self, old_id: str) -> str:
        raise NotImplementedError

    # ---- triggers.TriggeredAbilities
    def trigger(self, trigger: Trigger) -> None:
        raise NotImplementedError

    def enters_triggers(self, obj: GameObject) -> None:
        raise NotImplementedError

    # also StackRules, ZoneRules
    def leaves_triggers(self, obj: GameObject, to_zone: str) -> None:
        raise NotImplementedError

    def resolve_triggers(self, decider) -> None:
        raise NotImplementedError

    def put_triggers_on_stack(self, decider) -> None:
        raise NotImplementedError

    def legal_nekrataal_target(self, obj: GameObject) -> bool:
        raise NotImplementedError

    # also ChanceRules
    def resolve_trigger(self, trigger: Trigger, decider) -> None:
        raise NotImplementedError

    def source_name(self, oid: str) -> str:
        raise NotImplementedError

    # ---- control.ControlRules
    def change_control(self, obj: GameObject, controller: str) -> None:
        raise NotImplementedError

    # ---- mana.ManaRules
    def mana_pool(self, player: str) -> list[Mana]:
        raise NotImplementedError

    def empty_mana_pools(self) -> None:
        raise NotImplementedError

    def can_pay_mana(self, player: str, symbols) -> bool:
        raise NotImplementedError

    def pay_mana(self, player: str, symbols, decider) -> None:
        raise NotImplementedError

    @staticmethod
    def _choose(player: str, kind: str, options: list[str], decider) -> str:
        raise NotImplementedError

    def resolve_mana_ability(self, obj: GameObject, ability: ActivatedAbility, cost: Cost, player: str,
                             decider) -> None:
        raise NotImplementedError

    # ---- model_cards.ModelAbilities
    def spell_source(self, definition: CardDef, controller: str) -> Source:
        raise NotImplementedError

    def resolve_model_effects(self, effects, source: Source, assigned: dict[int, list], decider,
                              cause: str = "ability", token_ids: list | None = None) -> None:
        raise NotImplementedError

    def creature_dies_triggers(self, dying: GameObject) -> None:
        raise NotImplementedError

    def draw_cards(self, player: str, amount: int, by: str) -> None:
        raise NotImplementedError

    def cast_model_spell(self, definition: CardDef, script: CardScript, controller: str, event: dict):
        raise NotImplementedError

    def model_triggers(self, obj: GameObject, event: str, script: CardScript | None = None) -> None:
        raise NotImplementedError

    def choose_model_targets(self, trigger: Trigger, decider) -> bool:
        raise NotImplementedError

    def resolve_model_trigger(self, trigger: Trigger, decider) -> None:
        raise NotImplementedError

    # ---- costs.CostPayment
    # also PlaytestRules
    def printed_abilities(self, obj: GameObject) -> tuple[ActivatedAbility, ...]:
        raise NotImplementedError

    # also PlaytestRules
    def activated_abilities(self, obj: GameObject) -> tuple[ActivatedAbility, ...]:
        raise NotImplementedError

    # also PlaytestRules
    def activation_cost(self, obj: GameObject, ability: ActivatedAbility) -> Cost:
        raise NotImplementedError

    def check_cost(self, obj: GameObject, ability: ActivatedAbility, cost: Cost, player: str) -> None:
        raise NotImplementedError

    # also ChanceRules, SearchRules
    def check_other_cost(self, obj: GameObject, ability: ActivatedAbility, part: str, player: str) -> None:
        raise NotImplementedError

    # also ChanceRules, SearchRules
    def pay_other_cost(self, obj: GameObject, ability: ActivatedAbility, part: str, player: str, decider) -> None:
        raise NotImplementedError

    # also ModelAbilities
    def pay_cost(self, obj: GameObject, ability: ActivatedAbility, cost: Cost, player: str, decider) -> None:
        raise NotImplementedError

    def set_tapped(self, obj: GameObject, tapped: bool, cause: str) -> None:
        raise NotImplementedError

    # ---- activation.ActivatedAbilityEffects
    # also PlaytestRules, ModelAbilities
    def target_options(self, obj: GameObject, ability: ActivatedAbility) -> list[str] | None:
        raise NotImplementedError

    # also StackRules, PlaytestRules, ChanceRules, SearchRules, ModelAbilities
    def resolve_activated_ability(self, obj: GameObject, ability: ActivatedAbility, player: str,
                                  targets: list[str], decider) -> None:
        raise NotImplementedError

    # ---- steps.StepRules
    def decline_step(self, player: str, step: str) -> None:
        raise NotImplementedError

    def begin_step(self, player: str, step: str, decider) -> None:
        raise NotImplementedError

    def lose_for_empty_library(self) -> bool:
        raise NotImplementedError

    def edict(self, player: str, kind: str, decider) -> None:
        raise NotImplementedError

    def deal_no_damage(self, source: str, target: str) -> None:
        raise NotImplementedError
