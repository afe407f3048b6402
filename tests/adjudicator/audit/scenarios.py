"""Audit scenarios, each a function building a :class:`Scenario` from the rules' text.

Unless a clause is being tested, positions are chosen so that nobody needs snookers and
the incoming striker is not snookered, so each scenario isolates one clause. Section and
rule numbers are those of the 2022 Rules of Snooker (S2 = Section 2, S3 = Section 3).
"""

from __future__ import annotations

from collections.abc import Callable

from tests.adjudicator.audit.kit import SPOT, Scenario, colours_only

W0 = (700.0, 1000.0)  # inside the D
FAR = (1100.0, 1500.0)  # a white rest with a clear view of everything
SCENARIOS: dict[str, Callable[[], Scenario]] = {}


def scenario(fn: Callable[[], Scenario]) -> Callable[[], Scenario]:
    SCENARIOS[fn.__name__] = fn
    return fn


def three_reds(
    white: tuple[float, float] = (1500.0, 1000.0), **extra: tuple[float, float]
) -> dict[str, tuple[float, float]]:
    """Three reds, the colours on their spots and the white: 51 points remain."""
    pos = colours_only(white=white, red1=(2000.0, 400.0), red2=(2200.0, 1400.0), red3=(2500.0, 600.0))
    pos.update(extra)
    return pos


# ---- scoring, the break and the ball on (S3 Rule 3) -----------------------------------------
@scenario
def pot_red_then_black() -> Scenario:
    s = Scenario("pot_red_then_black")
    s.place("white", W0).strike().hit("red1").pot("red1").rest(white=(2000.0, 1000.0))
    s.score(1, 0, 0, 1, "colour", 14)
    s.nominate("black").strike().hit("black").pot("black").rest(white=(2900.0, 1300.0))
    s.respot("black", "black").score(8, 0, 0, 8, "red", 14)  # S3 3(h)(i): colour spotted
    return s


@scenario
def two_reds_one_stroke() -> Scenario:
    s = Scenario("two_reds_one_stroke")  # S3 3(g): each Red potted in the same stroke scores
    s.place("white", W0).strike().hit("red1").pot("red1", "red2").rest(white=(2000.0, 1000.0))
    return s.score(2, 0, 0, 2, "colour", 13)


@scenario
def no_pot_ends_turn() -> Scenario:
    s = Scenario("no_pot_ends_turn")  # S2 5(a)
    s.place("white", W0).strike().hit("red1").rest(white=FAR)
    return s.score(0, 0, 1, 0, "red", 15)


@scenario
def colour_inferred_from_first_hit() -> Scenario:
    s = Scenario("colour_inferred_from_first_hit")
    s.place("white", W0).strike().hit("red1").pot("red1").rest(white=(1500.0, 1000.0))
    s.score(1, 0, 0, 1, "colour", 14)
    s.strike().hit("blue").pot("blue").rest(white=(1700.0, 1200.0))
    return s.respot("blue", "blue").score(6, 0, 0, 6, "red", 14)


@scenario
def nominated_green_pots_blue() -> Scenario:
    # S3 11(b)(iii): ball not on pocketed, value of ball on (green 3) or ball concerned (blue 5)
    s = Scenario("nominated_green_pots_blue")
    s.place("white", W0).strike().hit("red1").pot("red1").rest(white=(1500.0, 1000.0))
    s.score(1, 0, 0, 1, "colour", 14)
    s.nominate("green").strike().hit("green").pot("blue").rest(white=(1200.0, 700.0))
    return s.foul(5, 0).respot("blue", "blue").score(1, 5, 1, 0, "red", 14)


@scenario
def nominated_green_hits_blue_last_red() -> Scenario:
    # S3 11(b)(iv) max(3, 5); a foul on the colour after the last Red: next player on Yellow
    # (S3 3(h)(ii)-(iii)); player 0 needs snookers (35 left, 60 behind) so no miss (14(a)(i)).
    pos = colours_only(white=(1500.0, 1000.0), red1=(2000.0, 1300.0))
    s = Scenario("nominated_green_hits_blue_last_red", positions=pos, scores=(0, 60))
    s.strike().hit("red1").pot("red1").rest(white=(1400.0, 1000.0))
    s.score(1, 60, 0, 1, "colour", 0)
    s.nominate("green").strike().hit("blue").rest(white=(1500.0, 1100.0))
    return s.foul(5, 0).score(1, 65, 1, 0, "yellow", 0)


