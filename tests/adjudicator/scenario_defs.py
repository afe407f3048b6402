"""The recorded scenarios, one per rule clause, with the calls reasoned from the rules.

Run ``python -m tests.adjudicator.scenario_defs`` to rewrite the files in ``scenarios/``.
Every expected output below was worked out by hand from the 2022 rules (the comment names the
clause and the arithmetic); none is copied from the engine.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from calibration.table import TABLE
from tests.adjudicator.builder import SPOT, Log

W = (1000.0, 1300.0)  # a white position with a clear view of the rack
STD = TABLE.standard_positions(15)
COLOURS = {c: SPOT[c] for c in ("yellow", "green", "brown", "blue", "pink", "black")}


def std_with_white(xy: tuple[float, float] = W) -> dict[str, tuple[float, float]]:
    return {**STD, "white": xy}


def red_then_colour() -> Log:
    """Rule 3(g)-(h): red (1), declared black (7, spotted), then a missed red ends the turn."""
    g = Log("red_then_colour")
    g.place("white", (600.0, 1000.0))
    g.shot(first="red1", pots=["red1"], white=(2000.0, 700.0))
    g.score((1, 0), 0, 1, "colour", 14)
    g.nominate("black")
    g.shot(first="black", pots=["black"], white=(2900.0, 600.0))
    g.respot("black", "black")
    g.score((8, 0), 0, 8, "red", 14)
    g.spot("black")
    g.shot(first="red2", white=(2600.0, 600.0))
    g.score((8, 0), 1, 0, "red", 14)
    return g


def two_reds_one_stroke() -> Log:
    """Rule 3(g): each Red potted in one stroke scores one."""
    g = Log("two_reds_one_stroke", positions=std_with_white())
    g.shot(first="red1", pots=["red1", "red2"])
    g.score((2, 0), 0, 2, "colour", 13)
    return g


def colour_inferred_from_first_hit() -> Log:
    """Section 2 Rule 12 (contract): no nominate, the first ball hit (pink) is the colour: 6."""
    g = Log("colour_inferred_from_first_hit", positions=std_with_white())
    g.shot(first="red1", pots=["red1"])
    g.score((1, 0), 0, 1, "colour", 14)
    g.shot(first="pink", pots=["pink"], white=(2000.0, 400.0))
    g.respot("pink", "pink")
    g.score((7, 0), 0, 7, "red", 14)
    return g


def clearing_colours() -> Log:
    """Rule 3(h)(iii): with no Reds the colours go in ascending order and stay off."""
    g = Log("clearing_colours", positions={**COLOURS, "white": (1000.0, 1000.0)})
    g.shot(first="yellow", pots=["yellow"], white=(900.0, 700.0))
    g.score((2, 0), 0, 2, "green", 0)
    g.shot(first="green", pots=["green"], white=(1000.0, 1000.0))
    g.score((5, 0), 0, 5, "brown", 0)
    g.shot(first="brown", white=(1200.0, 1000.0))
    g.score((5, 0), 1, 0, "brown", 0)
    return g


def last_red_then_colour() -> Log:
    """Rule 3(h)(ii): after the last Red a colour is on and is spotted; then Yellow is on."""
    g = Log("last_red_then_colour", positions={**COLOURS, "red1": (2500.0, 500.0), "white": (2300.0, 500.0)})
    g.shot(first="red1", pots=["red1"], white=(2400.0, 600.0))
    g.score((1, 0), 0, 1, "colour", 0)
    g.nominate("blue")
    g.shot(first="blue", pots=["blue"], white=(1500.0, 600.0))
    g.respot("blue", "blue")
    g.score((6, 0), 0, 6, "yellow", 0)
    g.spot("blue")
    g.shot(first="yellow", white=(1000.0, 1300.0))
    g.score((6, 0), 1, 0, "yellow", 0)
    return g


def in_off() -> Log:
    """Rule 11(a)(vii): the white pocketed, value of the ball on (Red) -> 4; in hand after."""
    g = Log("in_off", positions=std_with_white())
    g.shot(first="red1", pots=["white"], white=None)
    g.foul(4, "cue_ball_pocketed", 0)
    g.score((0, 4), 1, 0, "red", 15)
    return g


def cue_ball_off_table() -> Log:
    """Rule 11(b)(x): the white forced off the table -> 4, in hand."""
    g = Log("cue_ball_off_table", positions=std_with_white())
    g.shot(first="red1", off=["white"], white=None)
    g.foul(4, "cue_ball_off_table", 0)
    g.score((0, 4), 1, 0, "red", 15)
    return g


def miss_clear_path() -> Log:
    """Rule 14(c), 11(b)(iv): Blue hit first with a clear path to the Reds: FOUL AND A MISS, 5."""
    g = Log("miss_clear_path", positions=std_with_white())
    g.shot(first="blue", white=(1200.0, 1300.0))
    g.foul(5, "wrong_ball_first", 0, miss=True)
    g.score((0, 5), 1, 0, "red", 15)
    return g


def no_miss_snookers_required() -> Log:
    """Rule 14(a)(i): player 0 needs snookers (40 behind, 27 left): FOUL, no miss; 11(b)(iv) 5."""
    g = Log("no_miss_snookers_required", positions={**COLOURS, "white": W}, scores=(0, 40))
    g.shot(first="blue", white=(1100.0, 1500.0))
    g.foul(5, "wrong_ball_first", 0)
    g.score((0, 45), 1, 0, "yellow", 0)
    return g


def snookered_escape_no_miss() -> Log:
    """Rule 14(a)(ii): snookered by the Black, the white went off a cushion into the Black: FOUL
    (7, Black concerned), no miss; the next player is not snookered."""
    pos = {**COLOURS, "black": (1100.0, 889.0), "red1": (1300.0, 889.0), "white": (1000.0, 889.0)}
    g = Log("snookered_escape_no_miss", positions=pos)
    g.shot(first="black", cushion_first=True, white=(1200.0, 600.0))
    g.foul(7, "wrong_ball_first", 0)
    g.score((0, 7), 1, 0, "red", 1)
    return g


def snookered_short_is_miss() -> Log:
    """Rule 14(a)(ii): snookered, but the white reached neither a cushion nor a ball: no attempt,
    FOUL AND A MISS (4, Rule 11(a)(vi)); the incoming player is snookered: FREE BALL."""
    pos = {**COLOURS, "black": (1100.0, 889.0), "red1": (1300.0, 889.0), "white": (1000.0, 889.0)}
    g = Log("snookered_short_is_miss", positions=pos)
    g.shot(first=None, white=(1020.0, 889.0))
    g.foul(4, "no_ball_hit", 0, miss=True)
    g.call("FREE BALL")
    g.score((0, 4), 1, 0, "red", 1)
    return g


def ball_not_on_pocketed() -> Log:
    """Rule 11(b)(iii): Pink pocketed on a Red: 6, no score, Pink spotted (Rule 7)."""
    g = Log("ball_not_on_pocketed", positions=std_with_white())
    g.shot(first="red1", pots=["pink"])
    g.foul(6, "ball_not_on_pocketed", 0)
    g.respot("pink", "pink")
    g.score((0, 6), 1, 0, "red", 15)
    return g


def simultaneous_hit() -> Log:
    """Rule 6, 11(c): Red and Black hit together: the higher, 7. Not a miss (a ball on was hit)."""
    g = Log("simultaneous_hit", positions=std_with_white())
    g.shot(first=["red1", "black"])
    g.foul(7, "simultaneous_hit", 0)
    g.score((0, 7), 1, 0, "red", 15)
    return g


def two_reds_simultaneous() -> Log:
    """Rule 6: two Reds hit together is fair; the potted one counts."""
    g = Log("two_reds_simultaneous", positions=std_with_white())
    g.shot(first=["red1", "red2"], pots=["red2"])
    g.score((1, 0), 0, 1, "colour", 14)
    return g


def reds_in_successive_strokes() -> Log:
    """Rule 11(d)(iii): a Red hit first while a colour is on after a Red: 7; with a clear path to
    the colours it is also a miss (Rule 14(c))."""
    g = Log("reds_in_successive_strokes", positions=std_with_white())
    g.shot(first="red1", pots=["red1"])
    g.score((1, 0), 0, 1, "colour", 14)
    g.shot(first="red2", white=(1200.0, 1300.0))
    g.foul(7, "reds_in_successive_strokes", 0, miss=True)
    g.score((1, 7), 1, 0, "red", 14)
    return g


def no_colour_nominated() -> Log:
    """Rule 11(d)(vi): after a Red, a foul (no ball hit) before any colour was declared or can be
    inferred: 7, and a miss (clear path to the colours)."""
    g = Log("no_colour_nominated", positions=std_with_white())
    g.shot(first="red1", pots=["red1"])
    g.score((1, 0), 0, 1, "colour", 14)
    g.shot(first=None, white=(1100.0, 1300.0))
    g.foul(7, "no_colour_nominated", 0, miss=True)
    g.score((1, 7), 1, 0, "red", 14)
    return g


def nominated_blue_hit_pink() -> Log:
    """Rule 11(b)(iv): Blue declared, Pink hit first: the higher of ball on and concerned, 6; miss."""
    g = Log("nominated_blue_hit_pink", positions=std_with_white())
    g.shot(first="red1", pots=["red1"])
    g.score((1, 0), 0, 1, "colour", 14)
    g.nominate("blue")
    g.shot(first="pink", white=(1200.0, 1300.0))
    g.foul(6, "wrong_ball_first", 0, miss=True)
    g.score((1, 6), 1, 0, "red", 14)
    return g


def object_ball_off_table() -> Log:
    """Rule 11(b)(x): the Blue forced off the table: 5; it is spotted."""
    g = Log("object_ball_off_table", positions=std_with_white())
    g.shot(first="red1", off=["blue"])
    g.foul(5, "ball_off_table", 0)
    g.respot("blue", "blue")
    g.score((0, 5), 1, 0, "red", 15)
    return g


def improper_in_hand() -> Log:
    """Section 3 Rule 5, 11(a)(v): the white placed beyond the baulk-line and struck: 4; the Red
    pocketed does not score and stays off (Rule 10(e), 3(i))."""
    g = Log("improper_in_hand")
    g.place("white", (800.0, 889.0))
    g.shot(first="red1", pots=["red1"])
    g.foul(4, "improper_in_hand", 0)
    g.score((0, 4), 1, 0, "red", 14)
    return g


def jump_shot_keyed() -> Log:
    """Rule 11(a)(x): a keyed jump shot during the stroke: 4, the Red potted does not count."""
    g = Log("jump_shot_keyed", positions=std_with_white())
    g.shot(first="red1", pots=["red1"], infringements=[{"kind": "jump_shot"}])
    g.foul(4, "jump_shot", 0)
    g.score((0, 4), 1, 0, "red", 14)
    return g


def foul_before_stroke_replace() -> Log:
    """Rule 10(a), 10(i), 11(b)(vi): a ball touched before the stroke: FOUL 4 at once, turn over;
    the non-offender has the balls replaced and the offender play again (score shows striker 0)."""
    g = Log("foul_before_stroke_replace", positions=std_with_white())
    g.add({"type": "infringement", "kind": "touched_ball", "ball": "red3"})
    g.foul(4, "touched_ball", 0)
    g.score((0, 4), 1, 0, "red", 15)
    g.add({"type": "choice", "option": "replace"})
    g.score((0, 4), 0, 0, "red", 15)
    g.shot(first="red1", pots=["red1"])
    g.score((1, 4), 0, 1, "colour", 14)
    return g


def non_striker_penalty() -> Log:
    """Rule 3(k), 11(e): the non-striker touches a ball: PENALTY 4 to the striker, who plays on."""
    g = Log("non_striker_penalty", positions=std_with_white())
    g.add({"type": "infringement", "kind": "touched_ball", "ball": "red3", "player": 1})
    g.foul(4, "non_striker_infringement", 1, call="PENALTY")
    g.score((4, 0), 0, 0, "red", 15)
    g.shot(first="red1", pots=["red1"])
    g.score((5, 0), 0, 1, "colour", 14)
    return g


def _touching_setup(name: str) -> Log:
    pos = {**COLOURS, "red1": (1500.0, 300.0), "red2": (2600.0, 1400.0), "white": (1000.0, 300.0)}
    g = Log(name, positions=pos)
    # Player 0 plays red1 safe; the white stops touching it (centres one diameter apart).
    g.shot(first="red1", white=(1500.0 - 52.5, 300.0))
    g.call("TOUCHING BALL", ["red1"])
    g.score((0, 0), 1, 0, "red", 2)
    return g


def touching_ball_play_away() -> Log:
    """Rule 8(a), 8(c)(i): TOUCHING BALL on a Red; playing away without moving it is fair even
    with no ball hit (the touching ball on counts as hit)."""
    g = _touching_setup("touching_ball_play_away")
    g.shot(first=None, white=(900.0, 600.0))
    g.score((0, 0), 0, 0, "red", 2)
    return g


def touching_ball_push() -> Log:
    """Rule 8(b), 11(b)(v): the touching Red moves with no other ball touching it: push stroke, 4."""
    g = _touching_setup("touching_ball_push")
    g.shot(first=None, white=(900.0, 600.0), moves={"red1": (1530.0, 300.0)})
    g.foul(4, "push_stroke", 1)
    g.score((4, 0), 0, 0, "red", 2)
    return g


def _free_ball_setup(name: str) -> Log:
    pos = {**COLOURS, "black": (1100.0, 889.0), "red1": (1300.0, 889.0), "white": (2000.0, 300.0)}
    g = Log(name, positions=pos)
    # Player 0 hits red1 but pockets the pink and leaves the white behind the black.
    g.shot(first="red1", pots=["pink"], white=(1000.0, 889.0))
    g.foul(6, "ball_not_on_pocketed", 0)
    g.respot("pink", "pink")
    g.call("FREE BALL")
    g.score((0, 6), 1, 0, "red", 1)
    g.spot("pink")
    return g


def free_ball_potted() -> Log:
    """Rule 12(a), 12(c): FREE BALL; the Yellow taken as a Red scores 1 and is spotted; a colour
    is then on (Black, 7, spotted)."""
    g = _free_ball_setup("free_ball_potted")
    g.nominate("yellow")
    g.shot(first="yellow", pots=["yellow"], white=(900.0, 1100.0))
    g.respot("yellow", "yellow")
    g.score((0, 7), 1, 1, "colour", 1)
    g.spot("yellow")
    g.nominate("black")
    g.shot(first="black", pots=["black"], white=(1200.0, 1100.0))
    g.respot("black", "black")
    g.score((0, 14), 1, 8, "red", 1)
    return g


def free_ball_not_hit_first() -> Log:
    """Rule 12(b)(i), 11(b)(iv): Yellow nominated as free ball, Green hit first: 4 (Green 3 ->
    minimum 4); a clear path to the free ball makes it a miss (Rule 14(c), Section 2 Rule 21(b))."""
    g = _free_ball_setup("free_ball_not_hit_first")
    g.nominate("yellow")
    g.shot(first="green", white=(900.0, 1200.0))
    g.foul(4, "free_ball_not_hit_first", 1, miss=True)
    g.score((4, 6), 0, 0, "red", 1)
    return g


def free_ball_snooker_foul() -> Log:
    """Rule 12(b)(ii), 11(a)(viii): after a non-scoring stroke the white is snookered on the only
    Red by the nominated free ball (Yellow): 4 (value of the ball on); then FREE BALL for player 0."""
    g = _free_ball_setup("free_ball_snooker_foul")
    g.nominate("yellow")
    g.shot(first="yellow", white=(900.0, 600.0), moves={"yellow": (1100.0, 744.5)})
    g.foul(4, "snookered_behind_free_ball", 1)
    g.call("FREE BALL")
    g.score((4, 6), 0, 0, "red", 1)
    return g


def free_ball_with_ball_on() -> Log:
    """Rule 12(e): Green (free ball) and Yellow (on) potted together: only the Yellow's 2 counts,
    Green is spotted, Yellow stays off; Green is next."""
    pos = {**COLOURS, "yellow": (1300.0, 889.0), "green": (1100.0, 889.0), "white": (1500.0, 300.0)}
    g = Log("free_ball_with_ball_on", positions=pos)
    g.shot(first="blue", white=(1000.0, 889.0))
    g.foul(5, "wrong_ball_first", 0, miss=True)
    g.call("FREE BALL")
    g.score((0, 5), 1, 0, "yellow", 0)
    g.nominate("green")
    g.shot(first="green", pots=["green", "yellow"], white=(1000.0, 700.0))
    g.respot("green", "green")
    g.score((0, 7), 1, 2, "green", 0)
    return g


def respot_own_spot_occupied() -> Log:
    """Rule 7(e): the Black's spot is covered by a Red: the Black goes to the highest free spot,
    the Pink's (the Pink is elsewhere; the apex Red is 52.7 mm from the spot, not touching)."""
    pos = {**std_with_white(), "red15": SPOT["black"], "black": (3000.0, 300.0), "pink": (2200.0, 300.0)}
    g = Log("respot_own_spot_occupied", positions=pos)
    g.shot(first="red1", pots=["black"])
    g.foul(7, "ball_not_on_pocketed", 0)
    g.respot("black", "pink")
    g.score((0, 7), 1, 0, "red", 15)
    return g


