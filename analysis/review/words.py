"""The review's words in Turkish and English: category names and definitions (the report and the
dashboard read the same ones), and the fixed words of the HTML report (:mod:`.report`). Each
entry is ``(tr, en)``.
"""

from __future__ import annotations

from .model import CATEGORIES

LANGS = ("tr", "en")

CATEGORY_NAME: dict[str, tuple[str, str]] = {  # the review's mistake kinds as a player reads them
    "missed_opening": ("kaçan açılış", "missed opening"),
    "weaker_opening": ("zayıf açılış", "weaker opening"),
    "missed_take": ("alınmayan taş", "missed take"),
    "missed_layoff": ("işlenmeyen taş", "missed lay-off"),
    "missed_swap": ("alınmayan okey", "missed okey swap"),
    "missed_finish": ("kaçan bitiş", "missed finish"),
    "okey_discard": ("okey atma (X3)", "okey discarded (X3)"),
    "layoff_discard": ("işler taş atma (X4)", "discarded a tile a table per takes (X4)"),
    "fed_opening": ("açtıran taş (X5)", "discard that opened the next player (X5)"),
    "okey_kept": ("elde kalan okey (E5)", "okey left in the rack (E5)"),
    "pairs_over_melds": ("per yerine çift", "çift instead of per"),
    "melds_over_pairs": ("çift yerine per", "per instead of çift"),
    "failed_opening": ("geri alınan açılış (X2, X7)", "opening taken back (X2, X7)"),
    "missed_take_finish": ("alınmayan bitiren taş", "missed take that finishes"),
    "last_discard": ("son atışta yüksek taş", "high tile kept at the last discard"),
    "broke_opening": ("bozulan açılış", "opening broken by a discard"),
    "fed_finish": ("bitirten taş", "discard that let the next player finish"),
    "worse_take": ("zayıf çekiş", "weaker draw or take"),
    "worse_placing": ("zayıf yerleştirme", "weaker placing"),
    "worse_discard": ("zayıf atış", "weaker discard"),
    "worse_show": ("gösterge kararı (O7)", "gösterge shown or not (O7)"),
    "worse_declare": ("çift söyleme kararı (O10)", "çift declared or not (O10)"),
    "worse_layoffs": ("işleme seçimi", "lay-offs made or held back"),
}