@scenario
def red_after_red_is_seven() -> Scenario:
    # S3 11(d)(iii)/(vi): at Reds in successive strokes, before a colour was nominated: 7
    s = Scenario("red_after_red_is_seven", positions=three_reds(), scores=(0, 60))
    s.strike().hit("red1").pot("red1").rest(white=(1700.0, 1100.0))
    s.score(1, 60, 0, 1, "colour", 2)
    s.strike().hit("red2").rest(white=(1900.0, 1300.0))
    return s.foul(7, 0).score(1, 67, 1, 0, "red", 2)


@scenario
def no_colour_nominated_hits_nothing() -> Scenario:
    # S3 11(d)(vi): after potting a Red, a foul before a colour has been nominated: 7
    s = Scenario("no_colour_nominated_hits_nothing", positions=three_reds(), scores=(0, 60))
    s.strike().hit("red1").pot("red1").rest(white=(1700.0, 1100.0))
    s.score(1, 60, 0, 1, "colour", 2)
    s.strike().cushion().rest(white=(1300.0, 1600.0))
    return s.foul(7, 0).score(1, 67, 1, 0, "red", 2)


@scenario
def in_off_after_hitting_yellow_on_colour() -> Scenario:
    # Yellow nominated by the first hit: value 2, so the minimum 4 (S3 11 preamble, 11(a)(vii))
    s = Scenario("in_off_after_hitting_yellow_on_colour", positions=three_reds(), scores=(0, 60))
    s.strike().hit("red1").pot("red1").rest(white=(1700.0, 1100.0))
    s.score(1, 60, 0, 1, "colour", 2)
    s.strike().hit("yellow").pot("white").rest()
    return s.foul(4, 0).score(1, 64, 1, 0, "red", 2)


@scenario
def clearing_colours_in_order() -> Scenario:
    s = Scenario("clearing_colours_in_order", positions=colours_only(white=(1000.0, 1300.0)))
    s.strike().hit("yellow").pot("yellow").rest(white=(900.0, 700.0))
    s.score(2, 0, 0, 2, "green", 0)  # S3 3(h)(iii): stays off, next colour on
    s.strike().hit("green").pot("green").rest(white=(900.0, 1000.0))
    return s.score(5, 0, 0, 5, "brown", 0)


@scenario
def last_red_then_black_respotted() -> Scenario:
    pos = colours_only(white=(1600.0, 1300.0), red1=(2000.0, 1200.0))
    s = Scenario("last_red_then_black_respotted", positions=pos)
    s.strike().hit("red1").pot("red1").rest(white=(2400.0, 1100.0))
    s.score(1, 0, 0, 1, "colour", 0)  # S3 3(h)(ii): a colour is played at after the last Red
    s.strike().hit("black").pot("black").rest(white=(2900.0, 1200.0))
    return s.respot("black", "black").score(8, 0, 0, 8, "yellow", 0)


@scenario
def last_red_then_colour_missed() -> Scenario:
    pos = colours_only(white=(1600.0, 1300.0), red1=(2000.0, 1200.0))
    s = Scenario("last_red_then_colour_missed", positions=pos)
    s.strike().hit("red1").pot("red1").rest(white=(2400.0, 1100.0))
    s.score(1, 0, 0, 1, "colour", 0)
    s.strike().hit("blue").rest(white=(2200.0, 1300.0))
    return s.score(1, 0, 1, 0, "yellow", 0)


@scenario
def last_red_pocketed_in_foul() -> Scenario:
    # 11(b)(iii)/(iv): max(1, 5); the Red stays off (S3 3(i)); no Red was potted: Yellow on
    pos = colours_only(white=(1500.0, 1000.0), red1=(3500.0, 1700.0))
    s = Scenario("last_red_pocketed_in_foul", positions=pos, scores=(0, 60))
    s.strike().hit("blue").pot("red1").rest(white=(1600.0, 1300.0))
    return s.foul(5, 0).score(0, 65, 1, 0, "yellow", 0)


# ---- fouls and penalty values (S3 Rule 11) ---------------------------------------------------
@scenario
def in_off_on_red() -> Scenario:
    s = Scenario("in_off_on_red")  # 11(a)(vii): value of ball on (1) -> 4; in-hand (S2 9(a)(ii))
    s.place("white", W0).strike().hit("red1").pot("white").rest()
    s.foul(4, 0).score(0, 4, 1, 0, "red", 15)
    s.place("white", (650.0, 850.0)).strike().hit("red2").rest(white=FAR)
    return s.score(0, 4, 0, 0, "red", 15)