def respot_precedence() -> Log:
    """Rule 7(f): Pink and Black to spot, the Black's spot covered: the Pink takes its own free
    spot, then the Black the highest spot left, the Blue's (the Blue is off its spot)."""
    pos = {
        **std_with_white(),
        "red15": SPOT["black"],
        "black": (3000.0, 300.0),
        "pink": (2200.0, 300.0),
        "blue": (1500.0, 1500.0),
    }
    g = Log("respot_precedence", positions=pos)
    g.shot(first="red1", pots=["pink", "black"])
    g.foul(7, "ball_not_on_pocketed", 0)
    g.respot("pink", "pink")
    g.respot("black", "blue")
    g.score((0, 7), 1, 0, "red", 15)
    return g


def respot_all_spots_occupied() -> Log:
    """Rule 7(g), 7(i): every spot covered: the Blue goes as near its spot as possible towards
    the top cushion, just clear of the Red on its spot: x = 1784.5 + 52.5 (+0.1 daylight)."""
    pos = {**COLOURS, "blue": (1500.0, 500.0), "red1": SPOT["blue"], "red2": (2500.0, 300.0), "white": W}
    g = Log("respot_all_spots_occupied", positions=pos)
    g.shot(first="red2", pots=["blue"])
    g.foul(5, "ball_not_on_pocketed", 0)
    g.respot("blue", None, (1784.5 + 52.5 + 0.1, 889.0))
    g.score((0, 5), 1, 0, "red", 2)
    return g


