"""Turkish and English strings of the dashboard (Turkish is the default).

Turkish game terms (per, çift, işlemek, okey, gösterge, elden, ...) stay in both languages:
that is what players say at the table. ``t(key, lang, **fields)`` formats one string.
"""

from __future__ import annotations

LANGS = ("tr", "en")
DEFAULT = "tr"

STRINGS: dict[str, tuple[str, str]] = {
    # navigation and shell
    "app_title": ("Istaka — 101 Okey analiz masası", "Istaka — the 101 Okey analysis board"),
    "language": ("Dil", "Language"),
    "page_games": ("Oyunlar", "Games"),
    "page_replay": ("Tekrar", "Replay"),
    "page_lab": ("Açılış laboratuvarı", "Opening lab"),
    "page_players": ("Oyuncular", "Players"),
    "db_caption": ("Veritabanı: {path}", "Database: {path}"),
    # games page
    "games_title": ("Oyunlar", "Games"),
    "filter_player": ("Oyuncu", "Player"),
    "filter_variant": ("Varyant", "Variant"),
    "filter_site": ("Site", "Site"),
    "filter_result": ("Sonuç", "Result"),
    "all": ("Hepsi", "All"),
    "games_count": ("{n} oyun ({total} içinden)", "{n} games (of {total})"),
    "games_count_one": ("1 oyun ({total} içinden)", "1 game (of {total})"),
    "no_games": ("Filtreye uyan oyun yok.", "No game matches the filters."),
    "pick_game": ("Oyun", "Game"),
    "upload": ("Oyun kaydı yükle (.jsonl / .jsonl.gz)", "Upload game logs (.jsonl / .jsonl.gz)"),
    "upload_too_big": ("{name}: {size} MB, sınır {limit} MB", "{name}: {size} MB, the limit is {limit} MB"),
    "upload_bad_name": ("{name}: yalnız .jsonl ve .jsonl.gz", "{name}: only .jsonl and .jsonl.gz"),
    "import_summary": ("İçe aktarma özeti", "Import summary"),
    "import_errors": ("İçe aktarma hataları", "Import errors"),
    "no_import_errors": ("Hata yok.", "No errors."),
    "col_game": ("Oyun", "Game"),
    "col_variant": ("Varyant", "Variant"),
    "col_players": ("Oyuncular", "Players"),
    "col_date": ("Tarih", "Date"),
    "col_site": ("Site", "Site"),
    "col_hands": ("El", "Hands"),
    "col_valid": ("Geçerli", "Valid"),
    "col_winner": ("Kazanan", "Winner"),
    "col_totals": ("Toplamlar", "Totals"),
    # replay page
    "replay_title": ("El tekrarı", "Hand replay"),
    "hand": ("El", "Hand"),
    "step": ("Adım", "Step"),
    "step_label": ("Adım {i} / {n}", "Step {i} / {n}"),
    "first": ("Baş", "Start"),
    "prev": ("Geri", "Back"),
    "next": ("İleri", "Forward"),
    "last": ("Son", "End"),
    "prev_turn": ("Önceki sıra", "Previous turn"),
    "next_turn": ("Sonraki sıra", "Next turn"),
    "key_home": ("Baş (Home)", "Start (Home)"),
    "key_left": ("Bir olay geri (←)", "One event back (←)"),
    "key_right": ("Bir olay ileri (→)", "One event forward (→)"),
    "key_end": ("Son (End)", "End (End)"),
    "key_pgup": ("Seçili oyuncunun önceki sırası (PageUp)", "The chosen seat's previous turn (PageUp)"),
    "key_pgdn": ("Seçili oyuncunun sonraki sırası (PageDown)", "The chosen seat's next turn (PageDown)"),
    "turn_seat": ("Sıra oyuncusu", "Seat for turns"),
    "turn_seat_help": ("PageUp/PageDown bu oyuncunun önceki/sonraki sırasına gider.",
                       "PageUp/PageDown go to this seat's previous/next turn."),
    "autoplay": ("Otomatik oynat", "Autoplay"),
    "keys_help": ("Klavye: ← → bir olay, Home/End baş/son, PageUp/PageDown seçili oyuncunun sırası",
                  "Keyboard: ← → one event, Home/End start/end, PageUp/PageDown the chosen seat's turns"),
    "moves": ("Hamleler", "Moves"),
    "col_seat": ("Oyuncu", "Seat"),
    "col_move": ("Hamle", "Move"),
    "no_replay": ("Bu oyun tekrar edilemiyor: {msg}", "This game cannot be replayed: {msg}"),
    "hand_invalid": ("Geçersiz hamle, satır {line}: {msg} [{rule}]",
                     "Illegal move, line {line}: {msg} [{rule}]"),
    "indicator": ("Gösterge", "Gösterge (indicator)"),
    "okey": ("Okey", "Okey"),
    "deck": ("Deste", "Deck"),
    "deck_count": ("{n} taş", "{n} tiles"),
    "deck_count_one": ("1 taş", "1 tile"),
    "table": ("Masa", "Table"),
    "no_melds": ("Masada per yok", "No per on the table yet"),
    "discards": ("Atılanlar", "Discards"),
    "opened_points": ("açtı: {v} sayı", "opened: {v} points"),
    "opened_pairs": ("açtı: {v} çift", "opened: {v} çift"),
    "not_opened": ("açmadı", "not opened"),
    "thresholds": ("eşik: {p} sayı / {c} çift", "threshold: {p} points / {c} çift"),
    "penalties": ("ceza", "penalties"),
    "score": ("puan", "score"),
    "to_move": ("sırada", "to move"),
    "owner": ("{name}", "{name}"),
    "stands_for": ("yerine", "stands for"),
    "hand_end": ("El sonu", "End of hand"),
    "result_finish": ("{name} bitirdi", "{name} finished"),
    "result_exhausted": ("Deste bitti", "Deck exhausted"),
    "result_void": ("El geçersiz (dört çift açan, E3)", "Hand void (four çift openers, E3)"),
    "result_invalid": ("Geçersiz el", "Invalid hand"),
    "result_unfinished": ("El tamamlanmamış", "Hand unfinished"),
    "kind_okey": ("okey atarak bitiş ×2", "finished by discarding an okey ×2"),
    "kind_elden": ("elden bitiş ×2", "elden finish ×2"),
    "kind_pairs": ("çiftten bitiş ×2", "finished after opening çift ×2"),
    "kind_normal": ("normal bitiş", "normal finish"),
    "multiplier_note": ("Çarpan: bitiren ×{f}, rakipler ×{o} ({rule})",
                        "Multiplier: finisher ×{f}, opponents ×{o} ({rule})"),
    "col_hand_score": ("El puanı", "Hand score"),
    "col_penalties": ("Cezalar", "Penalties"),
    "col_total": ("Toplam", "Total"),
    "col_player": ("Oyuncu", "Player"),
    # suggestions
    "suggestions": ("Öneriler", "Suggestions"),
    "suggest_for": ("{name} için en iyi hamle", "Best play for {name}"),
    "best_points": ("En iyi per açılışı: {v} sayı (eşik {t})", "Best per opening: {v} points (threshold {t})"),
    "best_pairs": ("En iyi çift açılışı: {v} çift (eşik {t})", "Best çift opening: {v} çift (threshold {t})"),
    "reaches": ("eşiği geçiyor", "reaches the threshold"),
    "not_reaches": ("eşiğe yetmiyor", "below the threshold"),
    "left": ("Kalan", "Left"),
    "plan": ("En iyi sıra: kalan ceza {p}", "Best turn: rack penalty left {p}"),
    "plan_melds": ("Yeni perler", "New per"),
    "plan_layoffs": ("İşlenecekler", "İşlemek (lay-offs)"),
    "plan_swaps": ("Okey alma", "Okey swaps"),
    "plan_finishes": ("Bu sıra bitirebilir", "Can finish this turn"),
    "dangerous": ("Tehlikeli taşlar (atılırsa ceza)", "Dangerous discards (penalised)"),
    "none": ("yok", "none"),
    "played": ("Oynanan", "Played"),
    "cost": ("Fark", "Cost"),
    "solver_missing": ("Çözücü henüz yok.", "The solver is not available."),
    "suggest_wait": ("Sıra oyuncusu taş çekince öneri gösterilir.",
                     "Suggestions show once the seat to move has drawn."),
    "cmp_opened_less": ("{v} ile açtı, {best} mümkündü", "opened with {v} while {best} was possible"),
    "cmp_opened_best": ("en iyi açılışla açtı ({v})", "opened with the best opening ({v})"),
    "cmp_not_opened": ("açmadı; çözücüye göre {best} ile açabilirdi (şimdi açmak mı beklemek mi daha iyi: "
                       "aşağıda değerlendiricinin sıralaması)",
                       "did not open; the solver finds an opening of {best} (whether opening now beats waiting: "
                       "the evaluator's ranking below)"),
    "cmp_could_not_open": ("açamazdı: en iyi per {v} sayı (eşik {tv}), en iyi {c} çift (eşik {tc})",
                           "could not open: best per {v} points (threshold {tv}), best {c} çift (threshold {tc})"),
    "cmp_eval_first": ("değerlendiricinin ilk sırası: {move} ({e:+.1f} beklenen puan)",
                       "the evaluator ranks first: {move} ({e:+.1f} expected points)"),
    "review_says": ("İnceleme bu sırada: {sev} — {cat}, {cost} puan. {why}",
                    "The review at this turn: {sev} — {cat}, {cost} points. {why}"),
    "cmp_pairs_less": ("{v} çift ile açtı, {best} çift mümkündü", "opened with {v} çift while {best} were possible"),
    "cmp_kept_okey": ("okeyi elde tuttu, takasla alınabilirdi", "kept an okey a swap would have freed"),
    "cmp_left_more": ("elde {v} ceza kaldı, en iyisi {best}", "rack penalty left {v}, best was {best}"),
    "cmp_ok": ("en iyi hamle oynandı", "the best move was played"),
    "cmp_nothing": ("bir şey yerleştirmedi", "placed nothing"),
    # moves (event descriptions)
    "ev_hand": ("Dağıtım (başlayan: {name})", "Deal (starter: {name})"),
    "ev_draw": ("desteden çekti {tile}", "draws {tile}"),
    "ev_take": ("yandan aldı {tile}", "takes discard {tile}"),
    "ev_return": ("geri koydu {tile}", "returns {tile}"),
    "ev_show": ("gösterge gösterdi {tile}", "shows the gösterge {tile}"),
    "ev_declare": ("çifte gidiyor", "declares çift"),
    "ev_open": ("açtı {what}", "opens {what}"),
    "ev_meld": ("per koydu {what}", "places {what}"),
    "ev_layoff": ("işledi {tiles} → per #{meld}", "lays off {tiles} onto per #{meld}"),
    "ev_swap": ("okey aldı: {tiles} → per #{meld}", "takes the okey: {tiles} into per #{meld}"),
    "ev_takeback": ("geri aldı", "takes back"),
    "ev_discard": ("attı {tile}", "discards {tile}"),
    "ev_penalty": ("ceza {points}", "penalty {points}"),
    "ev_end": ("el sonu: {reason}", "hand end: {reason}"),
    # opening lab
    "lab_title": ("Açılış laboratuvarı", "Opening lab"),
    "lab_rack": ("Istaka (gösterim: R1 Y2 B3 K4 J)", "Rack (notation: R1 Y2 B3 K4 J)"),
    "lab_picker": ("Taş seç (tıkla: ekle)", "Pick tiles (click to add)"),
    "lab_clear": ("Temizle", "Clear"),
    "lab_undo": ("Son taşı sil", "Remove last tile"),
    "lab_random": ("Rastgele dağıt", "Random deal"),
    "lab_preset": ("Varyant", "Variant"),
    "lab_threshold": ("Şu anki eşik (sayı)", "Current threshold (points)"),
    "lab_take": ("Yandan alınan taş (isteğe bağlı)", "Taken discard (optional)"),
    "lab_too_many": ("{tiles}: 106 taşlık takımda olandan fazla (gösterge {ind} de onlardan biri) [T1]",
                     "{tiles}: more copies than the 106-tile set holds (the gösterge {ind} is one of them) [T1]"),
    "lab_count": ("{n} taş", "{n} tiles"),
    "lab_count_one": ("1 taş", "1 tile"),
    "lab_share": ("Paylaşılabilir bağlantı", "Shareable link"),
    "lab_empty": ("Istakaya taş ekleyin.", "Add tiles to the rack."),
    # players page
    "players_title": ("Oyuncular", "Players"),
    "players_pick": ("Oyuncular", "Players"),
    "chart_cumulative": ("Birikimli toplam (el el)", "Cumulative total (hand by hand)"),
    "chart_over_dates": ("Birikimli toplam (tarihe göre)", "Cumulative total over dates"),
    "chart_game_totals": ("Oyun toplamları", "Per-game totals"),
    "chart_ranks": ("Oyun sıralamaları", "Per-game ranks"),
    "chart_openings": ("Açılış değerleri ve eşik", "Opening values against the threshold"),
    "chart_finishes": ("Bitiş türleri", "Finish kinds"),
    "chart_penalties": ("Kurala göre cezalar", "Penalties by rule"),
    "stats_table": ("Oyuncu istatistikleri", "Per-player statistics"),
    "no_data": ("Veri yok.", "No data."),
    "axis_hand": ("el (sırayla)", "hand (in order)"),
    "axis_total": ("toplam", "total"),
    "axis_game": ("oyun", "game"),
    "axis_rank": ("sıra", "rank"),
    "axis_value": ("açılış değeri", "opening value"),
    "axis_threshold": ("eşik", "threshold"),
    "axis_count": ("adet", "count"),
    "axis_date": ("tarih", "date"),
    # ---- issue 13: every word a user reads (Games, Replay, Lab, Players, setup) ----
    "games_lower_better": ("101'de düşük toplam iyidir: en düşük toplamlı oyuncu kazanır.",
                           "In 101 a lower total is better: the player with the lowest total wins."),
    "filter_from": ("Başlangıç", "From"),
    "filter_to": ("Bitiş", "To"),
    "result_valid_f": ("geçerli", "valid"),
    "result_invalid_f": ("geçersiz", "invalid"),
    "result_disagrees_f": ("kayıttaki puan farklı", "log scores differ"),
    "result_complete_f": ("tamamlanmış", "complete"),
    "result_incomplete_f": ("yarım kalmış", "incomplete"),
    "result_won_f": ("kazandığı", "won"),
    "result_lost_f": ("kaybettiği", "lost"),
    "upload_button": ("Dosya seç", "Choose files"),
    "players_placeholder": ("Oyuncu seçin", "Choose players"),
    "games_click": ("Bir satıra tıkla: oyunun tekrarı açılır (▶ yeni sekmede açar).",
                    "Click a row to replay that game (▶ opens it in a new tab)."),
    "new_games": ("Yeni yüklenen {n} oyun:", "{n} newly uploaded games:"),
    "new_games_one": ("Yeni yüklenen oyun:", "Newly uploaded game:"),
    "import_line": (("{files} dosya, {games} oyun: {stored} kaydedildi, {unchanged} değişmedi, {conflicts} çakışma, "
                     "{invalid} geçersiz, {failed} okunamadı"),
                    ("files: {files}, games: {games} — stored {stored}, unchanged {unchanged}, conflicts {conflicts}, "
                     "invalid {invalid}, failed {failed}")),
    "col_what": ("", ""),
    "col_count": ("Sayı", "Count"),
    "sum_files": ("Dosya", "Files"),
    "sum_games": ("Oyun", "Games"),
    "sum_events": ("Olay", "Events"),
    "sum_stored": ("Kaydedilen", "Stored"),
    "sum_unchanged": ("Değişmeyen", "Unchanged"),
    "sum_conflicts": ("Çakışan", "Conflicts"),
    "sum_invalid": ("Geçersiz", "Invalid"),
    "sum_failed": ("Okunamayan", "Failed"),
    "sum_seconds": ("Süre (sn)", "Time (s)"),
    "err_unreadable": ("okunamadı", "unreadable"),
    "err_conflict": ("çakışma", "conflict"),
    "err_store": ("kaydedilemedi", "not stored"),
    "err_invalid": ("geçersiz hamle", "illegal move"),
    "err_col_file": ("Dosya", "File"),
    "err_col_line": ("Satır", "Line"),
    "err_col_game": ("Oyun", "Game"),
    "err_col_kind": ("Tür", "Kind"),
    "err_col_rule": ("Kural", "Rule"),
    "err_col_message": ("Açıklama (kayıt okuyucusundan)", "Message (from the log reader)"),
    "game_not_found": ("{game} adlı oyun bu veritabanında yok; ilk oyun gösteriliyor.",
                       "There is no game {game} in this database; showing the first game."),
    "moves_click": ("Bir hamleye tıkla: o adıma gider.", "Click a move to go to that step."),
    "danger_x4": ("masadaki pere işlenir", "a table per takes it"),
    "danger_x5": ("sonraki oyuncuyu açtırır", "lets the next player open"),
    "danger_cost": ("atılırsa ceza {p}", "penalty {p} if discarded"),
    "pick_red": ("Kırmızı", "Red"),
    "pick_yellow": ("Sarı", "Yellow"),
    "pick_blue": ("Mavi", "Blue"),
    "pick_black": ("Siyah", "Black"),
    "lab_too_long": ("{n} taş yazıldı; bir ıstakada en çok {max} taş olur.",
                     "{n} tiles typed; a rack holds at most {max}."),
    "lab_slow": ("Çözücü {s:g} saniyede bitiremedi (laboratuvarın süre sınırı); daha az taşla deneyin.",
                 "The solver did not finish within {s:g} s (the lab's time budget); try fewer tiles."),
    "lab_bad_tile": ("Okunamayan taş: {tiles} (gösterim: R1 Y2 B3 K4 J; renkler R, Y, B, K; sayılar 1–13)",
                     "Cannot read: {tiles} (notation: R1 Y2 B3 K4 J; colours R, Y, B, K; numbers 1–13)"),
    "lab_siler_points": ("Siler: {v} sayıyla açmak (≥{s}) puandan {u} siler (O8).",
                         "Siler: opening with {v} points (≥{s}) strikes {u} off the score (O8)."),
    "lab_siler_pairs": ("Siler: {v} çiftle açmak (≥{s}) puandan {u} siler (O8).",
                        "Siler: opening with {v} çift (≥{s}) strikes {u} off the score (O8)."),
    "end_finish": ("bitiş", "a finish"),
    "end_exhausted": ("deste bitti", "deck exhausted"),
    "end_void": ("el geçersiz (E3)", "hand void (E3)"),
    "fk_normal": ("normal", "normal"),
    "fk_okey": ("okey atarak", "by discarding an okey"),
    "fk_elden": ("elden", "elden"),
    "fk_pairs": ("çiftten", "after opening çift"),
    "stat_player": ("Oyuncu", "Player"),
    "stat_games": ("Oyun", "Games"),
    "stat_hands": ("El", "Hands"),
    "stat_opened_pct": ("Açtığı el %", "Opened %"),
    "stat_avg_opening": ("Ort. per açılışı (sayı)", "Avg. per opening (points)"),
    "stat_avg_pairs_opening": ("Ort. çift açılışı (çift)", "Avg. çift opening (çift)"),
    "stat_finishes": ("Bitirdiği el", "Finishes"),
    "stat_elden": ("Elden bitiş", "Elden finishes"),
    "stat_okey_finishes": ("Okey atarak bitiş", "Okey finishes"),
    "stat_penalties_per_hand": ("El başına ceza (adet)", "Penalties per hand"),
    "stat_penalty_points": ("Ceza puanı", "Penalty points"),
    "stat_avg_hand_score": ("Ort. el puanı (düşük iyi)", "Avg. hand score (lower is better)"),
    "stat_wins": ("Kazandığı oyun", "Games won"),
    # the deep review (issue 15): dashboard/deep_view.py
    "dv_title": ("Derin inceleme: beklenen puan", "Deep review: expected points"),
    "dv_intro": ("Bütün kararlar (çekiş ya da alma, yerleştirme, atış), oyuncunun o anda kendi gördüğünden, "
                 "değerlendiricinin beklenen el puanıyla ölçülür (düşük iyi). Kayıp: oynananın beklenen puanı "
                 "eksi en iyisininki; bir kayıp bir kez, kaçırıldığı kararda yazılır.",
                 "Every decision (draw or take, placing, discard) is measured by the evaluator's expected hand "
                 "score from the player's own view at that moment (lower is better). Cost: the expected score of "
                 "what was played minus that of the best; a loss is charged once, at the decision where it was "
                 "missed."),
    "dv_guide": ("Derin inceleme nasıl okunur: sayılar, etiketler ve sınırları →",
                 "How to read the deep review: the numbers, the labels and their limits →"),
    "dv_button": ("Derin inceleme", "Deep review"),
    "dv_button_again": ("Derin incelemeyi yeniden yap", "Run the deep review again"),
    "dv_running": ("Derin inceleme: {i} / {n} sıra", "Deep review: {i} / {n} turns"),
    "dv_done": ("Derin inceleme bitti: {n} karar değerlendirildi.", "Deep review done: {n} decisions graded."),
    "dv_done_one": ("Derin inceleme bitti: 1 karar değerlendirildi.", "Deep review done: 1 decision graded."),
    "dv_failed": ("Derin inceleme yapılamadı: {msg}", "The deep review failed: {msg}"),
    "dv_none": ("Bu oyunun derin incelemesi yok: düğmeyle başlat (11 ellik bir oyun boş bir çekirdekte yaklaşık bir dakika sürer).",
                "This game has no deep review yet: start one with the button (about a minute for an "
                "11-hand game on a free core)."),
    "dv_stale": ("Bu derin inceleme değerlendiricinin eski bir sürümüyle yapıldı.",
                 "This deep review was made by an older version of the evaluator."),
    "dv_seats": ("Oyuncular: değerlendirilen kararlar, beklenen puan kaybı ve isabet",
                 "Players: graded decisions, expected points lost and accuracy"),
    "dv_col_graded": ("Değerlendirilen karar", "Graded decisions"),
    "dv_col_cost": ("Kayıp (beklenen puan)", "Cost (expected points)"),
    "dv_col_cost_hand": ("Kayıp / el", "Cost / hand"),
    "dv_col_accuracy": ("İsabet %", "Accuracy %"),
    "dv_hand_result": ("El {hand}: gerçek sonuç ve değerlendiricinin beklediği",
                       "Hand {hand}: the actual result and what the evaluator expected"),
    "dv_col_actual": ("Gerçek el puanı", "Actual hand score"),
    "dv_col_expected": ("Beklenen (ilk kararında)", "Expected (at the first decision)"),
    "dv_decisions": ("Kararlar sıra sırasıyla — satıra tıkla: o adımı Tekrar'da aç",
                     "Decisions in turn order — click a row to open that step in the Replay"),
    "dv_only_costly": ("Yalnız kayıplı kararlar", "Only decisions with a cost"),
    "dv_col_turn": ("Sıra", "Turn"),
    "dv_col_kind": ("Karar", "Decision"),
    "dv_col_played": ("Oynanan", "Played"),
    "dv_col_best": ("En iyisi", "Best"),
    "dv_col_exp_played": ("Oynananın beklenen puanı", "Expected (played)"),
    "dv_col_exp_best": ("En iyisinin beklenen puanı", "Expected (best)"),
    "dv_col_top": ("İlk üç aday (beklenen puan)", "Top three candidates (expected points)"),
    "dv_col_lesson": ("Ders", "Lesson"),
    "dv_kind_take": ("çekiş ya da alma", "draw or take"),
    "dv_kind_place": ("yerleştirme", "placing"),
    "dv_kind_discard": ("atış", "discard"),
    "dv_pick": ("Ayrıntısı gösterilen karar", "Decision shown in detail"),
    "dv_all": ("Bütün kararları ayrıntılı göster", "Show every decision in full"),
    "dv_pick_fmt": ("Sıra {turn} · {name} · {kind} · kayıp {cost}", "Turn {turn} · {name} · {kind} · cost {cost}"),
    "dv_cost_line": ("Kayıp: {cost} beklenen puan", "Cost: {cost} expected points"),
    "dv_candidates": ("Adaylar (beklenen el puanı, düşük iyi)", "Candidates (expected hand score, lower is better)"),
    "dv_col_move": ("Hamle", "Move"),
    "dv_col_expected_pts": ("Beklenen puan", "Expected points"),
    "dv_col_se": ("± (std. hata)", "± (std. error)"),
    "dv_col_worlds": ("Dünya", "Worlds"),
    "dv_col_is_played": ("Oynandı", "Played"),
    "dv_best_line": ("En iyi hamle, bütünüyle", "The best line, drawn whole"),
    "dv_played_line": ("Oynanan", "What was played"),
    "dv_line_open": ("Açılış", "Opening"),
    "dv_line_meld": ("Yeni per", "New per"),
    "dv_line_layoff": ("İşleme → #{meld}", "Lay-off → #{meld}"),
    "dv_line_swap": ("Okey alma ⇄ #{meld}", "Okey swap ⇄ #{meld}"),
    "dv_line_draw": ("Desteden çek", "Draw from the deck"),
    "dv_line_take": ("Yerdeki taşı al", "Take the discard"),
    "dv_line_discard": ("At", "Discard"),
    "dv_line_wait": ("Bekle: hiçbir şey koyma", "Wait: place nothing"),
    "dv_line_finishes": ("Kalan son taş atılınca el biter", "Discarding the last tile left finishes the hand"),
    "dv_line_left": ("Istakada kalan", "Left in the rack"),
    "dv_line_rack": ("Seçildiği ıstaka (atılan taş işaretli)", "The rack it was chosen from (the discard marked)"),
    "dv_open_replay": ("Bu kararı Tekrar'da aç", "Open this decision in the Replay"),
    "dv_replay_title": ("Değerlendiricinin ilk üç kararı ({name})", "The evaluator's top three decisions ({name})"),
    "dv_replay_stored": ("Bu oyunun derin incelemesinden (kayıtlı).", "From this game's deep review (stored)."),
    "dv_replay_evaluating": ("Değerlendiriliyor…", "Evaluating…"),
    "dv_replay_precise": ("Daha kesin değerlendir ({s:g} sn)", "Evaluate more precisely ({s:g} s)"),
    "dv_replay_live": ("Şimdi değerlendirildi, {name} kendi gördüğüyle ({kind}): {n} dünya.",
                       "Evaluated now from {name}'s own view ({kind}): {n} worlds."),
    "dv_replay_live_one": ("Şimdi değerlendirildi, {name} kendi gördüğüyle ({kind}): 1 dünya.",
                           "Evaluated now from {name}'s own view ({kind}): 1 world."),
    "dv_replay_only": ("Tek yasal hamle var: seçilecek bir karar yok.", "Only one legal move: no decision to make."),
    "dv_replay_none": ("Bu adımda karar yok.", "No decision at this step."),
}


