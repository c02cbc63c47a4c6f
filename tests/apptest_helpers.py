"""What the AppTests of every page share: open a page, fail on exceptions, read the HTML."""

from __future__ import annotations

from typing import Any

from streamlit.testing.v1 import AppTest


def ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.message for e in at.exception]
    return at


def open_page(at: AppTest, page: str, **params: Any) -> AppTest:
    """Run the app with ``params`` in the URL, then switch to ``views/<page>.py``."""
    for k, v in params.items():
        at.query_params[k] = str(v)
    at.run()
    ok(at)
    at.switch_page(f"views/{page}.py").run()
    return ok(at)


def html(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def after_jobs(at: AppTest, timeout: float = 120) -> AppTest:
    """Once the queued deep reviews and analyses are done (dashboard/state/jobs.py), run the
    page again: it then shows their outcome, as the browser does on its next redraw."""
    from dashboard.state import jobs

    assert jobs.QUEUE.wait_idle(timeout), "the dashboard's job queue did not finish"
    at.run()
    return ok(at)


def step_widget(at: AppTest, kind: str, name: str) -> Any:
    """The recorder's play-phase widget ``name`` (``rec_mode``, ``rec_build_in``, ``rec_layoff_on``)
    at the present step: its key changes with each event (dashboard.state.recordings.step_key)."""
    found = [w for w in getattr(at, kind) if w.key and w.key.startswith(f"{name}~")]
    assert len(found) == 1, (name, [w.key for w in getattr(at, kind)])
    return found[0]


def sheet_key(at: AppTest, name: str) -> str:
    """The key of the score sheet's widget ``name`` in the round being entered (each round has its
    own widgets: dashboard.state.sheet_data.round_key)."""
    from dashboard.state.sheet_data import ROUND, round_key

    return round_key(name, at.session_state[ROUND])
