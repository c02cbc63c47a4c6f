"""Strings of studies on the dashboard (issue 24, item 6): the Studies page and Replay's "Add to
study", in Turkish and English, looked up with :func:`dashboard.i18n.lookup`."""

from __future__ import annotations

from .i18n import lookup

STRINGS: dict[str, tuple[str, str]] = {
    "sw_page": ("Çalışmalar", "Studies"),
    "sw_title": ("Çalışmalar", "Studies"),
    "sw_intro": (("Bir çalışma, sırası belli konumlardan (oyun, el, adım, oyuncu) ve onların notlarından "
                  "oluşur. Tekrar sayfasında «Çalışmaya ekle» ile konum eklenir; dosya olarak indirilip başka bir "
                  "Istaka'ya yüklenebilir (oyunlar dosyanın içindedir)."),
                 ("A study is an ordered set of positions (game, hand, step, seat), each with a note. Add positions "
                  "from Replay with «Add to study»; download it as a file and upload it to another Istaka (the "
                  "games travel inside the file).")),
    "sw_none": ("Henüz çalışma yok. Aşağıdan bir çalışma oluşturun ya da bir çalışma dosyası yükleyin.",
                "No studies yet. Create one below, or upload a study file."),
    "sw_none_reader": ("Henüz çalışma yok.", "No studies yet."),
    "sw_pick": ("Çalışma", "Study"),
    "sw_option": ("{name} ({n} konum)", "{name} ({n} positions)"),
    "sw_option_one": ("{name} (1 konum)", "{name} (1 position)"),
    "sw_not_found": ("Bu bağlantıdaki çalışma bu veritabanında yok: {study}",
                     "The study in this link is not in this database: {study}"),
    "sw_empty": ("Bu çalışmada henüz konum yok: Tekrar sayfasında bir adımı «Çalışmaya ekle» ile ekleyin.",
                 "This study has no positions yet: add a step from Replay with «Add to study»."),
    "sw_item_of": ("Konum {k} / {n}", "Position {k} / {n}"),
    "sw_where": ("{game} · el {hand} · adım {step} · {name}", "{game} · hand {hand} · step {step} · {name}"),
    "sw_prev": ("Önceki", "Previous"),
    "sw_next": ("Sonraki", "Next"),
    "sw_note": ("Not", "Note"),
    "sw_no_note": ("(not yok)", "(no note)"),
    "sw_open_replay": ("Bu adımı Tekrar'da aç", "Open this step in Replay"),
    "sw_share": ("Bu konumun bağlantısı", "Link to this position"),
    "sw_game_missing": ("Bu konumun oyunu bu veritabanında yok ya da yeniden oynatılamıyor: {game}",
                        "This position's game is not in this database or cannot be replayed: {game}"),
    "sw_step_missing": ("Oyun {game}: el {hand}, adım {step} yok (oyun değişmiş olabilir)",
                        "Game {game}: hand {hand} has no step {step} (the game may have changed)"),
    "sw_edit_note": ("Notu düzenle", "Edit the note"),
    "sw_save_note": ("Notu kaydet", "Save the note"),
    "sw_saved": ("Kaydedildi.", "Saved."),
    "sw_up": ("Yukarı", "Move up"),
    "sw_down": ("Aşağı", "Move down"),
    "sw_remove": ("Konumu çıkar", "Remove the position"),
    "sw_positions": ("Konumlar", "Positions"),
    "sw_col_k": ("Sıra", "No."),
    "sw_col_game": ("Oyun", "Game"),
    "sw_col_hand": ("El", "Hand"),
    "sw_col_step": ("Adım", "Step"),
    "sw_col_seat": ("Oyuncu", "Seat"),
    "sw_col_note": ("Not", "Note"),
    "sw_manage": ("Çalışmayı yönet", "Manage studies"),
    "sw_new_name": ("Yeni çalışmanın adı", "New study's name"),
    "sw_create": ("Oluştur", "Create"),
    "sw_rename_to": ("Yeni ad", "New name"),
    "sw_rename": ("Yeniden adlandır", "Rename"),
    "sw_delete": ("Çalışmayı sil", "Delete the study"),
    "sw_delete_sure": ("Evet, «{name}» silinsin ({n} konum)", "Yes, delete «{name}» ({n} positions)"),
    "sw_delete_sure_one": ("Evet, «{name}» silinsin (1 konum)", "Yes, delete «{name}» (1 position)"),
    "sw_deleted": ("Silindi: {name}", "Deleted: {name}"),
    "sw_download": ("Çalışma dosyasını indir", "Download the study file"),
    "sw_download_help": ("Oyunların kayıtları da dosyanın içindedir: alan kişi oyunlara sahip olmasa da açabilir.",
                         "The games' logs are inside the file: whoever receives it can open it without the games."),
    "sw_no_download": ("Dosya hazırlanamadı: {why}", "The file could not be made: {why}"),
    "sw_upload": ("Çalışma dosyası yükle", "Upload a study file"),
    "sw_upload_help": ("Bir Istaka çalışma dosyası (.istaka-study): önce içindeki oyunlar, sonra çalışma kaydedilir.",
                       "An Istaka study file (.istaka-study): its games are stored first, then the study."),
    "sw_imported": ("Çalışma yüklendi: {name} ({n} konum); oyunlar: {stored} yeni, {unchanged} zaten vardı",
                    "Study uploaded: {name} ({n} positions); games: {stored} new, {unchanged} already here"),
    "sw_imported_one": ("Çalışma yüklendi: {name} (1 konum); oyunlar: {stored} yeni, {unchanged} zaten vardı",
                        "Study uploaded: {name} (1 position); games: {stored} new, {unchanged} already here"),
    "sw_renamed": ("Bu adda başka bir çalışma olduğu için yeni adla kaydedildi.",
                   "Stored under a new name: another study had this one."),
    "sw_unchanged": ("Bu çalışma zaten kayıtlı: {name}", "This study is stored already: {name}"),
    "sw_refused": ("Çalışma kaydedilmedi: {why}", "The study was not stored: {why}"),
    "sw_games_kept": ("Dosyadaki sağlam oyunlar kaydedildi: {stored} yeni.",
                      "The file's sound games were stored: {stored} new."),
    "sw_error": ("Yapılamadı: {why}", "Not done: {why}"),
    # Replay's control
    "sw_add": ("Çalışmaya ekle", "Add to study"),
    "sw_add_to": ("Hangi çalışmaya", "Which study"),
    "sw_add_new": ("Yeni çalışma…", "New study…"),
    "sw_add_what": ("Bu adım: el {hand}, adım {step}, {name}", "This step: hand {hand}, step {step}, {name}"),
    "sw_add_button": ("Ekle", "Add"),
    "sw_added": ("«{name}» çalışmasına {k}. konum olarak eklendi.", "Added to «{name}» as position {k}."),
    "sw_open_study": ("Çalışmada aç", "Open in the study"),
}


def t(key: str, lang: str, **fields: object) -> str:
    """Study string ``key`` in ``lang`` (Turkish unless ``en``); ``n`` == 1 picks ``<key>_one``."""
    return lookup(STRINGS, key, lang, **fields)
