"""Words of "Retry this position" and of one player's view on the dashboard (issue 24), Turkish
first, English second; game terms (per, çift, okey) stay Turkish in both."""

from __future__ import annotations

from .i18n import lookup

STRINGS: dict[str, tuple[str, str]] = {
    "rt_button": ("Bu pozisyonu dene", "Retry this position"),
    "rt_button_help": ("Oynananı gizler; kararı sen verirsin, değerlendirici beklenen puanla yargılar",
                       "Hides what was played; you decide, the evaluator judges it in expected points"),
    "rt_title": ("Pozisyonu dene: {name} karar veriyor", "Retry the position: {name} decides"),
    "rt_where": ("Oyun {game}, el {hand}, adım {step}: oynanan gizli; masa {name} gözünden.",
                 "Game {game}, hand {hand}, step {step}: what was played is hidden; the table as {name} saw it."),
    "rt_bad_key": ("Deneme bağlantısı okunamadı: {text} (beklenen OYUN/EL/ADIM/YER, örneğin oyun-1/1/12/0).",
                   "The retry link could not be read: {text} (expected GAME/HAND/STEP/SEAT, e.g. game-1/1/12/0)."),
    "rt_no_game": ("Bu veritabanında {game} oyunu yok.", "This database holds no game {game}."),
    "rt_no_hand": ("{game} oyununda {hand}. el yok.", "Game {game} has no hand {hand}."),
    "rt_no_step": ("{hand}. elde {step}. adım yok (son adım {last}).", "Hand {hand} has no step {step} (the last is {last})."),
    "rt_not_turn": ("Adım {step}'de {seat} numaralı yer karar vermiyor (sıra {turn} numaralı yerde).",
                    "At step {step} seat {seat} has no decision to make (seat {turn} is to move)."),
    "rt_over": ("Adım {step}'de el bitmiş: denenecek karar yok.", "The hand is over at step {step}: nothing to retry."),
    "rt_hidden_seat": ("{seat} numaralı yerin ıstakası bu kayıtta gizli: yalnızca kaydı tutan yer denenebilir.",
                       "Seat {seat}'s rack is hidden in this log: only the recording seat can be retried."),
    "rt_task_take": ("Desteden mi çekersin, yerdeki taşı mı alırsın?", "Draw from the deck, or take the discard?"),
    "rt_task_play": ("Istakandan taş seç: koymak için aşağıdaki listeden bir açılış ya da işleme seç, ya da "
                     "seçtiğin tek taşı at.",
                     "Pick tiles on your rack: to place them choose an opening or lay-off from the list below, "
                     "or discard the one tile you picked."),
    "rt_task_discard": ("Hangi taşı atarsın? Istakandan bir taş seç ve at.",
                        "Which tile do you discard? Pick one tile on your rack and discard it."),
    "rt_deck": ("Deste", "Deck"),
    "rt_discard_pile": ("Yerdeki taş", "The discard"),
    "rt_draw": ("Desteden çek", "Draw from the deck"),
    "rt_take": ("Yerdeki taşı al", "Take the discard"),
    "rt_rack": ("Istakan ({name})", "Your rack ({name})"),
    "rt_discard_it": ("Seçilen taşı at", "Discard the picked tile"),
    "rt_single_tile": ("Atmak için tam bir taş seç.", "Pick exactly one tile to discard."),
    "rt_clear": ("Seçimi temizle", "Clear the pick"),
    "rt_places": ("Koyma seçenekleri (değerlendiricinin adayları)", "Placings (the evaluator's candidates)"),
    "rt_places_with": ("Seçtiğin taşları koyan seçenekler: {n}", "Placings that use the tiles you picked: {n}"),
    "rt_places_none": ("Seçtiğin taşların hepsini koyan bir seçenek yok: seçimi değiştir.",
                       "No placing uses every tile you picked: change the pick."),
    "rt_places_more": ("… ve {n} seçenek daha: taş seçerek listeyi daralt.",
                       "… and {n} more placings: pick tiles to narrow the list."),
    "rt_play_this": ("Bunu oyna", "Play this"),
    "rt_judging": ("Değerlendirici deniyor…", "The evaluator is judging…"),
    "rt_right": ("Doğru: {move} — beklenen {e} puan; en iyisi {b} (fark {d} ± {ci}, {w} dünyada).",
                 "Right: {move} — {e} expected points; the best is {b} (difference {d} ± {ci}, on {w} worlds)."),
    "rt_best_exact": ("En iyi hamle: {move} — beklenen {e} puan ({w} dünyada).",
                      "The best move: {move} — {e} expected points (on {w} worlds)."),
    "rt_wrong": ("En iyisi değil: {move} — beklenen {e} puan, en iyisinden {d} ± {ci} puan kötü ({w} dünyada).",
                 "Not the best: {move} — {e} expected points, {d} ± {ci} points worse than the best (on {w} worlds)."),
    "rt_forced": ("Zorunlu karar: buradaki seçenekler sonucu değiştirmiyor ({move}).",
                  "A forced decision: the options here cannot change the outcome ({move})."),
    "rt_not_candidate": ("Bu hamle değerlendirilemedi: {move}", "This move could not be judged: {move}"),
    "rt_hint": ("İpucu: {hint}", "Hint: {hint}"),
    "rt_hint_reason": ("daha iyi hamle için: {why}.", "about the better move: {why}."),
    "rt_hint_take": ("öbür seçeneği düşün: aldığın taş ıstakada ne işe yarıyor?",
                     "think about the other choice: what does the taken tile do in your rack?"),
    "rt_hint_place": ("koyduğun ve ıstakada bıraktığın taşları say: bir sonraki sıraya ne kalıyor?",
                      "count what you place and what you keep: what is left for your next turn?"),
    "rt_hint_discard": ("sonraki oyuncunun yerden ne alabileceğini ve ıstakanda hangi taşların birbirini "
                        "tuttuğunu düşün.",
                        "think about what the next player could take, and which of your tiles hold together."),
    "rt_tries_left": ("Kalan deneme: {n}", "Tries left: {n}"),
    "rt_tries_left_one": ("Kalan deneme: 1", "Tries left: 1"),
    "rt_reveal": ("Cevabı göster", "Show the answer"),
    "rt_again": ("Baştan dene", "Start again"),
    "rt_answer": ("Cevap: değerlendiricinin en iyi hamlesi", "The answer: the evaluator's best move"),
    "rt_answer_rows": ("Denediklerin ve en iyi adaylar", "Your tries and the best candidates"),
    "rt_played": ("Oyunda oynanan: {move}", "Played in the game: {move}"),
    "rt_col_try": ("Deneme", "Try"),
    "rt_col_move": ("Hamle", "Move"),
    "rt_col_expected": ("Beklenen puan", "Expected points"),
    "rt_col_cost": ("Kayıp", "Loss"),
    "rt_tries_title": ("Denemelerin", "Your tries"),
    "rt_open_replay": ("El tekrarında aç", "Open in the Replay"),
    "rt_practice_intro": ("Seçilen oyuncunun en pahalı kararları, en pahalısı önce: bir pozisyonu birkaç kez "
                          "deneyebilirsin, ilk yanlıştan sonra bir ipucu gelir.",
                          "The chosen player's costliest decisions, costliest first: try each a few times; "
                          "a hint comes after the first miss."),
    "rt_practice_of": ("Pozisyon {i} / {n} · oyunda kayıp {c} puan ({cat})",
                       "Position {i} / {n} · lost {c} points in the game ({cat})"),
    "rt_prev": ("Önceki pozisyon", "Previous position"),
    "rt_next": ("Sonraki pozisyon", "Next position"),
    "rt_score": ("Bu oturumda: {right} / {tried} pozisyon doğru, toplam kayıp {cost} puan",
                 "This session: {right} / {tried} positions right, {cost} points lost in all"),
    "rt_back_practice": ("Alıştırma listesine dön", "Back to the practice list"),
    # one player's view (issue 24, item 8)
    "pov_toggle": ("Oyuncu gözünden", "Player's view"),
    "pov_help": ("Sıra oyuncusunun gözünden: diğer ıstakalar ve deste taş sırtı ve sayısıyla, el o oyuncunun "
                 "gördüğü gibi",
                 "As the seat for turns saw it: the other racks and the deck as tile backs with their counts, the "
                 "hand as that player saw it"),
    "pov_note": ("{name} gözünden: diğer ıstakalar gizli; öneriler yalnızca {name} için.",
                 "As {name} saw it: the other racks are hidden; suggestions only for {name}."),
}


def t(key: str, lang: str, **fields: object) -> str:
    """Retry / one player's view string ``key`` in ``lang`` (Turkish unless ``en``)."""
    return lookup(STRINGS, key, lang, **fields)
