"""The 4×13 tile picker (and the false okey) shared by the recorder and the opening lab.

Each colour is one horizontal row of plain-text buttons on its colour's tint, never stacked: on a
phone the fourteen buttons of a row shrink (no padding, a narrow gap, a smaller number) instead of
becoming a column of 53 full-width buttons. No Markdown label per tile: the browser redraws fewer
blocks a tap.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from analysis.game import COLOURS

TINT = {"R": "#fde0dc", "Y": "#fff1b8", "B": "#dde9fb", "K": "#e6e6e6"}  # a row's buttons
TEXT = {"R": "#c62828", "Y": "#b26a00", "B": "#1565c0", "K": "#212121"}  # their numbers


def picker_style() -> None:
    """The picker's colours and its phone layout (once per page)."""
    st.html("<style>" + "".join(f".st-key-picker_{c} button{{background:{TINT[c]}}}"
                                f".st-key-picker_{c} button p{{color:{TEXT[c]};font-weight:700}}" for c in COLOURS)
            + ".pick-pad{min-width:1px}"
            # a phone: 14 tiles a row in ~360 px, so no padding, a narrow gap and a smaller number
            + "@media (max-width:640px){[class*='st-key-picker_']{gap:2px}"
            + "[class*='st-key-picker_'] button{padding:0;min-width:0}"
            + "[class*='st-key-picker_'] button p{font-size:13px}}</style>")


def tile_picker(on_tap: Any, key: str, jokers: bool = True, disabled: bool = False,
                captions: dict[str, str] | None = None) -> None:
    """One tap calls ``on_tap(tile)`` (``R1`` … ``K13``, ``J``); buttons keyed ``{key}_{tile}``.
    ``captions``: a name above each colour's row. The rows stay aligned under the false okey's
    place."""
    for colour in COLOURS:
        if captions:
            st.caption(captions[colour])
        with st.container(key=f"picker_{colour}", horizontal=True, wrap=False, gap="small"):
            for n in range(1, 14):
                st.button(str(n), key=f"{key}_{colour}{n}", on_click=on_tap, args=(f"{colour}{n}",),
                          width="stretch", disabled=disabled)
            if jokers:
                if colour == "R":
                    st.button("☘ J", key=f"{key}_J", on_click=on_tap, args=("J",), width="stretch",
                              disabled=disabled)
                else:
                    st.html('<div class="pick-pad"></div>', width="stretch")


__all__ = ["picker_style", "tile_picker"]
