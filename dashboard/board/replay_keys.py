"""The Replay page's keyboard: ← → one event, Home/End, PageUp/PageDown the chosen seat's turns,
M the next mistake — as one small browser component (``st.components.v2``) that sends the step
to go to, not the key.

Why not button shortcuts: a key pressed while the page reruns reached a button that was being
drawn again, and clicks that arrived during one rerun were merged into one (five presses 0.1 s
apart moved two steps). Here the browser keeps the step it last asked for and counts
every press from it, so each press moves one step however long the rerun takes; a lost or merged
message still carries the latest target, and a run that ends on another step than the last one
asked for asks again, by a timer (the last message itself can be lost while a run is being
replaced, and then no run follows to notice it).

The component's script mounts on its own time, often a second or more after the board is drawn
(its code is a separate chunk, then a module import): a key pressed in that gap reached nobody (M
right after a page load was lost in 3 of 7 tries). ``early()``, drawn at the top of the page, sets
a plain listener that keeps those presses; the component plays them back when it mounts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st

JS = r"""
export default function(component) {
  const { data, setTriggerValue } = component;
  const K = window.__istakaKeys = window.__istakaKeys || { pending: null, at: 0, gen: 0 };
  K.gen += 1;
  const gen = K.gen;
  K.data = data;
  K.send = setTriggerValue;
  // the server has drawn the step this browser asked for (or asked long ago): count from it again
  if (K.pending !== null && (data.step === K.pending || Date.now() - K.at > 45000)) K.pending = null;
  if (K.pending === null) document.querySelectorAll('[data-testid="ist-step"]')
    .forEach((el) => el.removeAttribute('data-pending'));
  if (!K.retry) {
    // a trigger sent while a run is being replaced can be dropped, the last one too: while the
    // page shows another step than the last one asked for, ask again (1.5, 3, 6, 12, 24 s later; a
    // loaded server takes seconds a run)
    K.retry = () => {
      K.timer = null;
      const d = K.data;
      if (K.pending === null || !d || d.game !== K.game || d.hand !== K.hand || d.step === K.pending) return;
      if (K.tries >= 5) return;
      K.tries += 1;
      K.send('go', { step: K.pending, hand: K.hand, game: K.game });
      K.timer = setTimeout(K.retry, 1500 * 2 ** K.tries);
    };
  }
  if (!K.handler) {
    K.handler = (e) => {
      const d = K.data;
      if (!d || e.ctrlKey || e.metaKey || e.altKey) return;
      const el = e.target;
      const tag = el && el.tagName ? el.tagName.toUpperCase() : '';
      if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || (el && el.isContentEditable)) return;
      const base = K.pending !== null ? K.pending : d.step;
      let to = null;
      if (e.key === 'ArrowRight') to = base + 1;
      else if (e.key === 'ArrowLeft') to = base - 1;
      else if (e.key === 'Home') to = 0;
      else if (e.key === 'End') to = d.last;
      else if (e.key === 'PageDown') to = d.turns.find((s) => s > base);
      else if (e.key === 'PageUp') to = [...d.turns].reverse().find((s) => s < base);
      else if (e.key === 'm' || e.key === 'M') to = d.mistakes.find((s) => s > base);
      if (to === null) return;
      e.preventDefault();
      if (to === undefined) return;
      to = Math.max(0, Math.min(d.last, to));
      if (to === base) return;
      K.pending = to;
      K.game = d.game;
      K.hand = d.hand;
      K.tries = 0;
      K.at = Date.now();
      document.querySelectorAll('[data-testid="ist-step"]').forEach((x) => x.setAttribute('data-pending', String(to)));
      K.send('go', { step: to, hand: d.hand, game: d.game });
      if (K.timer) clearTimeout(K.timer);
      K.timer = setTimeout(K.retry, 1500);
    };
    document.addEventListener('keydown', K.handler);
  }
  // keys pressed before this script ran (kept by EARLY): played back in order, from the drawn step
  const E = window.__istakaEarly;
  if (E && E.queue.length) {
    const now = Date.now();
    for (const x of E.queue.splice(0)) {
      if (now - x.at < 30000 && x.path === location.pathname) K.handler({ key: x.key, target: x.target, preventDefault() {} });
    }
  }
  return () => {
    // only the last mount's clean-up removes the listener (a new render mounts again first)
    setTimeout(() => {
      if (K.gen === gen && K.handler && !document.querySelector('.st-key-rp_keys')) {
        document.removeEventListener('keydown', K.handler);
        K.handler = null;
        K.pending = null;
      }
    }, 0);
  };
}
"""

# the keys pressed on the Replay page before the component's handler exists, kept in order; a plain
# script in the page (st.html runs it as soon as the page's first elements are drawn)
EARLY = r"""<div class="ist-keys-early"></div>
<style>[data-testid="stElementContainer"]:has(.ist-keys-early){display:none}</style>
<script>
(() => {
  if (window.__istakaEarly) return;
  const E = window.__istakaEarly = { queue: [] };
  const KEYS = ['ArrowRight', 'ArrowLeft', 'Home', 'End', 'PageDown', 'PageUp', 'm', 'M'];
  document.addEventListener('keydown', (e) => {
    const K = window.__istakaKeys;
    if (K && K.handler) return;  // the component listens: the key is its own
    if (!/\/replay$/.test(location.pathname.replace(/\/+$/, ''))) return;
    if (e.ctrlKey || e.metaKey || e.altKey || !KEYS.includes(e.key)) return;
    const el = e.target;
    const tag = el && el.tagName ? el.tagName.toUpperCase() : '';
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || (el && el.isContentEditable)) return;
    e.preventDefault();
    E.queue.push({ key: e.key, target: el, at: Date.now(), path: location.pathname });
  });
})();
</script>"""

_component: Any = None


def _mount() -> Any:
    global _component
    if _component is None:
        _component = st.components.v2.component("istaka.replay_keys", js=JS)
    return _component


def early() -> None:
    """Keep the Replay keys pressed before :func:`keys` is listening (call it at the top of the page:
    its element takes no room)."""
    st.html(EARLY, unsafe_allow_javascript=True)


def keys(game: str, hand: int, step: int, last: int, turns: Sequence[int], mistakes: Sequence[int],
         go: Callable[[int], None]) -> None:
    """Listen to the Replay keys; ``go(step)`` runs (before the page) for each step asked for."""

    def _on_go() -> None:
        value = (st.session_state.get("rp_keys") or {}).get("go")
        if isinstance(value, dict) and value.get("game") == game and value.get("hand") == hand:
            try:
                go(int(value["step"]))
            except (TypeError, ValueError, KeyError):
                pass

    _mount()(key="rp_keys", data={"game": game, "hand": hand, "step": step, "last": last,
                                  "turns": sorted(int(s) for s in turns),
                                  "mistakes": sorted(int(s) for s in mistakes)},
             on_go_change=_on_go, height=0, width="content")
