"""A file uploader's own words in the page's language: Streamlit writes the drop zone's button
("Upload") and hint ("200MB per file") in English, so the page hides them and draws ours."""

from __future__ import annotations

import streamlit as st

from dashboard.state import upload_guard
from dashboard.words.i18n import t


def localise(key: str, lang: str) -> None:
    """Before ``st.file_uploader(..., key=key)``: its button says ours, its English hint is hidden;
    and this session may now store files through Streamlit's upload endpoint (upload_guard)."""
    upload_guard.expect()
    k = f".st-key-{key} [data-testid='stFileUploaderDropzone']"
    st.html(f"<style>.st-key-{key} [data-testid='stFileUploaderDropzoneInstructions']{{display:none}}"
            f"{k} button p{{font-size:0}}"
            f"{k} button p::after{{font-size:14px;content:'{t('upload_button', lang)}'}}</style>")
