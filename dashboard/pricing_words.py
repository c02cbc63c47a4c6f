"""Strings of the deep review's pricing on the dashboard (issue 21): intervals ("24 ± 6"), forced
decisions, the bad-move rates and the severity filter, in Turkish and English, with their own
``t`` (as :mod:`dashboard.review_data` and :mod:`dashboard.rule_links` have theirs)."""

from __future__ import annotations

from typing import Any

from .i18n import lookup

STRINGS: dict[str, tuple[str, str]] = {
    "pw_kind_show": ("gösterge (O7)", "gösterge (O7)"),
    "pw_col_forced": ("Zorunlu", "Forced"),
    "pw_col_rate": ("> {x} puan kayıp %", "> {x} points lost %"),
    "pw_forced": ("zorunlu", "forced"),
    "pw_forced_note": ("Zorunlu kararlar (adaylar farklı olamaz) isabete ve karar sayılarına katılmaz: "
                       "bu oyunda {n} zorunlu karar çıkarıldı. Kararların hepsi {w} sabit dünyada fiyatlandı.",
                       "Forced decisions (the candidates cannot differ) are left out of accuracy and decision "
                       "counts: {n} were left out in this game. Every decision was priced on {w} fixed worlds."),
    "pw_forced_note_one": ("Zorunlu kararlar (adaylar farklı olamaz) isabete ve karar sayılarına katılmaz: "
                           "bu oyunda 1 zorunlu karar çıkarıldı. Kararların hepsi {w} sabit dünyada fiyatlandı.",
                           "Forced decisions (the candidates cannot differ) are left out of accuracy and decision "
                           "counts: 1 was left out in this game. Every decision was priced on {w} fixed worlds."),
    "pw_forced_why": ("Zorunlu karar: seçenekler sonucu değiştiremez, fiyatlanmadı ve isabete katılmaz.",
                      "A forced decision: the options cannot change the outcome; not priced, not counted in "
                      "accuracy."),
    "pw_min_cost": ("Yalnız şu kadar puandan büyük hatalar", "Only mistakes over this many points"),
    "pw_min_all": ("hepsi", "all"),
    "pw_min_fmt": ("> {x} puan", "> {x} points"),
    "pw_cost_ci": ("Kayıp: {cost} ± {ci} beklenen puan ({w} dünyada, %95 aralık)",
                   "Cost: {cost} ± {ci} expected points ({w} worlds, 95% interval)"),
    "pw_tie": ("aynı derecede iyi", "as good"),
    "pw_col_tie": ("En iyisi kadar", "As good as the best"),
    "pw_chart_rates": ("Kötü hamle oranı (puanlanan kararların yüzdesi)", "Bad-move rate (% of graded decisions)"),
    "pw_axis_rate": ("kararların yüzdesi", "% of decisions"),
    "pw_rate_name": ("> {x} puan", "> {x} points"),
}


def t(key: str, lang: str, **fields: Any) -> str:
    """A pricing string in ``lang``; with ``n=1`` a ``<key>_one`` form is used where there is one."""
    return lookup(STRINGS, key, lang, **fields)


def cost_text(cost: float, ci: float | None, worlds: int, forced: str | None, lang: str) -> str:
    """A decision's cost as the tables show it: "24 ± 6", "0", or "forced"."""
    if forced:
        return t("pw_forced", lang)
    if ci is not None and worlds and cost > 0:
        return f"{cost:.0f} ± {ci:.0f}"
    return f"{cost:.0f}"


__all__ = ["STRINGS", "cost_text", "t"]