@scenario
def in_off_on_blue() -> Scenario:
    pos = {"white": (1200.0, 1300.0), "blue": SPOT["blue"], "pink": SPOT["pink"], "black": SPOT["black"]}
    s = Scenario("in_off_on_blue", positions=pos)
    s.strike().hit("blue").pot("white").rest()
    return s.foul(5, 0).score(0, 5, 1, 0, "blue", 0)


@scenario
def first_hit_not_on_is_a_miss() -> Scenario:
    # 14(c): clear path to the Yellow, nobody needs penalty points (0-0, 27 left)
    s = Scenario("first_hit_not_on_is_a_miss", positions=colours_only(white=(1500.0, 1300.0)))
    s.strike().hit("pink").rest(white=(2000.0, 1300.0))
    return s.foul(6, 0, miss=True).score(0, 6, 1, 0, "yellow", 0)


@scenario
def first_hit_not_on_snookers_required() -> Scenario:
    # 14(a)(i): a player required penalty points: FOUL, not a miss; 11(b)(iv) max(2, 6)
    pos = colours_only(white=(1500.0, 1300.0))
    s = Scenario("first_hit_not_on_snookers_required", positions=pos, scores=(0, 40))
    s.strike().hit("pink").rest(white=(2000.0, 1300.0))
    return s.foul(6, 0).score(0, 46, 1, 0, "yellow", 0)


@scenario
def pocket_pink_with_red() -> Scenario:
    s = Scenario("pocket_pink_with_red")  # 11(b)(iii) max(1, 6); no score on a foul (10(e))
    s.place("white", W0).strike().hit("red1").pot("red1", "pink").rest(white=FAR)
    return s.foul(6, 0).respot("pink", "pink").score(0, 6, 1, 0, "red", 14)


@scenario
def simultaneous_red_and_black() -> Scenario:
    s = Scenario("simultaneous_red_and_black")  # 11(c): higher of the two balls concerned
    s.place("white", W0).strike().hit("red1", "black").rest(white=FAR)
    return s.foul(7, 0).score(0, 7, 1, 0, "red", 15)


@scenario
def simultaneous_two_reds_legal() -> Scenario:
    s = Scenario("simultaneous_two_reds_legal")  # S3 6 and 11(c): two Reds are allowed
    s.place("white", W0).strike().hit("red1", "red2").pot("red1").rest(white=FAR)
    return s.score(1, 0, 0, 1, "colour", 14)


@scenario
def blue_forced_off_table() -> Scenario:
    s = Scenario("blue_forced_off_table")  # 11(b)(x) max(1, 5); S3 7 respot
    s.place("white", W0).strike().hit("red1").off("blue").rest(white=FAR)
    return s.foul(5, 0).respot("blue", "blue").score(0, 5, 1, 0, "red", 15)


@scenario
def white_forced_off_table() -> Scenario:
    s = Scenario("white_forced_off_table")  # 11(b)(x); in-hand (S2 9(a)(iii))
    s.place("white", W0).strike().hit("red1").off("white").rest()
    return s.foul(4, 0).score(0, 4, 1, 0, "red", 15)


@scenario
def push_stroke_keyed() -> Scenario:
    s = Scenario("push_stroke_keyed")  # 11(b)(v)
    s.place("white", W0).strike().hit("red1").infr("push_stroke").rest(white=FAR)
    return s.foul(4, 0).score(0, 4, 1, 0, "red", 15)


@scenario
def touched_black_keyed() -> Scenario:
    s = Scenario("touched_black_keyed")  # 11(b)(vi): ball concerned, Black 7
    s.place("white", W0).strike().hit("red1").infr("touched_ball", ball="black").rest(white=FAR)
    return s.foul(7, 0).score(0, 7, 1, 0, "red", 15)


@scenario
def jump_shot_on_pink() -> Scenario:
    pos = {"white": (1500.0, 889.0), "pink": SPOT["pink"], "black": SPOT["black"]}
    s = Scenario("jump_shot_on_pink", positions=pos)  # 11(a)(x): value of the ball on
    s.strike().infr("jump_shot").hit("pink").rest(white=(2300.0, 1200.0))
    return s.foul(6, 0).score(0, 6, 1, 0, "pink", 0)


