"""A Streamlit session without a browser: the websocket protocol the browser speaks.

Each :class:`Session` is one browser tab to the server: ``run(page, query)`` asks for a script
run of a page (as the sidebar's link or an address does), ``submit(...)`` sends widget values
(as a click does), and both wait for the run to end. What the run drew is kept as widgets by
their key and as the texts of its alerts and markdown, and the server's own time of the run
(its ``PageProfile``: sent when the server is started with ``browser.gatherUsageStats`` on,
which makes a server send nothing anywhere by itself: only browsers report usage).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

FINISHED = (ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_WITH_COMPILE_ERROR)


@dataclass
class Run:
    """What one script run drew, and how long it took."""

    seconds: float = 0.0  # from the request sent to the run's end, as a client sees it
    server_seconds: float | None = None  # the server's own script time (PageProfile.exec_time)
    widgets: dict[str, Any] = field(default_factory=dict)  # user key (or id) -> the widget's proto
    texts: list[str] = field(default_factory=list)  # markdown, alerts, captions
    alerts: list[str] = field(default_factory=list)  # st.error / st.warning / st.success texts
    exception: str | None = None  # an exception element (the page's own traceback shown)
    finished: bool = False


def _key(widget_id: str) -> str:
    """A widget id ends with its user key: ``$$ID-<hash>-nt_text`` -> ``nt_text``."""
    parts = widget_id.split("-", 2)
    return parts[2] if len(parts) == 3 and parts[2] != "None" else widget_id


class Session:
    def __init__(self, url: str, cookie: str = "") -> None:
        self.url = url.replace("http://", "ws://").rstrip("/") + "/_stcore/stream"
        self.cookie = cookie  # a Cookie header for the handshake ("istaka_writer=…": a logged-in writer)
        self.ws: Any = None
        self.page = ""
        self.query = ""

    async def __aenter__(self) -> Session:
        self.ws = await websockets.connect(self.url, subprotocols=["streamlit"], max_size=None,
                                           open_timeout=60, ping_interval=None,
                                           additional_headers={"Cookie": self.cookie} if self.cookie else None)
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.ws.close()

    async def run(self, page: str, query: str = "", timeout: float = 300) -> Run:
        """Open ``page`` (its url_path) with ``query`` (``game=…&hand=1``)."""
        self.page, self.query = page, query
        return await self._rerun([], timeout)

    async def submit(self, values: dict[str, Any], run: Run, timeout: float = 300) -> Run:
        """Send widget values by user key (a string, an int, ``True`` for a button or a form's
        submit) as the last run drew them, and wait for the run they cause."""
        states = []
        for key, value in values.items():
            w = run.widgets[key]
            s = WidgetState(id=w.id)
            if value is True:
                s.trigger_value = True
            elif isinstance(value, str):
                s.string_value = value
            elif isinstance(value, int):
                s.int_value = value
            states.append(s)
        return await self._rerun(states, timeout)

    async def _rerun(self, states: list[WidgetState], timeout: float) -> Run:
        msg = BackMsg()
        cs = msg.rerun_script
        cs.query_string = self.query
        cs.page_name = self.page
        cs.widget_states.widgets.extend(states)
        t0 = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        out = Run()
        deadline = time.monotonic() + timeout
        started = False
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            raw = await asyncio.wait_for(self.ws.recv(), left)
            fm = ForwardMsg()
            fm.ParseFromString(raw)
            kind = fm.WhichOneof("type")
            if kind == "session_status_changed" and fm.session_status_changed.script_is_running:
                started = True
            elif kind == "new_session":
                started = True
            elif kind == "delta":
                _collect(fm, out)
            elif kind == "page_profile":
                out.server_seconds = fm.page_profile.exec_time / 1e6
            elif kind == "script_finished" and fm.script_finished in FINISHED and started:
                out.finished = True
                break
        out.seconds = time.perf_counter() - t0
        return out


def _collect(fm: ForwardMsg, out: Run) -> None:
    d = fm.delta
    if d.WhichOneof("type") != "new_element":
        return
    el = d.new_element
    kind = el.WhichOneof("type")
    if kind is None:
        return
    w = getattr(el, kind)
    if kind == "exception":
        out.exception = f"{w.type}: {w.message}"
    elif kind == "alert":
        out.alerts.append(w.body)
        out.texts.append(w.body)
    elif kind == "markdown":
        out.texts.append(w.body)
    wid = getattr(w, "id", "") if kind not in ("markdown", "alert", "exception") else ""
    if wid:
        out.widgets[_key(wid)] = w
        if kind == "button" and getattr(w, "is_form_submitter", False):
            out.widgets[f"submit:{w.form_id}"] = w