DEFINITION: dict[str, tuple[str, str]] = {
    "missed_opening": ("bu sırada eşiğe ulaşabilirdi (per ya da çift) ama açmadı",
                       "could reach the opening threshold this turn (per or çift) and did not open"),
    "weaker_opening": ("aynı türün en iyi açılışından düşük değerle açtı ya da elde daha çok ceza bıraktı",
                       "opened with a lower value, or left a higher rack, than the best opening of the same kind"),
    "missed_take": ("yandaki taşı alsa açabilirdi; almadı ve açmadı",
                    "did not take the previous discard though it would have opened, and did not open"),
    "missed_layoff": ("açmış oyuncu, işlenebilecek ya da yeni per/çift olabilecek taşları elde tuttu",
                      "an opened player kept tiles that lay-offs or new per/çift could have placed"),
    "missed_swap": ("açmış oyuncu, en iyi hamlenin aldığı okeyi masadan almadı (S1, S2)",
                    "an opened player did not take an okey from the table when the best turn does (S1, S2)"),
    "missed_finish": ("en iyi hamle eli bitiriyordu, oyuncu bitirmedi",
                      "the best turn finishes the hand and the player did not finish"),
    "okey_discard": ("cezasız atılacak başka taş varken okey attı (X3)",
                     "discarded an okey though another tile was free of penalty (X3)"),
    "layoff_discard": ("cezasız atılacak başka taş varken masadaki bir pere işlenen taşı attı (X4)",
                       "discarded a tile a table per would take though another tile was free of penalty (X4)"),
    "fed_opening": ("sonraki oyuncu bu taşı aldı ve onunla açtı (X5; ancak sonradan görülür)",
                    "the next player took this discard and opened with it (X5; seen only in hindsight)"),
    "okey_kept": ("el, açmış oyuncunun elinde son sırasında koyabileceği bir okeyle bitti (E5)",
                  "the hand ended with an okey in an opened player's rack that their last turn could place (E5)"),
    "pairs_over_melds": ("per açılışı eldeki cezayı daha çok düşürecekken çift açtı",
                         "opened with çift where a per opening left a lower rack penalty"),
    "melds_over_pairs": ("çift açılışı eldeki cezayı daha çok düşürecekken per açtı",
                         "opened with per where a çift opening left a lower rack penalty"),
    "failed_opening": ("açılışı ya da birkaç işlemeyi geri aldı ve cezasını ödedi (X2, X7)",
                       "took back an opening or several lay-offs and was charged for it (X2, X7)"),
    "missed_take_finish": ("yandaki taşı alsa eli bitirecekti; desteden çekti",
                           "drew where taking the previous discard would have finished the hand"),
    "last_discard": ("deste bitmeden önceki son atışta elde daha yüksek bir ölü taş tuttu (kalanı yazılır, E5)",
                     "the last discard before the deck ran out kept a higher dead tile (the rest is written, E5)"),
    "broke_opening": ("açmamış oyuncu, eşiğe yakın en iyi açılışını bozan taşı attı; dışarıda atılacak taş vardı",
                      "an unopened discard broke the player's best opening, near its threshold, while a tile "
                      "outside it could go"),
    "fed_finish": ("sonraki oyuncu bu taşı aldı ve hemen bitirdi (ancak sonradan görülür)",
                   "the next player took this discard and finished with it at once (seen only in hindsight)"),
    "worse_take": ("yandan almanın beklenen puanı daha düşükken desteden çekti, ya da tersi",
                   "drew where taking the previous discard had a lower expected score, or took where drawing had"),
    "worse_placing": ("başka bir yerleştirmenin (ya da beklemenin) beklenen puanı daha düşüktü",
                      "placed (or waited) where another placing had a lower expected score"),
    "worse_discard": ("başka bir taşı atmanın beklenen puanı daha düşüktü",
                      "discarded a tile where another discard had a lower expected score"),
    "worse_show": ("göstergeyi gösterdi ya da göstermedi; öbür seçimin beklenen puanı daha düşüktü (O7)",
                   "showed the gösterge twin, or did not, where the other choice had a lower expected score (O7)"),
    "worse_declare": ("çifte gideceğini söyledi ya da söylemedi; öbür seçimin beklenen puanı daha düşüktü (O10)",
                      "declared çift, or did not, where the other choice had a lower expected score (O10)"),
    "worse_layoffs": ("taş işledi ya da elde tuttu; başka bir işleme seçiminin beklenen puanı daha düşüktü",
                      "laid off tiles, or held them back, where another set of lay-offs had a lower expected "
                      "score"),
}