def t(key: str, lang: str = DEFAULT, **fields: object) -> str:
    """The string ``key`` in ``lang`` (an unknown key shows itself, so gaps are visible); with
    ``n=1`` the key's ``<key>_one`` form is used where there is one (English singulars)."""
    return lookup(STRINGS, key, lang, **fields)


def lookup(table: dict[str, tuple[str, str]], key: str, lang: str, **fields: object) -> str:
    """``key`` of a (Turkish, English) string table in ``lang``, formatted with ``fields``; an
    unknown key shows itself; with ``n=1`` the ``<key>_one`` form is used where there is one.
    Every page's string table (review_data, pricing_words, record_words, ...) looks up through it."""
    if fields.get("n") == 1 and key + "_one" in table:
        key += "_one"
    pair = table.get(key)
    if pair is None:
        return key
    text = pair[1] if lang == "en" else pair[0]
    return text.format(**fields) if fields else text


MONTHS = {"tr": ("Oca", "Şub", "Mar", "Nis", "May", "Haz", "Tem", "Ağu", "Eyl", "Eki", "Kas", "Ara"),
          "en": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")}


def fmt_date(value: object, lang: str = DEFAULT) -> str:
    """A date or time as a reader of ``lang`` writes it ("16 Eki 2026 20:30"); empty for none."""
    import datetime as dt

    import pandas as pd

    if value is None or (not isinstance(value, str) and bool(pd.isna(value))):  # None, NaN, NaT
        return ""
    if isinstance(value, str):
        try:
            value = dt.datetime.fromisoformat(value)
        except ValueError:
            return value
    if hasattr(value, "to_pydatetime"):
        value = value.to_pydatetime()
    if not isinstance(value, dt.date):
        return str(value)
    text = f"{value.day} {MONTHS['en' if lang == 'en' else 'tr'][value.month - 1]} {value.year}"
    if isinstance(value, dt.datetime):
        text += f" {value:%H:%M}"
    return text


_MD = str.maketrans({c: "\\" + c for c in "\\`*_{}[]()<>#+-.!|~:$"})


def md_plain(text: object) -> str:
    """Text shown literally where Streamlit reads Markdown (button labels, captions): every
    Markdown character is escaped, so a name from a log cannot format or link anything."""
    return str(text).translate(_MD)