@scenario
def in_hand_placed_outside_d() -> Scenario:
    s = Scenario("in_hand_placed_outside_d")  # S3 5(b), 11(a)(v)
    s.place("white", (800.0, 889.0)).strike().hit("red1").rest(white=FAR)
    return s.foul(4, 0).score(0, 4, 1, 0, "red", 15)


@scenario
def several_fouls_highest() -> Scenario:
    # 10(g): first hit Blue (5), Pink pocketed (6), in-off (1 -> 4): 6; snookers needed, no miss
    s = Scenario("several_fouls_highest", positions=three_reds(), scores=(0, 60))
    s.strike().hit("blue").pot("pink", "white").rest()
    return s.foul(6, 0).respot("pink", "pink").score(0, 66, 1, 0, "red", 3)


@scenario
def non_cue_ball_used() -> Scenario:
    s = Scenario("non_cue_ball_used", positions=three_reds(), scores=(0, 60))  # 11(d)(iv)
    s.strike().infr("used_non_cue_ball", ball="pink").rest()
    return s.foul(7, 0).score(0, 67, 1, 0, "red", 3)


# ---- FOUL AND A MISS (S3 Rule 14) -----------------------------------------------------------
@scenario
def miss_clear_path_to_red() -> Scenario:
    s = Scenario("miss_clear_path_to_red")  # 14(c)
    s.place("white", W0).strike().cushion().rest(white=(600.0, 1300.0))
    return s.foul(4, 0, miss=True).score(0, 4, 1, 0, "red", 15)


def _line_position() -> dict[str, tuple[float, float]]:
    return colours_only(white=(1000.0, 1400.0), red1=(2500.0, 1400.0))


@scenario
def three_misses_frame_awarded() -> Scenario:
    # 14(d): full-ball contact available; 2nd miss + replace -> Warning; 3rd -> frame awarded
    s = Scenario("three_misses_frame_awarded", positions=_line_position())
    s.strike().cushion().rest(white=(1100.0, 1600.0))
    s.foul(4, 0, miss=True).score(0, 4, 1, 0, "red", 1)
    s.choice("replace").score(0, 4, 0, 0, "red", 1)
    s.strike().cushion().rest(white=(1100.0, 1600.0))
    s.foul(4, 0, miss=True).score(0, 8, 1, 0, "red", 1)
    s.choice("replace").out("warning", player=0, reason="*").score(0, 8, 0, 0, "red", 1)
    s.strike().cushion().rest(white=(1100.0, 1600.0))
    s.foul(4, 0, miss=True).score(0, 12, 1, 0, "*", 1)
    return s.out("frame_end", winner=1, scores=[0, 12], reason="*")


@scenario
def three_misses_partial_ball_no_award() -> Scenario:
    # Only part of the Red can be hit (Pink 40 mm off the line): 14(c) miss, but 14(d) does not
    # apply, so no Warning and no award.
    pos = _line_position()
    pos["pink"] = (1750.0, 1440.0)
    s = Scenario("three_misses_partial_ball_no_award", positions=pos)
    for k in range(3):
        s.strike().cushion().rest(white=(1000.0, 1000.0))
        s.foul(4, 0, miss=True).score(0, 4 * (k + 1), 1, 0, "red", 1)
        if k < 2:
            s.choice("replace").score(0, 4 * (k + 1), 0, 0, "red", 1)
    return s


@scenario
def snookered_weak_shot_is_a_miss() -> Scenario:
    # Snookered (Blue 60 mm in front), no cushion, no ball reached: not a best attempt (14(a))
    pos = colours_only(white=(2000.0, 1500.0), red1=(3000.0, 1500.0))
    pos["blue"] = (2060.0, 1500.0)
    s = Scenario("snookered_weak_shot_is_a_miss", positions=pos)
    s.strike().rest(white=(1950.0, 1400.0))
    return s.foul(4, 0, miss=True).score(0, 4, 1, 0, "red", 1)


@scenario
def miss_then_replace_restores_reds() -> Scenario:
    # 14(b): all balls replaced, the pocketed Red too (S3 3(i) exception for 14(b))
    s = Scenario("miss_then_replace_restores_reds", positions=three_reds())
    s.strike().hit("blue").pot("red1").rest(white=(1600.0, 1200.0))
    s.foul(5, 0, miss=True).score(0, 5, 1, 0, "red", 2)
    return s.choice("replace").score(0, 5, 0, 0, "red", 3)


