"""The rollout policy's careful discards (X5): from its own view, a seat does not throw the tile
the unopened next seat can open with, where that danger is visible; the old policy (``careless``,
the ``expert-careless`` bot's) does, and pays X5."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_evaluate import position

from analysis.evaluate import fast
from analysis.game import HandState

pytestmark = pytest.mark.skipif(fast.COMPILED is None, reason="the compiled rollout is not built")

# seat 1 (unopened, hidden from seat 0) opens 106 with R12: R10 R11 R12 R13, three groups and more
SEAT1 = "R10 R11 R13 B11 Y11 K11 R9 Y9 K9 R1 Y3 B5 K2 R4 Y6 B1 K4 R6 Y1 B3 K6"


def _position(variant: str = "101") -> HandState:
    """Seat 0 opened (118) holds R12 B2 Y7 and has placed: none fits the table (X4), none joins
    another. What it can see: R10, R11 and R13 unseen (runs R10-R12, R11-R13 would take R12), and
    seat 1 threw a B2 itself."""
    return position(rack="R12 B2 Y7", seat=0, sizes={1: 21, 2: 21, 3: 21}, known={1: SEAT1},
                    table=[(0, "K8 K9 K10 K11 K12 K13"), (0, "Y9 Y10 Y11 Y12 Y13")], opened={0: 118},
                    discards={1: "B2"}, phase="play", deck=12, variant=variant)


def _play(st: HandState, careful: int) -> list[dict]:
    out = fast.play(fast.pack(st, careful), fast.rack_bytes(st.racks, st.okey), fast.deck_bytes(st.deck, st.okey),
                    fast.MODE_DISCARD_POLICY, -1, True)
    return fast.trace_events(out[5], st.okey, st.indicator)


def test_the_careless_policy_feeds_the_next_seats_opening_and_the_careful_one_does_not_X5() -> None:
    st = _position()
    old = _play(st, fast.CARELESS)
    # the old policy throws its highest loose tile once opened: seat 1 takes it, opens, seat 0 pays
    assert old[0] == {"type": "discard", "seat": 0, "tile": "R12"}
    assert old[1] == {"type": "take", "seat": 1, "tile": "R12"} and old[2]["type"] == "open"
    assert {"type": "penalty", "seat": 0, "points": 120, "reason": "X5"} in old[:5]
    new = _play(st, fast.CAREFUL)
    # the careful one keeps R12; of the others it throws the tile seat 1 threw itself
    assert new[0] == {"type": "discard", "seat": 0, "tile": "B2"}
    assert new[1]["type"] == "draw"
    assert not [e for e in new if e["type"] == "penalty" and e["reason"] == "X5" and e["seat"] == 0]


def test_the_careful_discard_reads_only_its_own_view() -> None:
    """The hidden racks dealt otherwise (seat 1's rack given to seat 3 and back): the same discard.
    The danger is read from what seat 0 sees, never from the rack that would open."""
    st = _position()
    r = list(st.racks)
    swapped = replace(st, racks=(r[0], r[3], r[2], r[1]))
    assert _play(swapped, fast.CAREFUL)[0] == _play(st, fast.CAREFUL)[0] == {"type": "discard", "seat": 0,
                                                                                "tile": "B2"}
    # seat by seat: only the seats whose bit is set play carefully
    assert _play(st, 0b1110)[0]["tile"] == "R12" and _play(st, 0b0001)[0]["tile"] == "B2"


def test_without_X5_the_two_policies_are_the_same_game() -> None:
    """101-classic has no X5: the careful policy weighs nothing more, every move is the old one's."""
    st = _position("101-classic")
    assert _play(st, fast.CAREFUL) == _play(st, fast.CARELESS)
    assert _play(st, fast.CAREFUL)[0]["tile"] == "R12"


def test_the_careless_expert_is_a_bot_of_its_own() -> None:
    from analysis.evaluate import CarelessExpertBot, ExpertBot
    from analysis.selfplay import BOTS

    assert BOTS["expert-careless"] is CarelessExpertBot and BOTS["expert"] is ExpertBot
    assert CarelessExpertBot.model == "careless" and ExpertBot.model is None


def test_a_decisions_rollouts_make_its_own_seat_careful_and_its_partner_with_partners() -> None:
    """The deciding seat's own future play avoids feeding (and its partner's, whose X5 is the
    team's); the other seats play the policy they always played; model 'careless' is none."""
    from analysis.game import resolve

    st = _position()
    assert fast.Position(st, 0).careful == 0b0001 and fast.Position(st, 3).careful == 0b1000
    assert fast.Position(st, 0, fast.CARELESS).careful == 0
    assert fast.own_seats(1, resolve("101", {"esli": True})) == 0b1010
    # the packed base carries the mask: the deciding seat 0 keeps R12 in its rollouts
    pos = fast.Position(st, 0)
    out = fast.play(pos.base, fast.rack_bytes(st.racks, st.okey), fast.deck_bytes(st.deck, st.okey),
                    fast.MODE_DISCARD_POLICY, -1, True)
    assert fast.trace_events(out[5], st.okey, st.indicator)[0]["tile"] == "B2"
