"""Studies: a named, ordered collection of positions (game, hand, step, seat),
each with a note, kept in the store and sent as one file (docs/studies.md). The public API:

- the store (:mod:`.study_rows`): :func:`create`, :func:`rename`, :func:`delete`,
  :func:`add_item`, :func:`move_item`, :func:`remove_item`, :func:`set_note`, :func:`get`,
  :func:`find`, :func:`list_studies`, the bounds (a name of 200 characters, a note of 2,000,
  500 items);
- the file (:mod:`.study_file`): :func:`export_study` writes a study and the v1 log lines of
  every game it refers to; :func:`import_study` stores those games through the normal importer,
  then the study, only when the whole file is sound (a bad file: one line naming the line and
  field; the good games stay, nothing of the study does).
"""

from __future__ import annotations

from .study_file import (
    FORMAT,
    MAX_FILE_BYTES,
    MAX_META_LINE,
    SUFFIX,
    VERSION,
    StudyFileError,
    StudyImport,
    export_lines,
    export_study,
    export_text,
    file_name,
    import_study,
)
from .study_rows import (
    MAX_GAME_ID,
    MAX_ITEMS,
    MAX_NAME,
    MAX_NOTE,
    Item,
    Study,
    StudyError,
    add_item,
    check_item,
    check_name,
    check_note,
    create,
    delete,
    find,
    get,
    hand_steps,
    list_studies,
    move_item,
    remove_item,
    rename,
    set_note,
)

__all__ = ["FORMAT", "MAX_FILE_BYTES", "MAX_GAME_ID", "MAX_ITEMS", "MAX_META_LINE", "MAX_NAME", "MAX_NOTE", "SUFFIX",
           "VERSION", "Item", "Study", "StudyError", "StudyFileError", "StudyImport", "add_item", "check_item",
           "check_name", "check_note", "create", "delete", "export_lines", "export_study", "export_text",
           "file_name", "find", "get", "hand_steps", "import_study", "list_studies", "move_item", "remove_item",
           "rename", "set_note"]