@scenario
def foul_play_again() -> Scenario:
    s = Scenario("foul_play_again")  # 10(h)(ii)
    s.place("white", W0).strike().hit("red1").pot("white").rest()
    s.foul(4, 0).score(0, 4, 1, 0, "red", 15)
    return s.choice("play_again").score(0, 4, 0, 0, "red", 15)


# ---- FREE BALL (S3 Rule 12) -------------------------------------------------------------------
def _behind_blue() -> dict[str, tuple[float, float]]:
    pos = colours_only(white=(1000.0, 1000.0), red1=(3000.0, 1500.0))
    pos["blue"] = (2060.0, 1500.0)
    return pos


@scenario
def free_ball_potted_as_red() -> Scenario:
    s = Scenario("free_ball_potted_as_red", positions=_behind_blue())
    s.strike().hit("red1").pot("pink").rest(white=(2000.0, 1500.0))
    s.foul(6, 0).respot("pink", "pink").call("FREE BALL").score(0, 6, 1, 0, "red", 1)
    s.place("pink", SPOT["pink"])
    s.nominate("blue").strike().hit("blue").pot("blue").rest(white=(2100.0, 1300.0))
    return s.respot("blue", "blue").score(0, 7, 1, 1, "colour", 1)  # 12(a)(ii), 12(c)


@scenario
def free_ball_and_red_both_potted() -> Scenario:
    s = Scenario("free_ball_and_red_both_potted", positions=_behind_blue())
    s.strike().hit("red1").pot("pink").rest(white=(2000.0, 1500.0))
    s.foul(6, 0).respot("pink", "pink").call("FREE BALL").score(0, 6, 1, 0, "red", 1)
    s.place("pink", SPOT["pink"])
    s.nominate("blue").strike().hit("blue").pot("blue", "red1").rest(white=(2100.0, 1300.0))
    return s.respot("blue", "blue").score(0, 8, 1, 2, "colour", 0)  # 12(e)


@scenario
def free_ball_snookers_behind_it() -> Scenario:
    s = Scenario("free_ball_snookers_behind_it", positions=_behind_blue())
    s.strike().hit("red1").pot("pink").rest(white=(2000.0, 1500.0))
    s.foul(6, 0).respot("pink", "pink").call("FREE BALL").score(0, 6, 1, 0, "red", 1)
    s.place("pink", SPOT["pink"])
    s.nominate("blue").strike().hit("blue").rest(white=(2240.0, 1500.0), blue=(2300.0, 1500.0))
    # 12(b)(ii), 11(a)(viii): value of the ball on (Red) -> 4; the offender is now snookered too
    return s.foul(4, 1).call("FREE BALL").score(4, 6, 0, 0, "red", 1)


@scenario
def free_ball_pink_black_exception() -> Scenario:
    pos = {"white": (1000.0, 1400.0), "pink": (2000.0, 889.0), "black": SPOT["black"]}
    s = Scenario("free_ball_pink_black_exception", positions=pos)
    s.strike().hit("pink").pot("black").rest(white=(3300.0, 889.0))
    s.foul(7, 0).respot("black", "black").call("FREE BALL").score(0, 7, 1, 0, "pink", 0)
    s.place("black", SPOT["black"])
    s.nominate("black").strike().hit("black").rest(white=(3155.0, 889.0), black=(3100.0, 889.0))
    return s.score(0, 7, 0, 0, "pink", 0)  # 12(b)(ii) exception: Pink and Black only


@scenario
def free_ball_in_the_colours() -> Scenario:
    pos = colours_only(white=(1300.0, 1300.0))
    s = Scenario("free_ball_in_the_colours", positions=pos)
    s.strike().hit("yellow").infr("push_stroke").rest(white=(850.0, 1181.0), brown=(790.0, 1181.0))
    s.foul(4, 0).call("FREE BALL").score(0, 4, 1, 0, "yellow", 0)
    s.nominate("green").strike().hit("green").pot("green").rest(white=(900.0, 500.0))
    return s.respot("green", "green").score(0, 6, 1, 2, "yellow", 0)  # 12(c): value of Yellow


@scenario
def free_ball_not_hit_first() -> Scenario:
    s = Scenario("free_ball_not_hit_first", positions=_behind_blue(), scores=(0, 60))
    s.strike().hit("red1").pot("pink").rest(white=(2000.0, 1500.0))
    s.foul(6, 0).respot("pink", "pink").call("FREE BALL").score(0, 66, 1, 0, "red", 1)
    s.place("pink", SPOT["pink"])
    s.nominate("blue").strike().cushion().hit("black").rest(white=(3100.0, 1100.0))
    return s.foul(7, 1).score(7, 66, 0, 0, "red", 1)  # 12(b)(i), 11(b)(iv): max(1, 7)