def respot_pink_no_room_above() -> Log:
    """Rule 7(h): all spots covered and no room between the Pink spot and the top cushion: the
    Pink goes on the centre line just below its spot, clear of the Red on it."""
    line = [2676.75, 2776.75, 2876.75, 2976.75, 3076.75, 3160.0, 3340.0, 3435.0, 3530.0]
    pos = {f"red{i + 1}": (x, 889.0) for i, x in enumerate(line)}
    pos.update({c: SPOT[c] for c in ("yellow", "green", "brown", "black")})
    pos.update(
        {"red10": SPOT["blue"], "red11": (2000.0, 1400.0), "pink": (2100.0, 300.0), "white": (1500.0, 1500.0)}
    )
    g = Log("respot_pink_no_room_above", positions=pos)
    g.shot(first="red11", pots=["pink"])
    g.foul(6, "ball_not_on_pocketed", 0)
    g.respot("pink", None, (2676.75 - 52.5 - 0.1, 889.0))
    g.score((0, 6), 1, 0, "red", 11)
    return g


def wrong_place_notice() -> Log:
    """Rule 7(j), 7(c), 10(d): the Black put 55 mm off its spot: noticed, play goes on."""
    g = Log("wrong_place_notice", positions=std_with_white())
    g.shot(first="red1", pots=["red1"])
    g.score((1, 0), 0, 1, "colour", 14)
    g.nominate("black")
    g.shot(first="black", pots=["black"], white=(2900.0, 600.0))
    g.respot("black", "black")
    g.score((8, 0), 0, 8, "red", 14)
    g.spot("black", (3300.0, 889.0))
    g.notice("black")
    return g


