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
    """Once the queued deep reviews and analyses are done (dashboard/state/jobs.py, issue 25), run the
    page again: it then shows their outcome, as the browser does on its next redraw."""
    from dashboard.state import jobs

    assert jobs.QUEUE.wait_idle(timeout), "the dashboard's job queue did not finish"
    at.run()
    return ok(at)


def sheet_key(at: AppTest, name: str) -> str:
    """The key of the score sheet's widget ``name`` in the round being entered (each round has its
    own widgets: dashboard.state.sheet_data.round_key)."""
    from dashboard.state.sheet_data import ROUND, round_key

    return round_key(name, at.session_state[ROUND])