# ---- TOUCHING BALL (S3 Rule 8) ----------------------------------------------------------------
def _touching_red() -> Scenario:
    pos = colours_only(white=(1500.0, 1300.0), red1=(2000.0, 1200.0), red2=(2500.0, 600.0))
    s = Scenario("touching", positions=pos)
    s.strike().hit("red2").rest(touching=[["white", "red1"]], white=(1947.5, 1200.0))
    return s.call("TOUCHING BALL", balls=["red1"]).score(0, 0, 1, 0, "red", 2)


@scenario
def touching_red_played_away() -> Scenario:
    s = _touching_red()  # 8(b), 8(c)(i)
    s.strike().cushion().rest(white=(1200.0, 1500.0))
    return s.score(0, 0, 0, 0, "red", 2)


@scenario
def touching_red_moved_is_push() -> Scenario:
    s = _touching_red()  # 8(b): moving the touching ball is a push stroke, 11(b)(v)
    s.strike().cushion().rest(white=(1200.0, 1500.0), red1=(2030.0, 1200.0))
    return s.foul(4, 1).score(4, 0, 0, 0, "red", 2)


@scenario
def touching_colour_on_red_not_called() -> Scenario:
    pos = colours_only(white=(1500.0, 1300.0), red1=(2000.0, 1200.0))
    s = Scenario("touching_colour_on_red_not_called", positions=pos)  # 8(a), 8(d)
    s.strike().hit("red1").rest(touching=[["white", "blue"]], white=(1784.5, 941.5))
    return s.score(0, 0, 1, 0, "red", 1)


@scenario
def touching_colour_after_red() -> Scenario:
    pos = colours_only(white=(1500.0, 1300.0), red1=(2000.0, 1200.0), red2=(2500.0, 600.0))
    s = Scenario("touching_colour_after_red", positions=pos)  # 8(a): could be on
    s.strike().hit("red1").pot("red1").rest(touching=[["white", "blue"]], white=(1784.5, 941.5))
    s.call("TOUCHING BALL", balls=["blue"]).score(1, 0, 0, 1, "colour", 1)
    s.nominate("blue").strike().cushion().rest(white=(1300.0, 1500.0))  # 8(c)(ii)
    return s.score(1, 0, 1, 0, "red", 1)


# ---- re-spotting (S3 Rule 7) -----------------------------------------------------------------
@scenario
def black_to_highest_free_spot() -> Scenario:
    pos = three_reds(red1=(3245.0, 889.0), pink=(2500.0, 1400.0))
    s = Scenario("black_to_highest_free_spot", positions=pos)  # 7(e)
    s.strike().hit("red2").pot("red2").rest(white=(2700.0, 1300.0))
    s.score(1, 0, 0, 1, "colour", 2)
    s.nominate("black").strike().hit("black").pot("black").rest(white=(2900.0, 1300.0))
    return s.respot("black", "pink").score(8, 0, 0, 8, "red", 2)


@scenario
def precedence_black_then_pink() -> Scenario:
    # 7(f): Black first takes the highest free spot (Blue's); Pink then finds all spots occupied
    # and goes towards the Top Cushion from its own spot (7(g)), not touching (7(i)).
    pos = three_reds(red1=(3245.0, 889.0), red2=(2676.75, 889.0), blue=(2000.0, 1600.0))
    s = Scenario("precedence_black_then_pink", positions=pos, scores=(0, 60))
    s.strike().hit("red3").pot("black", "pink").rest(white=(1500.0, 1300.0))
    s.foul(7, 0).respot("black", "blue").respot("pink", None, (2676.75 + 52.5, 889.0))
    return s.score(0, 67, 1, 0, "red", 3)


@scenario
def yellow_all_spots_occupied() -> Scenario:
    pos = three_reds(red1=(737.0, 1181.0))
    del pos["yellow"]
    pos["yellow"] = (3400.0, 1700.0)
    s = Scenario("yellow_all_spots_occupied", positions=pos, scores=(0, 60))
    s.strike().hit("red2").pot("yellow").rest(white=(1500.0, 1300.0))
    return s.foul(4, 0).respot("yellow", None, (737.0 + 52.5, 1181.0)).score(0, 64, 1, 0, "red", 3)


