"""The HTML match report: built from the two logs alone, self-contained."""

from __future__ import annotations

from html.parser import HTMLParser

from vision.report import render_report, strokes_from_logs

INPUTS = [
    {"type": "frame_start", "t": 0.0, "players": ["Ann", "Bob"], "striker": 0},
    {"type": "strike", "t": 1.0},
    {"type": "collision", "t": 1.4, "balls": ["white", "red3"]},
    {"type": "pot", "t": 2.0, "ball": "red3", "pocket": "top_left"},
    {"type": "rest", "t": 4.0, "positions": {"white": [900.0, 800.0], "black": [3245.0, 889.0]}},
    {"type": "strike", "t": 6.0},
    {"type": "collision", "t": 6.5, "balls": ["white", "blue"]},
    {"type": "rest", "t": 8.0, "positions": {"white": [1200.0, 300.0], "black": [3245.0, 889.0]}},
]
OUTPUTS = [
    {"type": "score", "t": 4.0, "scores": [1, 0], "striker": 0, "break": 1, "ball_on": "colour", "reds": 14},
    {
        "type": "call",
        "t": 8.0,
        "call": "FOUL",
        "penalty": 5,
        "reason": "wrong_ball_first",
        "offender": 0,
        "awarded_to": 1,
    },
    {"type": "score", "t": 8.0, "scores": [1, 5], "striker": 1, "break": 0, "ball_on": "red", "reds": 14},
]


class _Counter(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: dict[str, int] = {}
        self.external: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags[tag] = self.tags.get(tag, 0) + 1
        for name, value in attrs:
            if name in ("src",) or (name == "href" and value and value.startswith("http")):
                self.external.append(f"{tag} {name}={value}")


def test_strokes_pair_inputs_and_calls() -> None:
    rows = strokes_from_logs(INPUTS, OUTPUTS)
    assert [r.first_contact for r in rows] == ["red3", "blue"]
    assert rows[0].pots == ["red3 (top left)"] and rows[0].points == 1
    assert rows[1].calls == ["FOUL 5 (wrong ball first)"] and rows[1].scores == (1, 5)
    assert rows[1].ball_on == "colour"


def test_report_is_self_contained_with_tables_and_plots() -> None:
    page = render_report(INPUTS, OUTPUTS)
    parser = _Counter()
    parser.feed(page)
    assert parser.external == []
    assert parser.tags["table"] >= 2 and parser.tags["svg"] >= 2
    assert "FOUL 5" in page and "annotated.mp4#t=8.00" in page
