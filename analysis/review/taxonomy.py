"""Mistakes by kind: the review's categories (:data:`analysis.review.model.CATEGORIES`) gathered
into the kinds a coach speaks of, each with the rule IDs it concerns.

Every category the review writes belongs to exactly one kind (:data:`KIND_OF`), so a cost is
counted once: the kinds' totals add up to the review's total cost. A deep review's costed
decision always carries a category (the quick pass's exact finding when the recommended line
does what it names, else the general one of its decision: ``worse_take``, ``worse_placing``,
``worse_discard`` …); a cost stored without one is counted by its decision (:data:`GENERIC`).
A category the current review no longer writes (an older annotation) falls in :data:`OTHER`.

The kinds' words are here in both languages (the CLI prints the English ones).
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import CATEGORIES, GENERIC


@dataclass(frozen=True, slots=True)
class Kind:
    """One kind of mistake: ``key``, its categories, the rule IDs it concerns, its name and what
    it holds in Turkish and English."""

    key: str
    categories: tuple[str, ...]
    rules: tuple[str, ...]
    tr: str
    en: str
    tr_help: str
    en_help: str

    def name(self, lang: str) -> str:
        return self.tr if lang == "tr" else self.en

    def help(self, lang: str) -> str:
        return self.tr_help if lang == "tr" else self.en_help


OTHER = "other"

KINDS: tuple[Kind, ...] = (
    Kind("penalty_discards", ("okey_discard", "layoff_discard", "fed_opening"), ("X3", "X4", "X5"),
         "Cezalı atışlar", "Penalised discards",
         "okey atmak (X3), masadaki bir pere işlenen taşı atmak (X4), sonraki oyuncunun açılışını beslemek (X5)",
         "throwing an okey (X3), a tile a table meld takes (X4), a tile the next player opens with (X5)"),
    Kind("openings", ("missed_opening", "weaker_opening", "broke_opening"), ("O1", "O2", "O3"),
         "Kaçan ve geciken açılışlar", "Missed and late openings",
         "açılabilecekken açmamak, daha zayıf açmak, eşiğe yakın açılışı bozan taşı atmak",
         "not opening when the rack could, a weaker opening, discarding a tile of an opening near its threshold"),
    Kind("take_draw", ("missed_take", "missed_take_finish", "worse_take"), ("P1", "P2", "P3", "P4"),
         "Yerden almak ya da çekmek", "Take or draw",
         "yerdeki taşı almak ile desteden çekmek arasındaki seçim",
         "the choice between taking the previous discard and drawing from the deck"),
    Kind("wait_open", ("worse_placing",), ("O1", "O5", "O9"),
         "Beklemek ya da açmak", "Wait or open",
         "açmak ya da taş koymak yerine beklemek, ya da tersi",
         "opening or placing where waiting was better, or waiting where placing was"),
    Kind("pairs_melds", ("pairs_over_melds", "melds_over_pairs"), ("O3", "O4"),
         "Çift mi per mi", "Pairs or melds",
         "çiftle ya da perle açmak arasındaki seçim", "the choice between opening with pairs and with melds"),
    Kind("layoffs", ("missed_layoff", "worse_layoffs"), ("L1", "L3", "L6"),
         "İşlemek ya da bekletmek", "Lay-offs made or held back",
         "işlenebilecek taşları ıstakada bırakmak, ya da bekletilmesi gerekenleri işlemek",
         "leaving tiles that could be laid off in the rack, or laying off what should wait"),
    Kind("okey", ("missed_swap", "okey_kept", "worse_show", "worse_declare"), ("S1", "S2", "S3", "X6", "O7", "O10"),
         "Okey ve gösterge", "Okey handling",
         "masadaki okeyi almak (S1–S3), okeyi alınabilir bırakmak (X6), gösterge (O7), çift bildirmek (O10)",
         "taking the okey from the table (S1–S3), leaving it to be taken (X6), showing the gösterge (O7), "
         "declaring çift (O10)"),
    Kind("finishing", ("missed_finish",), ("E1", "E2"),
         "Kaçan bitişler", "Missed finishes", "bitirilebilecek eli bitirmemek", "not finishing a hand that could be finished"),
    Kind("discard_safety", ("last_discard", "fed_finish"), ("E4", "E5"),
         "Atış güvenliği", "Discard safety",
         "deste biterken yüksek ölü taşı tutmak, sonraki oyuncuyu bitiren taşı atmak",
         "keeping a high dead tile as the deck runs out, discarding the tile the next player finishes with"),
    Kind("taken_back", ("failed_opening",), ("X2", "X7"),
         "Geri alınan açılış ve işlemeler", "Openings and lay-offs taken back",
         "geçersiz açılışı geri almak (X2), işlenen taşları geri almak (X7)",
         "a failed opening taken back (X2), lay-offs taken back (X7)"),
    Kind("other_discards", ("worse_discard",), (),
         "Diğer atışlar", "Other discards",
         "aynı dünyalarda daha düşük puanlı bir atış varken başka taş atmak",
         "another discard scored lower on the same worlds"),
    Kind(OTHER, (), (), "Diğer", "Other", "bugünkü incelemenin yazmadığı kategoriler (eski bir inceleme)",
         "categories the current review no longer writes (an older review)"),
)

BY_KEY: dict[str, Kind] = {k.key: k for k in KINDS}
KIND_OF: dict[str, str] = {c: k.key for k in KINDS for c in k.categories}


def kind_of(category: str | None, decision: str | None = None) -> str:
    """The kind a cost belongs to: its category's, else (no category) its decision's general
    category's (``take``, ``place``, ``discard``, ``show``), else :data:`OTHER`."""
    if category is None and decision is not None:
        category = GENERIC.get(decision)
    return KIND_OF.get(category or "", OTHER)


def kind_sql(category: str = "category", decision: str = "decision") -> str:
    """:func:`kind_of` as a SQL CASE over two columns (the store's queries group by it)."""
    generic = " ".join(f"WHEN {decision} = '{d}' THEN '{KIND_OF[c]}'" for d, c in GENERIC.items())
    named = " ".join(f"WHEN {category} = '{c}' THEN '{k}'" for c, k in KIND_OF.items())
    return (f"CASE {named} WHEN {category} IS NULL THEN (CASE {generic} ELSE '{OTHER}' END) "
            f"ELSE '{OTHER}' END")


def uncovered() -> list[str]:
    """The review's categories that no kind holds (none: the taxonomy covers the review)."""
    return [c for c in CATEGORIES if c not in KIND_OF]


__all__ = ["BY_KEY", "KINDS", "KIND_OF", "OTHER", "Kind", "kind_of", "kind_sql", "uncovered"]