@scenario
def black_no_room_towards_top() -> Scenario:
    reds = {f"red{i + 1}": (3245.0 + 55.0 * i, 889.0) for i in range(6)}
    reds["red6"] = (2000.0, 1300.0)
    reds["red7"] = (3520.0, 889.0)
    pos = colours_only(white=(1500.0, 1000.0), **reds)
    s = Scenario("black_no_room_towards_top", positions=pos, scores=(0, 100))
    s.strike().hit("red6").pot("black").rest(white=(1500.0, 1300.0))
    return s.foul(7, 0).respot("black", None, (3245.0 - 52.5, 889.0)).score(0, 107, 1, 0, "red", 7)


@scenario
def wrong_place_noticed() -> Scenario:
    s = Scenario("wrong_place_noticed")
    s.place("white", W0).strike().hit("red1").pot("red1").rest(white=(2000.0, 1000.0))
    s.score(1, 0, 0, 1, "colour", 14)
    s.strike().hit("black").pot("black").rest(white=(2900.0, 1300.0))
    s.respot("black", "black").score(8, 0, 0, 8, "red", 14)
    s.place("black", (3000.0, 700.0))
    return s.out("notice", message="*", ball="black")


# ---- end of frame (S3 Rule 4, S2 Rule 1) -----------------------------------------------------
@scenario
def final_black_potted() -> Scenario:
    pos = {"white": (2800.0, 1100.0), "black": SPOT["black"]}
    s = Scenario("final_black_potted", positions=pos, scores=(40, 30))
    s.strike().hit("black").pot("black").rest(white=(3000.0, 1200.0))
    return s.score(47, 30, "*", "*", "*", 0).out("frame_end", winner=0, scores=[47, 30], reason="*")


@scenario
def tie_respotted_black() -> Scenario:
    pos = {"white": (2800.0, 1100.0), "black": SPOT["black"]}
    s = Scenario("tie_respotted_black", positions=pos, scores=(30, 23), players=1)
    s.strike().hit("black").pot("black").rest(white=(3000.0, 1200.0))
    s.call("RE-SPOTTED BLACK").respot("black", "black").score(30, 30, "*", 0, "black", 0)
    s.place("white", W0).strike().hit("black").pot("black").rest(white=(3000.0, 1200.0))
    s.score(37, 30, "*", "*", "*", 0).out("frame_end", winner=0, scores=[37, 30], reason="*")
    return s


@scenario
def foul_on_last_black_ends_frame() -> Scenario:
    pos = {"white": (2800.0, 1100.0), "black": SPOT["black"]}
    s = Scenario("foul_on_last_black_ends_frame", positions=pos, scores=(40, 36))
    s.strike().hit("black").pot("white").rest()
    s.foul(7, 0).score(40, 43, "*", "*", "*", 0)
    return s.out("frame_end", winner=1, scores=[40, 43], reason="*")


@scenario
def foul_on_last_black_ties() -> Scenario:
    pos = {"white": (2800.0, 1100.0), "black": SPOT["black"]}
    s = Scenario("foul_on_last_black_ties", positions=pos, scores=(37, 30))
    s.strike().hit("black").pot("white").rest()  # 4(a)(i): scores equal -> re-spotted Black
    # 4(b)(i): the Black is spotted (a respot output, though it never left the table)
    s.foul(7, 0).call("RE-SPOTTED BLACK").respot("black", "black").score(37, 37, "*", 0, "black", 0)
    return s


@scenario
def concession() -> Scenario:
    s = Scenario("concession")  # S2 1(a)
    s.place("white", W0).strike().hit("red1").pot("red1").rest(white=(2000.0, 1000.0))
    s.score(1, 0, 0, 1, "colour", 14)
    s.concede(1)
    return s.out("frame_end", winner=0, scores=[1, 0], reason="*")


# ---- Six Reds (S3 Rule 19) ---------------------------------------------------------------
@scenario
def six_reds_pot() -> Scenario:
    s = Scenario("six_reds_pot", reds=6)
    s.place("white", W0).strike().hit("red1").pot("red1").rest(white=(2000.0, 1000.0))
    return s.score(1, 0, 0, 1, "colour", 5)