def final_black() -> Log:
    """Rule 4(a), Section 2 Rule 1(d): the final Black potted ends the frame, 57-40."""
    g = Log("final_black", positions={"black": SPOT["black"], "white": (3000.0, 600.0)}, scores=(50, 40))
    g.shot(first="black", pots=["black"], white=(3100.0, 700.0))
    g.score((57, 40), 0, 7, "none", 0)
    g.frame_end(0, (57, 40), "final_black")
    return g


def _lot(t: float) -> int:
    """The documented lot of :func:`adjudicator.judge.draw_lot` for players Ann and Bob."""
    return int(hashlib.sha256(f"Ann|Bob|{t:.6f}".encode()).hexdigest(), 16) & 1


def re_spotted_black() -> Log:
    """Rule 4(b): the final Black ties the scores at 57: RE-SPOTTED BLACK, the Black on its spot,
    the white in hand, the player drawn by lot; that player pots it and wins."""
    g = Log("re_spotted_black", positions={"black": SPOT["black"], "white": (3000.0, 600.0)}, scores=(50, 57))
    t = g.shot(first="black", pots=["black"], white=(3100.0, 700.0))
    drawn = _lot(t)
    g.call("RE-SPOTTED BLACK")
    g.respot("black", "black")
    g.score((57, 57), drawn, 0, "black", 0)
    g.pos.pop("white")
    g.spot("black")
    g.place("white", (600.0, 889.0))
    g.shot(first="black", pots=["black"], white=(3000.0, 900.0))
    final = (64, 57) if drawn == 0 else (57, 64)
    g.score(final, drawn, 7, "none", 0)
    g.frame_end(drawn, final, "final_black")
    return g


