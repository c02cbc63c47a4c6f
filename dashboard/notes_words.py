"""Words of the coach's notes (issue 24, item 5): the Replay panel, the move list's marks and the
Review page's list. Turkish first, English second."""

from __future__ import annotations

from .i18n import lookup

STRINGS: dict[str, tuple[str, str]] = {
    "nt_panel": ("Not", "Note"),
    "nt_none": ("Bu adımda not yok.", "No note on this step."),
    "nt_add": ("Not yaz", "Write a note"),
    "nt_edit": ("Notu düzenle", "Edit the note"),
    "nt_mark": ("İşaret", "Mark"),
    "nt_mark_none": ("yok", "none"),
    "nt_text": ("Yorum", "Comment"),
    "nt_text_help": ("En çok {limit} karakter.", "At most {limit} characters."),
    "nt_save": ("Kaydet", "Save"),
    "nt_delete": ("Notu sil", "Delete the note"),
    "nt_saved": ("Not kaydedildi.", "Note saved."),
    "nt_deleted": ("Not silindi.", "Note deleted."),
    "nt_by": ("{who} · {when}", "{who} · {when}"),
    "nt_read_only": ("Notlar bu panoda yalnızca okunur.", "Notes are read-only on this board."),
    "nt_busy": ("Veritabanı şu an meşgul; not kaydedilmedi, birazdan yeniden deneyin.",
                "The database is busy; the note was not saved, try again in a moment."),
    "nt_denied": ("Bu oturum yazamaz: not kaydedilmedi.", "This session cannot write: the note was not saved."),
    # NoteError kinds (analysis/store/notes.py), each in one line
    "nt_err_too_long": ("Yorum {count} karakter; en çok {limit} karakter saklanır.",
                        "The comment is {count} characters long; at most {limit} are kept."),
    "nt_err_bad_mark": ("İşaret {mark} tanınmıyor: !!, !, ?!, ?, ?? ya da yok.",
                        "The mark {mark} is not known: !!, !, ?!, ?, ?? or none."),
    "nt_err_empty": ("Boş not kaydedilmez: bir işaret ya da yorum yazın (notu kaldırmak için silin).",
                     "An empty note is not saved: give a mark or a comment (delete a note to remove it)."),
    "nt_err_bad_char": ("Yorumdaki {at}. karakter ({code}) saklanamaz.",
                        "Character {at} of the comment ({code}) cannot be stored."),
    "nt_err_bad_position": ("Bu adıma not yazılamaz.", "No note can be written on this step."),
    "nt_err_no_game": ("Bu oyun veritabanında yok.", "This game is not in the database."),
    "nt_err_no_hand": ("Bu oyunun böyle bir eli yok.", "This game has no such hand."),
    "nt_err_exists": ("Bu adımda bir not var: onu düzenleyin.", "This step has a note already: edit it."),
    "nt_err_missing": ("Bu adımda düzenlenecek not yok.", "This step has no note to edit."),
    # the Review page's list
    "nt_list": ("Antrenörün notları", "Coach's notes"),
    "nt_list_none": ("Bu oyunda not yok: Tekrar sayfasında adımlara işaret ve yorum yazılabilir.",
                     "No notes on this game: on the Replay page every step can take a mark and a comment."),
    "nt_count": ("{n} not; bir satıra tıklayınca o adım Tekrar sayfasında açılır.",
                 "{n} notes; a click on a row opens that step in Replay."),
    "nt_count_one": ("1 not; bir satıra tıklayınca o adım Tekrar sayfasında açılır.",
                     "1 note; a click on a row opens that step in Replay."),
    "nt_col_hand": ("El", "Hand"),
    "nt_col_step": ("Adım", "Step"),
    "nt_col_mark": ("İşaret", "Mark"),
    "nt_col_text": ("Yorum", "Comment"),
    "nt_col_author": ("Yazan", "Author"),
    "nt_col_updated": ("Güncellendi", "Updated"),
}


def t(key: str, lang: str, **fields: object) -> str:
    """A string of the notes' table in ``lang`` (tr or en)."""
    return lookup(STRINGS, key, lang, **fields)


__all__ = ["STRINGS", "t"]
