"""How many cards the reader models, and how one card was read (``rulesfuzz cards``).

:func:`models` reads every card of the card database and of the curated pool (one model
per name, the pool's card winning: it is modelled by hand, :attr:`CardModel.hand_written`);
:func:`stats` counts them; :func:`describe` and :func:`summary` say in words how one card
was read, sentence by sentence.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from .model import Ability, Affected, CardModel, Effect

__all__ = ["models", "stats", "stats_lines", "describe", "summary"]


def models() -> Iterator[CardModel]:
    """The model of every card of the card database and the curated pool, each name once
    (the database's order, then the pool's cards the database lacks)."""
    from . import database, pool
    from .reader import model, read

    curated = pool()
    db = database()
    for name in db:
        yield model(name) if name in curated else read(db[name])
    for name in curated:
        if name not in db:
            yield model(name)


def stats() -> tuple[int, int, Counter[str]]:
    """``(modelled, total, templates)``: how many of the cards of :func:`models` are
    modelled, how many there are, and for each template name how many cards use it (a
    card counts once per template; a curated card counts as ``"hand-written"``)."""
    modelled = total = 0
    templates: Counter[str] = Counter()
    for found in models():
        total += 1
        if found.modelled:
            modelled += 1
        templates.update(found.templates)
    return modelled, total, templates


def stats_lines() -> list[str]:
    """``rulesfuzz cards --stats``: ``modelled: N of M cards (P%)``, then one line per
    template with its count of cards, most used first (ties by name)."""
    modelled, total, templates = stats()
    lines = [f"modelled: {modelled} of {total} cards ({100 * modelled / total if total else 0:.1f}%)"]
    width = max((len(t) for t in templates), default=0)
    for template, count in sorted(templates.items(), key=lambda item: (-item[1], item[0])):
        lines.append(f"  {template:<{width}}  {count}")
    return lines


def describe(found: CardModel) -> list[str]:
    """``rulesfuzz cards NAME``: the card's name; each sentence (its name written ``~``)
    with the template that read it or ``NOT READ``; ``modelled`` or ``unmodelled (N
    sentences not read)``; and its abilities, one line each (:func:`summary`)."""
    lines = [found.name]
    if not found.published:
        lines.append("  (its Oracle text is not published)")
    for text, template in found.sentences:
        lines.append(f"  [{template or 'NOT READ'}] {text}")
    if not found.sentences and found.published:
        lines.append("  (no rules text)")
    if found.hand_written:
        lines.append("modelled (hand-written: a card of the curated pool, the reference engine's own rules)")
    elif found.modelled:
        lines.append("modelled")
    else:
        n = len(found.unread)
        lines.append(f"unmodelled ({n} sentence{'' if n == 1 else 's'} not read)")
    if found.abilities:
        lines.append("abilities:")
        lines.extend(f"  {summary(a)}" for a in found.abilities)
    return lines


def summary(ability: Ability) -> str:
    """One ability in a few words: ``keyword: protection from red``, ``spell: destroy target
    creature (nonartifact, nonblack), can't be regenerated``, ``mana ability: {T}: G``."""
    head = ability.template
    if ability.kind == "keyword":
        return f"{head}: {ability.keyword}" + (f" {ability.parameter}" if ability.parameter else "")
    if ability.kind == "mana":
        return f"{head}: {_cost(ability)}: {' or '.join(ability.produces)}"
    if ability.kind == "static":
        if ability.static == "bonus":
            parts = []
            if ability.power or ability.toughness:
                parts.append(f"{ability.power:+d}/{ability.toughness:+d}")
            if ability.keywords:
                parts.append(", ".join(ability.keywords))
            return f"{head}: {_affected(ability.affected)} get {' and '.join(parts)}"
        who = f" ({_affected(ability.affected)})" if ability.affected and ability.affected.scope != "self" else ""
        return f"{head}: {ability.static}{who}"
    effects = "; ".join(_effect(e) for e in ability.effects)
    if ability.kind == "triggered":
        watched = f" ({', '.join(ability.affected.filters)})" if ability.affected and ability.affected.filters else ""
        return f"{head}: {ability.trigger}{watched}{' (optional)' if ability.optional else ''} -> {effects}"
    if ability.kind == "activated":
        return f"{head}: {_cost(ability)} -> {effects}"
    return f"{head}: {effects}"


def _cost(ability: Ability) -> str:
    parts = [p for p in (ability.cost or None, "{T}" if ability.tap else None,
                         "sacrifice it" if ability.sacrifice_self else None) if p]
    return ", ".join(parts) or "free"


def _affected(affected: Affected | None) -> str:
    if affected is None:
        return "-"
    count = ""
    if affected.scope == "target":
        count = ("up to " if affected.up_to else "") + (f"{affected.count} " if affected.count != 1 else "")
    text = f"{count}{affected.scope} {affected.kind}"
    return text + (f" ({', '.join(affected.filters)})" if affected.filters else "")


def _effect(effect: Effect) -> str:
    who = _affected(effect.affected)
    if effect.action == "pt":
        text = f"pt {effect.power:+d}/{effect.toughness:+d} {who}"
        if effect.keywords:
            text += f" and {', '.join(effect.keywords)}"
    elif effect.action == "gain_keywords":
        text = f"gain {', '.join(effect.keywords)} {who}"
    elif effect.action == "counters":
        text = f"{effect.amount} {effect.counter} counter(s) on {who}"
    elif effect.action == "create_tokens" and effect.token:
        t = effect.token
        text = f"create {effect.amount} {t.power}/{t.toughness} {t.name}" + (f" ({', '.join(t.keywords)})" if t.keywords
                                                                               else "")
    elif effect.equal_to:
        text = f"{effect.action} {who} equal to {effect.equal_to[1]}'s {effect.equal_to[0]}"
    elif effect.per:
        text = f"{effect.action} {effect.amount} {who} for each {_affected(effect.per).split(' ', 1)[1]}"
    elif effect.divided:
        text = f"{effect.action} {effect.amount} divided among {who}"
    elif effect.amount:
        text = f"{effect.action} {effect.amount} {who}"
    else:
        text = f"{effect.action} {who}"
    if effect.until_end_of_turn:
        text += " until end of turn"
    if effect.cant_be_regenerated:
        text += ", can't be regenerated"
    return text