def foul_on_final_black() -> Log:
    """Rule 4(a): with the Black alone a foul ends the frame (7 to player 0: 57-45). No miss: the
    stroke leaves player 1 needing penalty points (Rule 14(a)(i))."""
    g = Log(
        "foul_on_final_black",
        positions={"black": SPOT["black"], "white": (3000.0, 600.0)},
        scores=(50, 45),
        striker=1,
    )
    g.shot(first=None, white=(3050.0, 600.0))
    g.foul(7, "no_ball_hit", 1)
    g.score((57, 45), 0, 0, "none", 0)
    g.frame_end(0, (57, 45), "foul_on_final_black")
    return g


def concession() -> Log:
    """Section 2 Rule 1(a): player 1 concedes."""
    g = Log("concession")
    g.add({"type": "concede", "player": 1})
    g.frame_end(0, (0, 0), "concession")
    return g


def three_misses_award_frame() -> Log:
    """Rule 14(b), 14(d): full-ball contact on the Reds available; miss, replace, miss, replace
    (Warning), third miss: the frame is awarded to the opponent."""
    g = Log("three_misses_award_frame", positions=std_with_white())
    g.shot(first="blue", white=(1200.0, 1300.0))
    g.foul(5, "wrong_ball_first", 0, miss=True)
    g.score((0, 5), 1, 0, "red", 15)
    g.add({"type": "choice", "option": "replace"})
    g.score((0, 5), 0, 0, "red", 15)
    g.place("white", W)
    g.shot(first="blue", white=(1200.0, 1300.0))
    g.foul(5, "wrong_ball_first", 0, miss=True)
    g.score((0, 10), 1, 0, "red", 15)
    g.add({"type": "choice", "option": "replace"})
    g.warning(0, "third_miss_awards_frame")
    g.score((0, 10), 0, 0, "red", 15)
    g.place("white", W)
    g.shot(first="blue", white=(1200.0, 1300.0))
    g.foul(5, "wrong_ball_first", 0, miss=True)
    g.score((0, 15), 1, 0, "none", 15)
    g.frame_end(1, (0, 15), "frame_awarded_three_misses")
    return g


