"""The review's words in Turkish and English: category names and definitions, and the fixed
words of the HTML report (:mod:`.report`). Each entry is ``(tr, en)``.
"""

from __future__ import annotations

from .model import CATEGORIES

LANGS = ("tr", "en")

CATEGORY_NAME: dict[str, tuple[str, str]] = {
    "missed_opening": ("kaçan açılış", "missed opening"),
    "weaker_opening": ("zayıf açılış", "weaker opening"),
    "missed_take": ("alınmayan taş", "missed take"),
    "missed_take_finish": ("alınmayan bitiren taş", "missed take to finish"),
    "missed_layoff": ("işlenmeyen taş", "missed lay-off"),
    "missed_swap": ("alınmayan okey", "missed okey swap"),
    "missed_finish": ("kaçan bitiş", "missed finish"),
    "okey_discard": ("okey atma (X3)", "okey discarded (X3)"),
    "layoff_discard": ("işler taş atma (X4)", "discarded a tile a table meld takes (X4)"),
    "fed_opening": ("açtıran taş (X5)", "discard that opened the next player (X5)"),
    "fed_finish": ("bitirten taş", "discard the next player finished with"),
    "last_discard": ("son atış", "last discard"),
    "broke_opening": ("bozulan açılış", "broken opening"),
    "okey_kept": ("elde kalan okey (E5)", "okey left in the rack (E5)"),
    "pairs_over_melds": ("per yerine çift", "pairs instead of melds"),
    "melds_over_pairs": ("çift yerine per", "melds instead of pairs"),
    "failed_opening": ("geri alınan açılış (X2, X7)", "opening taken back (X2, X7)"),
    "worse_take": ("zayıf çekiş", "weaker draw or take"),
    "worse_placing": ("zayıf yerleştirme", "weaker placing"),
    "worse_discard": ("zayıf atış", "weaker discard"),
}

DEFINITION_TR: dict[str, str] = {
    "missed_opening": "bu sırada eşiğe ulaşabilirdi (per ya da çift) ama açmadı",
    "weaker_opening": "aynı türün en iyi açılışından daha düşük değerle açtı ve elde daha çok ceza bıraktı",
    "missed_take": "yandaki taşı alsa açabilirdi; almadı ve açmadı",
    "missed_take_finish": "yandaki taşı alsa eli bitirebilirdi; desteden çekti",
    "missed_layoff": "açmış oyuncu, işlenebilecek ya da yeni per/çift olabilecek taşları elde tuttu",
    "missed_swap": "açmış oyuncu, en iyi hamlenin masadan aldığı okeyi almadı (S1, S2)",
    "missed_finish": "en iyi hamle eli bitiriyordu, oyuncu bitirmedi",
    "okey_discard": "cezasız atılacak başka taş varken okey attı (X3)",
    "layoff_discard": "cezasız atılacak başka taş varken masadaki bir pere işlenen taşı attı (X4)",
    "fed_opening": "sonraki oyuncu bu taşı aldı ve onunla açtı (X5; ancak sonradan görülür)",
    "fed_finish": "sonraki oyuncu bu taşı aldı ve hemen bitirdi (ancak sonradan görülür)",
    "last_discard": "deste bitmeden önceki son atışta yüksek ölü taşı tutup düşük olanı attı (kalan yazılır, E5)",
    "broke_opening": "açmamış oyuncu, eşiğe yakın en iyi açılışının bir taşını attı; dışarıda atılacak taş vardı",
    "okey_kept": "el, açmış oyuncunun elinde son sırasında koyabileceği bir okeyle bitti (E5)",
    "pairs_over_melds": "per açılışı elde daha az ceza bırakacakken çift açtı",
    "melds_over_pairs": "çift açılışı elde daha az ceza bırakacakken per açtı",
    "failed_opening": "açılışı ya da birkaç işlemeyi geri aldı ve cezasını ödedi (X2, X7)",
    "worse_take": "yandan almanın beklenen puanı daha düşükken desteden çekti, ya da tersi",
    "worse_placing": "başka bir yerleştirmenin (ya da beklemenin) beklenen puanı daha düşüktü",
    "worse_discard": "başka bir taşı atmanın beklenen puanı daha düşüktü",
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
    "candidates": ("adaylar", "candidates"),
    "move": ("hamle", "move"),
    "expected": ("beklenen puan", "expected points"),
    "best_line": ("en iyi dizi", "the best line"),
    "actual": ("gerçek sonuç", "actual result"),
    "evaluator": ("değerlendiricinin beklediği", "the evaluator expected"),
    "expected_note": ("oyuncunun ilk kararındaki beklenen el puanı",
                      "the expected hand score at the seat's first decision"),
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
    if lang == "tr" and cat in DEFINITION_TR:
        return DEFINITION_TR[cat]
    return CATEGORIES.get(cat, "")


__all__ = ["CATEGORY_NAME", "DEFINITION_TR", "LANGS", "WORDS", "category_name", "definition", "word"]
