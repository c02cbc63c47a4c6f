"""Strings of the loss graph, the key moments and the on-board marks (issue 24 items 3, 4, 9), in
Turkish and English, with their own ``t`` (as :mod:`dashboard.pricing_words` has)."""

from __future__ import annotations

from .i18n import lookup

STRINGS: dict[str, tuple[str, str]] = {
    # the loss graph (dashboard/loss_graph.py)
    "lg_title_deep": ("Beklenen el puanı, karar karar (derin inceleme)",
                      "Expected hand score, decision by decision (the deep review)"),
    "lg_title_quick": ("Biriken maliyet, sıra sıra (hızlı inceleme)",
                       "Cost so far, turn by turn (the quick review)"),
    "lg_help": ("Bir noktaya tıkla: o adım El tekrarı'nda açılır. Büyük işaretler pahalı kararlardır.",
                "Click a point to open that step in the Replay. Big markers are costly decisions."),
    "lg_help_replay": ("Bir noktaya tıkla: el o adıma gider. Dikey çizgi şimdiki adımdır.",
                       "Click a point to go to that step of the hand. The vertical line is the current step."),
    "lg_axis_step": ("adım", "step"),
    "lg_axis_game": ("adım (eller art arda)", "step (the hands one after another)"),
    "lg_axis_deep": ("beklenen el puanı (düşük iyi)", "expected hand score (lower is better)"),
    "lg_axis_quick": ("biriken maliyet (puan)", "cost so far (points)"),
    "lg_hand": ("El {n}", "Hand {n}"),
    "lg_now": ("şimdi", "now"),
    "lg_hover_deep": ("{player} · el {hand} · adım {step}<br>beklenen {y} · kayıp {cost}<br>{move}",
                      "{player} · hand {hand} · step {step}<br>expected {y} · lost {cost}<br>{move}"),
    "lg_hover_quick": ("{player} · el {hand} · adım {step}<br>toplam {y} · bu sıra {cost}<br>{move}",
                       "{player} · hand {hand} · step {step}<br>so far {y} · this turn {cost}<br>{move}"),
    "lg_none": ("Bu oyunun incelemesinde çizilecek karar yok.", "This game's review has no decision to draw."),
    "lg_none_hand": ("Bu elin incelemesinde çizilecek karar yok.", "This hand's review has no decision to draw."),
    "lg_replay_title": ("Kayıp grafiği (bu el)", "Loss graph (this hand)"),
    # key moments (dashboard/moments_view.py)
    "kmv_title": ("Önemli anlar: oyuncuların en pahalı kararları",
                  "Key moments: each player's costliest decisions"),
    "kmv_none": ("Maliyetli karar yok.", "No costly decision."),
    "kmv_open": ("El {hand} · adım {step} · {cost} puan", "Hand {hand} · step {step} · {cost} points"),
    "kmv_help": ("Bu adımı El tekrarı'nda aç", "Open this step in the Replay"),
    # on-board marks (dashboard/board_marks.py, tiles_view.py)
    "mk_played": ("oynanan", "played"),
    "mk_better": ("daha iyisi", "better"),
    "mk_played_title": ("Oynanan taş: {tile}", "The tile played: {tile}"),
    "mk_better_title": ("İncelemeye göre daha iyisi: {tile}", "The better one, by the review: {tile}"),
    "mk_layoff": ("işleme buraya", "lay-off here"),
    "mk_layoff_title": ("Bu sıradaki işleme bu pere gidiyor (#{m})", "This turn's lay-off goes to this meld (#{m})"),
    "mk_layoff_better": ("daha iyisi buraya", "better here"),
    "mk_layoff_better_title": ("İncelemeye göre daha iyisi bu pere işlemek (#{m})",
                               "The better line, by the review, lays off on this meld (#{m})"),
    "mk_fed": ("bitirtti", "fed the finish"),
    "mk_fed_title": ("Bu atılan taş ({tile}) sonraki oyuncuya eli bitirtti",
                     "This discard ({tile}) let the next player finish"),
    "mk_fed_centre": ("Bitirten taş: {name} attı", "The discard that fed the finish: thrown by {name}"),
    "mk_legend": ("İşaretler: ▲ düz çerçeve oynanan taş · ★ kesikli çerçeve incelemeye göre daha iyisi · "
                  "→ işlemenin gittiği per · ⚑ çift çerçeve eli bitirten atılan taş",
                  "Marks: ▲ solid outline the tile played · ★ dashed outline the better one by the review · "
                  "→ the meld a lay-off goes to · ⚑ double outline the discard that fed a finish"),
}


def t(key: str, lang: str, **fields: object) -> str:
    """A loss graph / key moments / board marks string."""
    return lookup(STRINGS, key, lang, **fields)


__all__ = ["STRINGS", "t"]