def miss_then_play_from_position_left() -> Log:
    """Rule 14(d)(iii): after a miss, asking to play from the position left ends the sequence:
    a later miss starts counting again (no Warning)."""
    g = Log("miss_then_play_from_position_left", positions=std_with_white())
    g.shot(first="blue", white=(1200.0, 1300.0))
    g.foul(5, "wrong_ball_first", 0, miss=True)
    g.score((0, 5), 1, 0, "red", 15)
    g.add({"type": "choice", "option": "play_again"})
    g.score((0, 5), 0, 0, "red", 15)
    g.shot(first="blue", white=(1000.0, 1300.0))
    g.foul(5, "wrong_ball_first", 0, miss=True)
    g.score((0, 10), 1, 0, "red", 15)
    return g


def play_again_after_foul() -> Log:
    """Rule 10(h)(ii): after an in-off the non-offender asks the offender to play again (in hand)."""
    g = Log("play_again_after_foul", positions=std_with_white())
    g.shot(first="red1", pots=["white"], white=None)
    g.foul(4, "cue_ball_pocketed", 0)
    g.score((0, 4), 1, 0, "red", 15)
    g.add({"type": "choice", "option": "play_again"})
    g.score((0, 4), 0, 0, "red", 15)
    return g


def six_reds_snookered_behind_nominated() -> Log:
    """Rule 19(d), 11(a)(ix): Six Reds; after a Red, the Brown declared and missed, the white left
    snookered on the only Red by the Brown: 4 (value of the ball on, Brown); FREE BALL."""
    pos = {**COLOURS, "red1": (2300.0, 400.0), "red2": (2600.0, 1300.0), "white": (2000.0, 400.0)}
    g = Log("six_reds_snookered_behind_nominated", reds=6, positions=pos)
    g.shot(first="red1", pots=["red1"], white=(1500.0, 1000.0))
    g.score((1, 0), 0, 1, "colour", 1)
    g.nominate("brown")
    g.shot(first="brown", white=(1000.0, 1300.0), moves={"brown": (1200.0, 1300.0)})
    g.foul(4, "snookered_behind_nominated_ball", 0)
    g.call("FREE BALL")
    g.score((1, 4), 1, 0, "red", 1)
    return g


