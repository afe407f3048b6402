"""The match report: one self-contained HTML file from the event log and the referee's calls.

Everything is inline (CSS and SVG, no scripts, fonts or images fetched), so the page opens
offline and in a headless browser. The report is built only from the two logs of the
contract, which means it can be produced for any log, live or replayed, and that what it
shows is exactly what the referee decided.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from calibration.table import TABLE, Colour, colour_of

BALL_FILL: dict[Colour, str] = {
    Colour.WHITE: "#f4f4ef",
    Colour.RED: "#c8141e",
    Colour.YELLOW: "#f2d22e",
    Colour.GREEN: "#1d7a3a",
    Colour.BROWN: "#7a4a22",
    Colour.BLUE: "#1f4fc4",
    Colour.PINK: "#f08cb4",
    Colour.BLACK: "#111111",
}


@dataclass
class StrokeRow:
    """One stroke as the report shows it."""

    index: int
    t: float
    striker: int
    ball_on: str
    first_contact: str = "-"
    pots: list[str] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)
    points: int = 0
    scores: tuple[int, int] = (0, 0)
    positions: Mapping[str, Sequence[float]] = field(default_factory=dict)


def strokes_from_logs(
    inputs: Sequence[Mapping[str, Any]], outputs: Sequence[Mapping[str, Any]]
) -> list[StrokeRow]:
    """Pair every ``strike`` with its contacts, pots, rest and the outputs up to the next one."""
    strikes = [e for e in inputs if e["type"] == "strike"]
    striker, ball_on, scores = 0, "red", (0, 0)
    for e in inputs:
        if e["type"] == "frame_start":
            striker = int(e["striker"])
            scores = (int(e.get("scores", [0, 0])[0]), int(e.get("scores", [0, 0])[1]))
            break
    rows: list[StrokeRow] = []
    for i, strike in enumerate(strikes):
        t0 = float(strike["t"])
        t1 = float(strikes[i + 1]["t"]) if i + 1 < len(strikes) else float("inf")
        row = StrokeRow(index=i + 1, t=t0, striker=striker, ball_on=ball_on, scores=scores)
        for e in inputs:
            t = float(e["t"])
            if not t0 <= t < t1:
                continue
            if e["type"] == "collision" and row.first_contact == "-" and "white" in e["balls"]:
                row.first_contact = next(b for b in e["balls"] if b != "white")
            elif e["type"] == "pot":
                row.pots.append(f"{e['ball']} ({e['pocket'].replace('_', ' ')})")
            elif e["type"] == "rest" and not row.positions:
                row.positions = e["positions"]
        for o in outputs:
            if not t0 <= float(o["t"]) < t1:
                continue
            if o["type"] == "call":
                row.calls.append(_call_text(o))
            elif o["type"] == "score":
                new = (int(o["scores"][0]), int(o["scores"][1]))
                row.points = new[striker] - scores[striker]
                scores = new
                striker, ball_on = int(o["striker"]), str(o["ball_on"])
        row.scores = scores
        rows.append(row)
    return rows


def _call_text(o: Mapping[str, Any]) -> str:
    text = str(o["call"])
    if "penalty" in o:
        text += f" {o['penalty']}"
    if "reason" in o:
        text += f" ({str(o['reason']).replace('_', ' ')})"
    return text


def table_svg(positions: Mapping[str, Sequence[float]], width: int = 360) -> str:
    """A top view of the table (baulk at the left) with the balls at ``positions``."""
    s = width / TABLE.length
    h = TABLE.width * s
    r = max(TABLE.ball_radius * s, 2.0)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{h:.0f}" '
        f'viewBox="0 0 {width} {h:.1f}" role="img">',
        f'<rect width="{width}" height="{h:.1f}" fill="#1f6b35" stroke="#5a3a1c" stroke-width="4"/>',
        f'<line x1="{TABLE.baulk_line * s:.1f}" y1="0" x2="{TABLE.baulk_line * s:.1f}" y2="{h:.1f}" '
        'stroke="#e8e8e8" stroke-width="0.8"/>',
    ]
    cx, cy = TABLE.d_centre
    rd = TABLE.d_radius * s

    def ys(y: float) -> float:  # y grows upwards on the table, downwards in SVG
        return h - y * s

    parts.append(
        f'<path d="M {cx * s:.1f} {ys(cy - TABLE.d_radius):.1f} A {rd:.1f} {rd:.1f} 0 0 1 '
        f'{cx * s:.1f} {ys(cy + TABLE.d_radius):.1f}" fill="none" stroke="#e8e8e8" stroke-width="0.8"/>'
    )
    for p in TABLE.pockets.values():
        px, py = p.corner
        parts.append(f'<circle cx="{px * s:.1f}" cy="{ys(py):.1f}" r="{r * 1.6:.1f}" fill="#0b0b0b"/>')
    for ball, (x, y) in positions.items():
        fill = BALL_FILL[colour_of(ball)]
        parts.append(
            f'<circle cx="{x * s:.1f}" cy="{ys(y):.1f}" r="{r:.1f}" fill="{fill}" stroke="#000" '
            f'stroke-width="0.4"><title>{html.escape(ball)}</title></circle>'
        )
    parts.append("</svg>")
    return "".join(parts)


def score_svg(rows: Sequence[StrokeRow], players: Sequence[str], width: int = 720, height: int = 200) -> str:
    """Score progression of both players over the strokes, as an inline SVG line chart."""
    if not rows:
        return "<p>No strokes.</p>"
    top = max(max(r.scores) for r in rows) or 1
    n = len(rows)
    colours = ("#1f77b4", "#d62728")
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img">']
    for p in (0, 1):
        pts = [(0.0, height - 20.0)] + [
            (width * (i + 1) / n, height - 20 - (height - 40) * r.scores[p] / top) for i, r in enumerate(rows)
        ]
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
        parts.append(f'<polyline points="{path}" fill="none" stroke="{colours[p]}" stroke-width="2"/>')
        name = html.escape(players[p])
        parts.append(f'<text x="8" y="{16 + 16 * p}" fill="{colours[p]}" font-size="13">{name}</text>')
    parts.append("</svg>")
    return "".join(parts)


def render_report(
    inputs: Sequence[Mapping[str, Any]],
    outputs: Sequence[Mapping[str, Any]],
    video: str | None = "annotated.mp4",
    title: str = "Baulkline match report",
) -> str:
    """The whole report page as one HTML string."""
    start = next((e for e in inputs if e["type"] == "frame_start"), None)
    players = list(start["players"]) if start else ["Player A", "Player B"]
    rows = strokes_from_logs(inputs, outputs)
    calls = [o for o in outputs if o["type"] == "call"]
    end = next((o for o in outputs if o["type"] == "frame_end"), None)
    esc = html.escape

    def when(t: float) -> str:
        label = f"{int(t // 60)}:{t % 60:05.2f}"
        return f'<a href="{esc(video)}#t={t:.2f}">{label}</a>' if video else label

    body = [f"<h1>{esc(title)}</h1>"]
    if end is not None:
        winner = end.get("winner")
        who = esc(players[winner]) if winner in (0, 1) else "nobody"
        body.append(
            f"<p class=result>Frame won by <b>{who}</b> {end['scores'][0]}-{end['scores'][1]} "
            f"({esc(str(end['reason']))})</p>"
        )
    body.append("<h2>Score progression</h2>" + score_svg(rows, players))
    body.append(_summary(rows, players))
    body.append(
        "<h2>Strokes</h2><table><tr><th>#</th><th>time</th><th>striker</th><th>ball on</th>"
        "<th>first contact</th><th>pots</th><th>call</th><th>points</th><th>score</th></tr>"
    )
    for r in rows:
        body.append(
            f"<tr><td>{r.index}</td><td>{when(r.t)}</td><td>{esc(players[r.striker])}</td>"
            f"<td>{esc(r.ball_on)}</td><td>{esc(r.first_contact)}</td>"
            f"<td>{esc(', '.join(r.pots)) or '-'}</td>"
            f"<td>{esc('; '.join(r.calls)) or '-'}</td><td>{r.points:+d}</td>"
            f"<td>{r.scores[0]}-{r.scores[1]}</td></tr>"
        )
    body.append("</table>")
    body.append("<h2>Calls</h2>")
    if not calls:
        body.append("<p>No calls.</p>")
    for c in calls:
        row = next((r for r in reversed(rows) if r.t <= float(c["t"])), None)
        pos = row.positions if row else {}
        body.append(
            f"<div class=call><h3>{when(float(c['t']))} &mdash; {esc(_call_text(c))}</h3>"
            f"{table_svg(pos)}</div>"
        )
    style = (
        "body{font-family:sans-serif;margin:2em;color:#222}table{border-collapse:collapse}"
        "td,th{border:1px solid #bbb;padding:3px 8px;font-size:13px}th{background:#eee}"
        ".call{display:inline-block;margin:8px;vertical-align:top}.call h3{font-size:14px}"
    )
    return (
        f"<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>{esc(title)}</title>"
        f"<style>{style}</style></head><body>{''.join(body)}</body></html>\n"
    )


def _summary(rows: Sequence[StrokeRow], players: Sequence[str]) -> str:
    breaks: list[tuple[int, int]] = []  # (player, points)
    current: tuple[int, int] | None = None
    fouls = [0, 0]
    for r in rows:
        if any(c.startswith("FOUL") for c in r.calls):
            fouls[r.striker] += 1
        if r.points > 0 and not any(c.startswith("FOUL") for c in r.calls):
            if current and current[0] == r.striker:
                current = (r.striker, current[1] + r.points)
            else:
                if current:
                    breaks.append(current)
                current = (r.striker, r.points)
        else:
            if current:
                breaks.append(current)
            current = None
    if current:
        breaks.append(current)
    esc = html.escape
    out = [
        "<h2>Breaks and fouls</h2><table><tr><th>player</th><th>highest break</th>"
        "<th>breaks</th><th>fouls</th></tr>"
    ]
    for p in (0, 1):
        mine = [b for q, b in breaks if q == p]
        out.append(
            f"<tr><td>{esc(players[p])}</td><td>{max(mine, default=0)}</td>"
            f"<td>{esc(', '.join(map(str, mine))) or '-'}</td><td>{fouls[p]}</td></tr>"
        )
    out.append("</table>")
    return "".join(out)
