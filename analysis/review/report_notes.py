"""A coach's notes in the HTML report : each hand's notes under its heading,
beside its decisions, with the move of the noted step drawn; notes on a hand the report does not
show go in a closing section. Every text from a note is escaped (a note is a user's text).

The notes come from the store (:mod:`analysis.store.notes`), which this layer does not import: a
note is anything with ``hand``, ``step``, ``mark``, ``text`` and ``author``. The report passes
its own drawing of a move (``move_html``), so that this module does not import it back.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

MoveHtml = Callable[[dict[str, Any], Any], str]  # (a log event, the okey) -> the move drawn

CSS = (".note{border-left:4px solid #6a4c93;background:#f6f2fb;padding:6px 10px;margin:6px 0;border-radius:4px}"
       ".note .mk{font-weight:700;color:#6a4c93;margin-right:6px}.note .tx{white-space:pre-wrap;margin:3px 0 0}")

WORDS: dict[str, tuple[str, str]] = {
    "notes": ("Antrenörün notları", "Coach's notes"),
    "notes_other": ("Öteki notlar", "Other notes"),
    "step": ("El {hand}, adım {step}", "Hand {hand}, step {step}"),
    "by": ("yazan: {who}", "by {who}"),
}
SHOWN_EVENTS = ("draw", "take", "return", "discard", "show", "open", "meld", "layoff", "swap", "takeback", "declare")


class NoteLike(Protocol):
    hand: int
    step: int
    mark: str
    text: str
    author: str


def esc(x: object) -> str:
    return html.escape(str(x), quote=True)


def word(key: str, lang: str, **fields: object) -> str:
    tr, en = WORDS[key]
    return (en if lang == "en" else tr).format(**fields)


def note_html(n: NoteLike, hr: Any, players: Sequence[str], lang: str, move_html: MoveHtml | None = None) -> str:
    """One note: where it is, the move played at that step (when the hand is known), its mark and text."""
    where = esc(word("step", lang, hand=n.hand, step=n.step))
    steps = getattr(hr, "steps", None) or []
    if 0 <= n.step < len(steps):
        ev = steps[n.step].event
        seat = ev.get("seat")
        who = f"{esc(players[seat])}: " if isinstance(seat, int) and 0 <= seat < len(players) else ""
        if ev.get("type") in SHOWN_EVENTS and move_html is not None:
            where += f" · {who}{move_html(ev, steps[n.step].state.okey)}"
    mark = f'<span class="mk">{esc(n.mark)}</span>' if n.mark else ""
    by = f' · {esc(word("by", lang, who=n.author))}' if n.author else ""
    text = f'<div class="tx">{esc(n.text)}</div>' if n.text else ""
    return (f'<div class="note" data-hand="{int(n.hand)}" data-step="{int(n.step)}">{mark}'
            f'<span class="lbl">{where}{by}</span>{text}</div>')


def hand_notes(notes: Iterable[NoteLike], hand: int, hr: Any, players: Sequence[str], lang: str,
               move_html: MoveHtml | None = None) -> list[str]:
    """The notes of hand number ``hand``, in step order, as report blocks (none: nothing)."""
    mine = sorted((n for n in notes if n.hand == hand), key=lambda n: n.step)
    return [note_html(n, hr, players, lang, move_html) for n in mine]


def other_notes(notes: Iterable[NoteLike], shown: set[int], players: Sequence[str], lang: str) -> list[str]:
    """A closing section for the notes on hands the report did not show."""
    rest = sorted((n for n in notes if n.hand not in shown), key=lambda n: (n.hand, n.step))
    if not rest:
        return []
    return [f'<h2>{esc(word("notes_other", lang))}</h2>'] + [note_html(n, None, players, lang) for n in rest]


__all__ = ["CSS", "WORDS", "NoteLike", "hand_notes", "note_html", "other_notes"]