def notices() -> Log:
    """Inconsistent logs (contract ``notice``): a ball missing at rest with no pot (assumed still
    there), a stroke with no rest (closed at the next event), a pot of a ball already off."""
    g = Log("notices", positions=std_with_white())
    t = g.shot(first="red1", white=(1100.0, 1300.0), rest=False)
    saved = g.pos.pop("red5")
    g.add({"type": "rest", "positions": {k: list(v) for k, v in g.pos.items()}})
    g.notice("red5")
    g.score((0, 0), 1, 0, "red", 15)
    g.pos["red5"] = saved
    g.shot(first="red2", pots=["red2"], white=(1200.0, 1300.0), rest=False)
    g.nominate("black")
    g.notice()
    g.score((0, 1), 1, 1, "colour", 14)
    g.shot(first="black", pots=["black"], white=(1300.0, 1300.0))
    g.respot("black", "black")
    g.score((0, 8), 1, 8, "red", 14)
    g.spot("black")
    g.shot(first="red3", pots=["red2"], white=(1400.0, 1300.0))
    # The contract dates an output by the input that caused it: the bad pot, one tick before rest.
    g.expect({"type": "notice", "message": "*", "ball": "red2"}, t=round(g.t - 1.0, 3))
    g.score((0, 8), 0, 0, "red", 14)
    del t
    return g