WORDS: dict[str, tuple[str, str]] = {
    "title": ("Istaka incelemesi", "Istaka review"),
    "variant": ("kural seti", "variant"),
    "quick": ("hızlı inceleme (kesin kontroller)", "quick review (exact checks)"),
    "deep": ("derin inceleme (beklenen puan)", "deep review (expected points)"),
    "seat": ("koltuk", "seat"),
    "player": ("oyuncu", "player"),
    "decisions": ("karar", "decisions"),
    "graded": ("puanlanan", "graded"),
    "agreement": ("uyum", "agreement"),
    "accuracy": ("isabet", "accuracy"),
    "cost": ("maliyet", "cost"),
    "cost_hand": ("el başına maliyet", "cost per hand"),
    "by_category": ("türlere göre hatalar", "mistakes by category"),
    "hand": ("El", "Hand"),
    "result_finish": ("bitti", "finished"),
    "result_exhausted": ("deste bitti", "deck ran out"),
    "result_void": ("geçersiz (E3)", "void (E3)"),
    "scores": ("puanlar", "scores"),
    "n_mistakes": ("{n} bulgu", "{n} findings"),
    "no_mistakes": ("bulgu yok", "no findings"),
    "points": ("{n} puan", "{n} points"),
    "turn": ("sıra {n}", "turn {n}"),
    "step": ("adım {step}, satır {line}", "step {step}, line {line}"),
    "rack": ("ıstaka", "rack"),
    "table": ("masa", "table"),
    "no_table": ("masada per yok", "no melds on the table"),
    "played": ("oynanan", "played"),
    "nothing_played": ("hiçbir şey", "nothing"),
    "best_melds": ("en iyi per açılışı ({v} puan)", "best melds opening ({v} points)"),
    "best_pairs": ("en iyi çift açılışı ({v} çift)", "best pairs opening ({v} pairs)"),
    "best_take": ("{t} alınsaydı açılırdı ({v})", "taking {t} opens ({v})"),
    "best_take_finish": ("{t} alınsaydı el biterdi", "taking {t} finishes the hand"),
    "best_turn": ("en iyi hamle", "best turn"),
    "nothing_to_place": ("konacak taş yok", "nothing to place"),
    "leaves": ("ıstakada kalan: {tiles} ({n} puan)", "left in the rack: {tiles} ({n} points)"),
    "finishes": ("eli bitirir", "finishes the hand"),
    "other_finishes": ("başka bir dizi eli bitirir", "another line finishes the hand"),
    "kept_opening": ("tutulsaydı açılış {v} puanda kalırdı (eşik {th})", "kept, the opening stayed at {v} (needs {th})"),
    "categories": ("Türler", "Categories"),
    "categories_open": ("{n} türün her biri ne demek", "what each of the {n} categories means"),
    "key_moments": ("Önemli anlar", "Key moments"),
    "km_note": ("Oyuncuların en pahalı 3–5 kararı, en pahalısı önce: ne kaybettirdi ve dersi.",
                "Each player's 3–5 costliest decisions, the costliest first: what it lost and its lesson."),
    "km_none": ("maliyetli karar yok", "no costly decision"),
    "km_where": ("el {hand} · sıra {turn} · adım {step}", "hand {hand} · turn {turn} · step {step}"),
    "km_open": ("karara git", "see the decision"),
    # events
    "ev_draw": ("desteden çekti", "drew"),
    "ev_take": ("yandan aldı", "took"),
    "ev_return": ("geri verdi", "gave back"),
    "ev_open": ("açtı", "opened with"),
    "ev_open_pairs": ("çiftle açtı", "opened with pairs"),
    "ev_meld": ("per koydu", "melded"),
    "ev_layoff": ("işledi (#{m} pere)", "laid off (on meld #{m})"),
    "ev_swap": ("okey yerine koydu (#{m} per)", "put in for the okey (meld #{m})"),
    "ev_takeback": ("geri aldı", "took back"),
    "ev_discard": ("attı", "discarded"),
    "ev_declare": ("çift açacağını söyledi", "declared pairs"),
    "ev_show": ("göstergeyi gösterdi", "showed the indicator"),
    # details in words
    "d_tile": ("taş: {tiles}", "tile: {tiles}"),
    "d_free": ("cezasız atılabilecek taşlar: {tiles}", "tiles free of penalty: {tiles}"),
    "d_best_tile": ("atılması gereken: {tiles}", "the one to throw: {tiles}"),
    "d_exposure": ("ıstakada {n} puan kaldı; en iyisi {b} puan bırakır",
                   "{n} points were left in the rack; the best line leaves {b}"),
    "d_option": ("en iyi seçenek: {kind} {v}, ıstakada {b} puan bırakır",
                 "the best option: {kind} {v}, leaving {b} points in the rack"),
    "d_played_value": ("oynanan açılış {v}", "the opening played: {v}"),
    "d_threshold": ("eşik {n}", "threshold {n}"),
    "d_after": ("atıştan sonra en iyi açılış {n}", "after the discard the best opening is {n}"),
    "d_rule": ("kural {r}", "rule {r}"),
    "d_hindsight": ("ancak sonradan görülür: hiçbir oyuncu başkasının ıstakasını göremez",
                    "seen only in hindsight: no seat sees another rack"),
    "d_carried": ("{n} puanı daha önceki bir sırada yazıldı", "{n} of it was charged at an earlier turn"),
    "d_bonus": ("bitirenin {n} puanı dahil", "includes the finisher's {n}"),
    "d_okeys": ("{n} okey", "{n} okey(s)"),
    "d_charged_before": ("{n} puanı daha önce yazıldı", "{n} was charged before"),
    "d_deck": ("destede {n} taş kalmıştı", "{n} tiles were left in the deck"),
    "d_written": ("yazılan {n} puan", "{n} points written"),
    "d_okeys_kept": ("masadan alınan okey elde tutuldu (hızlı inceleme fiyatlamaz)",
                     "an okey taken from the table was kept (the quick review does not price it)"),
    "d_note": ("not: bu kararın beklenen maliyeti yok", "note: this decision costs no expected points"),
    "d_expected": ("beklenen: oynanan {p}, en iyi {b}", "expected: played {p}, best {b}"),
    "kind_points": ("per", "melds"),
    "kind_pairs": ("çift", "pairs"),
    # deep review
    "k_take": ("çekiş", "draw or take"),
    "k_place": ("yerleştirme", "placing"),
    "k_discard": ("atış", "discard"),
    "k_show": ("gösterge (O7)", "gösterge (O7)"),
    "candidates": ("adaylar", "candidates"),
    "move": ("hamle", "move"),
    "expected": ("beklenen puan", "expected points"),
    "best_line": ("en iyi dizi", "the best line"),
    "actual": ("gerçek sonuç", "actual result"),
    "evaluator": ("değerlendiricinin beklediği", "the evaluator expected"),
    "as_good": ("en iyisi kadar iyi", "as good as the best"),
    "worlds": ("{n} dünyada fiyatlandı", "priced on {n} worlds"),
    "forced": ("zorunlu", "forced"),
    "rate": ("> {x} puan", "> {x} points"),
    "collapsed": ("kaybı olmayan ya da {floor} puanı geçmeyen {n} karar ({f} zorunlu)",
                  "{n} decisions without a cost or not over {floor} points ({f} forced)"),
    "pricing_note": ("kararların hepsi, oynanan hamle ile en iyisi aynı {w} sabit dünyada oynanarak fiyatlandı; aralığı "
                     "sıfırı dışlayan bir fark {c} yeni dünyada yeniden fiyatlandı ve orada da sıfırı dışlıyorsa o fiyatla "
                     "kayıp sayıldı (± %95 aralık). Zorunlu kararlar ({f}) isabete ve karar sayılarına katılmaz.",
                     "every decision prices the played move and the best on the same {w} fixed worlds; a difference "
                     "whose interval excludes zero is priced again on {c} more worlds and costs that price only if it "
                     "excludes zero there too (± is the 95% interval). Forced decisions ({f}) are left out of "
                     "accuracy and decision counts."),
    "collapsed_zero": ("kaybı olmayan {n} karar ({f} zorunlu)", "{n} decisions without a cost ({f} forced)"),
    "floor_note": ("yalnız {n} puandan büyük hatalar ayrıntılı", "only mistakes over {n} points in full"),
    "expected_note": ("oyuncunun ilk kararındaki beklenen el puanı (modelin değeri; uzman botun maçlardaki "
                      "gerçek sonuçlarıyla denetlendi)",
                      "the expected hand score at the seat's first decision (the model's value, checked against "
                      "the expert bot's real results in matches)"),
    "luck_title": ("Şans ve beceri, el el", "Luck and skill, hand by hand"),
    "luck_note": ("Her oyuncunun el puanı kendi görüşünden parçalara ayrıldı: dağıtımda beklenen puan, her "
                  "şans olayının şansı (sonraki beklenen puan eksi önceki), kararların bedeli (oynanan eksi en "
                  "iyisi) ve tahmin gürültüsü; toplamları gerçek puandır. Şanstan arındırılmış puan = gerçek "
                  "puan eksi bütün şans (dağıtımınki ortalama bir dağıtıma göre). Düşük olan iyidir.",
                  "Each player's hand score split from their own view: the expected score at the deal, the luck "
                  "of each chance event (the expected score after it minus before), the decisions' cost (played "
                  "minus best) and the estimation noise; they add up to the actual score. Luck-adjusted score = "
                  "actual score less every luck term (the deal's against an average deal). Lower is better."),
    "luck_player": ("Oyuncu", "Player"),
    "luck_deal": ("Dağıtım", "Deal"),
    "luck_luck": ("Şans", "Luck"),
    "luck_cost": ("Kararların bedeli", "Decisions' cost"),
    "luck_noise": ("Gürültü", "Noise"),
    "luck_actual": ("Gerçek", "Actual"),
    "luck_adjusted": ("Şanstan arındırılmış", "Luck-adjusted"),
}


def word(key: str, lang: str, **fields: object) -> str:
    """A fixed word of the report in ``lang`` ("tr" or "en"), with ``fields`` filled in."""
    tr, en = WORDS[key]
    text = tr if lang == "tr" else en
    return text.format(**fields) if fields else text


def category_name(cat: str, lang: str) -> str:
    pair = CATEGORY_NAME.get(cat)
    if pair is None:
        return cat.replace("_", " ")
    return pair[0] if lang == "tr" else pair[1]


def definition(cat: str, lang: str) -> str:
    pair = DEFINITION.get(cat)
    if pair is None:
        return CATEGORIES.get(cat, "")
    return pair[0] if lang == "tr" else pair[1]


__all__ = ["CATEGORY_NAME", "DEFINITION", "LANGS", "WORDS", "category_name", "definition", "word"]