@scenario
def six_reds_snookered_behind_nominated() -> Scenario:
    reds = {f"red{i + 2}": (3300.0, 1400.0 + 55.0 * i) for i in range(5)}
    pos = colours_only(white=(1500.0, 1000.0), red1=(2000.0, 1200.0), **reds)
    pos["blue"] = (2500.0, 1300.0)
    s = Scenario("six_reds_snookered_behind_nominated", reds=6, positions=pos)
    s.strike().hit("red1").pot("red1").rest(white=(2000.0, 1500.0))
    s.score(1, 0, 0, 1, "colour", 5)
    s.nominate("blue").strike().hit("blue").rest(white=(2445.0, 1500.0), blue=(2500.0, 1500.0))
    # 19(d), 11(a)(ix): value of the nominated ball on (Blue 5); the next player is snookered
    return s.foul(5, 0).call("FREE BALL").score(1, 5, 1, 0, "red", 5)


# ---- inconsistent logs ------------------------------------------------------------------------
@scenario
def pot_of_ball_already_potted() -> Scenario:
    s = Scenario("pot_of_ball_already_potted")
    s.place("white", W0).strike().hit("red1").pot("red1").rest(white=(2000.0, 1000.0))
    s.score(1, 0, 0, 1, "colour", 14)
    s.strike().hit("black").ev("pot", ball="red1", pocket="top_left")
    s.out("notice", message="*", ball="red1")
    s.rest(white=(2900.0, 1300.0))
    return s.score(1, 0, 1, 0, "red", 14)


@scenario
def stroke_without_rest() -> Scenario:
    s = Scenario("stroke_without_rest")
    s.place("white", W0).strike().hit("red1")
    s.strike()
    s.out("notice", message="*").out("score", scores="*", striker=1, ball_on="red", reds=15)
    return s.hit("red2").rest(white=FAR).out("score", scores="*", striker=0, ball_on="red", reds=15)


@scenario
def ball_vanished_without_pot() -> Scenario:
    s = Scenario("ball_vanished_without_pot")
    s.place("white", W0).strike().hit("red1")
    s.pos.pop("red5")
    s.rest(white=FAR)
    # What the referee assumes is its own choice (kept at its last position, or removed)
    return s.out("notice", message="*", ball="red5").score(0, 0, 1, 0, "red", "*")


# ---- Rule 14 judgement when snookered, and 14(d) full-ball contact on a colour ---------------
@scenario
def snookered_direct_into_obstruction_is_a_miss() -> Scenario:
    # 14(a): played straight into the snookering Blue, no attempt to go round it
    s = Scenario("snookered_direct_into_obstruction_is_a_miss", positions=_behind_blue_close())
    s.strike().hit("blue").rest(white=(1950.0, 1400.0), blue=(2200.0, 1500.0))
    return s.foul(5, 0, miss=True).score(0, 5, 1, 0, "red", 1)


@scenario
def snookered_cushion_escape_not_a_miss() -> Scenario:
    # 14(a)(ii): went round by a cushion and hit a ball not on: FOUL, value of Black
    s = Scenario("snookered_cushion_escape_not_a_miss", positions=_behind_blue_close())
    s.strike().cushion().hit("black").rest(white=(1950.0, 1400.0), black=(3300.0, 700.0))
    return s.foul(7, 0).score(0, 7, 1, 0, "red", 1)


def _behind_blue_close() -> dict[str, tuple[float, float]]:
    pos = colours_only(white=(2000.0, 1500.0), red1=(3000.0, 1500.0))
    pos["blue"] = (2060.0, 1500.0)
    return pos


@scenario
def three_misses_full_ball_on_a_colour() -> Scenario:
    # 14(d): the stroke at Yellow's centre is clear though Brown hides one edge: full-ball
    # contact was available, so the sequence leads to the Warning and the frame award.
    pos = colours_only(white=(1500.0, 1181.0))
    pos["brown"] = (1100.0, 1241.0)
    s = Scenario("three_misses_full_ball_on_a_colour", positions=pos)
    for k in range(3):
        s.strike().cushion().rest(white=(1500.0, 1550.0))
        s.foul(4, 0, miss=True).score(0, 4 * (k + 1), 1, 0, "yellow" if k < 2 else "*", 0)
        if k == 0:
            s.choice("replace").score(0, 4, 0, 0, "yellow", 0)
        elif k == 1:
            s.choice("replace").out("warning", player=0, reason="*").score(0, 8, 0, 0, "yellow", 0)
    return s.out("frame_end", winner=1, scores=[0, 12], reason="*")
