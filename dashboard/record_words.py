"""Words of the recorder page "Kayıt / Record" (issue 22). Turkish first, English second; game
terms (per, çift, okey, gösterge, işlemek, elden) stay Turkish in both."""

from __future__ import annotations

from .i18n import lookup

STRINGS: dict[str, tuple[str, str]] = {
    "page_record": ("Kayıt", "Record"),
    "rec_title": ("Oynanan eli kaydet", "Record the hand you are playing"),
    "rec_intro": ("Girilen hamle o anda kurallara göre denetlenir; kayıt tıklama başına saklanır, sayfa "
                  "yenilense de kaldığı yerden sürer.",
                  "Every move is checked by the rules as it is entered; the recording is stored at every "
                  "click and goes on where it was after a reload."),
    "rec_new": ("Yeni el", "New hand"),
    "rec_preset": ("Kural seti", "Preset"),
    "rec_esli": ("Eşli", "Partners (eşli)"),
    "rec_player": ("Yer {seat} oyuncusu", "Seat {seat} player"),
    "rec_seat": ("Benim yerim", "My seat"),
    "rec_all": ("Tüm ıstakalar (öğretim oyunu)", "All racks (a teaching game)"),
    "rec_starter": ("Başlayan yer", "Starting seat"),
    "rec_start": ("Kayda başla", "Start recording"),
    "rec_open": ("Süren kayıtlar", "Recordings in progress"),
    "rec_resume": ("Sürdür: {id}", "Resume: {id}"),
    "rec_deal": ("Dağıtım", "The deal"),
    "rec_pick_indicator": ("Göstergeyi seç", "Pick the gösterge"),
    "rec_pick_rack": ("{name} ıstakası: {n}/{want} taş", "{name}'s rack: {n}/{want} tiles"),
    "rec_rack_of": ("Hangi ıstaka", "Which rack"),
    "rec_typed": ("Ya da yaz (R1 R2 … J)", "Or type it (R1 R2 … J)"),
    "rec_apply": ("Yazılanı koy", "Use the typed tiles"),
    "rec_drop": ("Son taşı sil", "Remove the last tile"),
    "rec_deal_done": ("Dağıtım tamam", "Deal done"),
    "rec_indicator": ("Gösterge: {tile}", "Gösterge: {tile}"),
    "rec_turn": ("Sıra {name} (yer {seat}): {what}", "{name} (seat {seat}) to play: {what}"),
    "rec_draw_or_take": ("çeker ya da alır", "draws or takes"),
    "rec_place_or_discard": ("açar, işler ya da atar", "opens, lays off or discards"),
    "rec_tap_draw": ("Çektiği taşa dokun", "Tap the tile drawn"),
    "rec_tap_discard": ("Attığı taşa dokun", "Tap the tile discarded"),
    "rec_drew": ("Çekti", "Drew"),
    "rec_took": ("Aldı: {tile}", "Took: {tile}"),
    "rec_return": ("Geri koydu: {tile}", "Put back: {tile}"),
    "rec_mode": ("Dokununca", "A tap"),
    "rec_mode_discard": ("atar", "discards"),
    "rec_mode_build": ("per / çift kurar", "builds a per / çift"),
    "rec_build": ("Kurulan: {text}", "Building: {text}"),
    "rec_build_text": ("Perler (| ile ayır; okey: R6>K9)", "Melds (split with |; an okey: R6>K9)"),
    "rec_next_group": ("| yeni per", "| next meld"),
    "rec_open_melds": ("Perle aç", "Open with melds"),
    "rec_open_pairs": ("Çiftle aç", "Open with pairs"),
    "rec_meld": ("Per ekle", "Add melds"),
    "rec_pairs": ("Çift ekle", "Add pairs"),
    "rec_layoff": ("İşle", "Lay off"),
    "rec_layoff_on": ("Hangi pere", "Onto which meld"),
    "rec_swap": ("Okeyi al (yerine koy)", "Take the okey (put in its tile)"),
    "rec_takeback": ("Yerleştirdiklerini geri aldı", "Took back what he placed"),
    "rec_show": ("Gösterge çiftini gösterdi", "Showed the gösterge twin"),
    "rec_clear": ("Temizle", "Clear"),
    "rec_undo": ("Geri al (son adım)", "Undo (last step)"),
    "rec_undone": ("Geri alındı: {what}", "Undone: {what}"),
    "rec_refused": ("Kabul edilmedi: {msg}", "Refused: {msg}"),
    "rec_over": ("El bitti: {result}", "The hand is over: {result}"),
    "rec_scores": ("Masanın yazdığı puanlar (gizli ıstakaların puanını buradan alırız)",
                   "The scores the table wrote (hidden racks are scored from these)"),
    "rec_score_of": ("{name}", "{name}"),
    "rec_save": ("Kaydet", "Save"),
    "rec_saved": ("Kaydedildi: {id}", "Saved: {id}"),
    "rec_download": ("Kaydı indir (.jsonl)", "Download the log (.jsonl)"),
    "rec_to_replay": ("Tekrarda aç", "Open in Replay"),
    "rec_to_review": ("İncelemede aç", "Open in Review"),
    "rec_discard_rec": ("Bu kaydı sil", "Delete this recording"),
    "rec_events": ("{n} hamle girildi", "{n} moves entered"),
    "rec_events_one": ("1 hamle girildi", "1 move entered"),
    "rec_no_rec": ("Bu kayıt bulunamadı: {id}", "No such recording: {id}"),
}


def t(key: str, lang: str, **fields: object) -> str:
    """Recorder string ``key`` in ``lang`` (Turkish unless ``en``); ``n`` == 1 picks ``<key>_one``."""
    return lookup(STRINGS, key, lang, **fields)