def rebound_not_potted() -> Log:
    """Rule 3(m): a Red enters a pocket and rebounds onto the bed: not potted, the turn ends."""
    g = Log("rebound_not_potted", positions=std_with_white())
    g.shot(first="red1", pots=["red1"], moves={"red1": (3500.0, 60.0)})
    g.score((0, 0), 1, 0, "red", 15)
    return g


def free_ball_in_hand() -> Log:
    """Section 2 Rule 17(a): after an in-off the only Red is hidden in a corner behind two
    colours from every position in the D: FREE BALL."""
    pos = {
        "yellow": SPOT["yellow"],
        "green": SPOT["green"],
        "brown": SPOT["brown"],
        "blue": SPOT["blue"],
        "red1": (3500.0, 60.0),
        "pink": (3447.5, 60.0),
        "black": (3500.0, 112.5),
        "white": (3000.0, 600.0),
    }
    g = Log("free_ball_in_hand", positions=pos)
    g.shot(first="red1", pots=["white"], white=None)
    g.foul(4, "cue_ball_pocketed", 0)
    g.call("FREE BALL")
    g.score((0, 4), 1, 0, "red", 1)
    return g


def clearing_wrong_colour() -> Log:
    """Rule 11(b)(iv): Yellow on, Green hit first: 4 (3 -> minimum 4), a miss (clear path)."""
    g = Log("clearing_wrong_colour", positions={**COLOURS, "white": (1000.0, 1000.0)})
    g.shot(first="green", white=(900.0, 900.0))
    g.foul(4, "wrong_ball_first", 0, miss=True)
    g.score((0, 4), 1, 0, "yellow", 0)
    return g


ALL: tuple[Callable[[], Log], ...] = (
    red_then_colour,
    two_reds_one_stroke,
    colour_inferred_from_first_hit,
    clearing_colours,
    last_red_then_colour,
    in_off,
    cue_ball_off_table,
    miss_clear_path,
    no_miss_snookers_required,
    snookered_escape_no_miss,
    snookered_short_is_miss,
    ball_not_on_pocketed,
    simultaneous_hit,
    two_reds_simultaneous,
    reds_in_successive_strokes,
    no_colour_nominated,
    nominated_blue_hit_pink,
    object_ball_off_table,
    improper_in_hand,
    jump_shot_keyed,
    foul_before_stroke_replace,
    non_striker_penalty,
    touching_ball_play_away,
    touching_ball_push,
    free_ball_potted,
    free_ball_not_hit_first,
    free_ball_snooker_foul,
    free_ball_with_ball_on,
    respot_own_spot_occupied,
    respot_precedence,
    respot_all_spots_occupied,
    respot_pink_no_room_above,
    wrong_place_notice,
    final_black,
    re_spotted_black,
    foul_on_final_black,
    concession,
    three_misses_award_frame,
    miss_then_play_from_position_left,
    play_again_after_foul,
    six_reds_snookered_behind_nominated,
    notices,
    rebound_not_potted,
    free_ball_in_hand,
    clearing_wrong_colour,
)


def main() -> None:
    for make in ALL:
        make().write()


if __name__ == "__main__":
    main()
