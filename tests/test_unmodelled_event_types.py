"""The checks of abilities the engine does not model declare the event types they can be True on
(reference_engine.unmodelled._on), and the engine asks each only on those: on a short fuzzing run
of the reference engine, every check asked on every other event is False (it would have declined
nothing there)."""

from __future__ import annotations

import reference_engine.unmodelled as unmodelled


def test_every_check_is_false_on_the_event_types_it_does_not_declare(monkeypatch):
    from harness.adapters.reference import ReferenceAdapter
    from harness.running.runner import run

    real = unmodelled.decline_if_unmodelled
    asked = [0]

    def checked(game, event):
        kind = event.get("type")
        for gap in unmodelled.GAPS:
            declared = unmodelled._EVENTS.get(gap.check) if gap.check is not None else None
            if declared is not None and kind not in declared:
                assert not gap.check(game, event), f"{gap.card}: {gap.ability} is True on {event}"
                asked[0] += 1
        return real(game, event)

    monkeypatch.setattr(unmodelled, "decline_if_unmodelled", checked)
    result = run(ReferenceAdapter(), max_examples=15, seed=5, database=None, shrink=False, explore=True)
    assert result.violation is None, result.violation
    assert asked[0] > 1000


def test_the_checks_asked_on_an_event_type_are_those_declaring_it_or_none():
    """Each gap's check is asked on the event types it declares, one that declares none on all."""
    for kind in ("damage", "set_combat", "activate", "cast", "begin_step", "destroy"):
        asked = unmodelled._checked_on(kind)
        expected = [g for g in unmodelled.GAPS if g.check is not None
                    and kind in unmodelled._EVENTS.get(g.check, frozenset([kind]))]
        assert asked == expected
    assert any(g.check is not None and g.check not in unmodelled._EVENTS for g in unmodelled.GAPS)


def test_the_gaps_asked_on_an_event_type_follow_a_new_table_of_gaps(monkeypatch):
    """What is kept of :data:`GAPS` by event type is found again once GAPS is another table."""
    unmodelled._checked_on("damage")  # kept for the table of the module
    fewer = tuple(g for g in unmodelled.GAPS if g.card != "Snake Umbra")
    monkeypatch.setattr(unmodelled, "GAPS", fewer)
    assert [g.card for g in unmodelled._checked_on("damage")] == \
        [g.card for g in fewer if g.check is not None and "damage" in unmodelled._EVENTS.get(g.check, {"damage"})]
    assert "Snake Umbra" not in [g.card for g in unmodelled._checked_on("damage")]
