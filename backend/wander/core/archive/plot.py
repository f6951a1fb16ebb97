"""The UMAP plot of a wander as a PNG (000 "Standard Plot Encoding"): position from the
projection, colour by domain, size by visits, the path drawn in step order, stars on
crystals, halos round resonance clusters, and a legend. Pillow only, deterministic.

000 asks for two sizes: 1024x1024 (review, vision models; the stored archive image) and
512x512 (a compact summary). Every mark scales with the image. Each of the commonest
domains has a colour of its own (no two share one); the rest are grey, "other" in the
legend. The seed, each crystal (by its filling) and the most visited loci (hubs) are
labelled."""

from __future__ import annotations

import io
import math
from typing import Any

from PIL import Image, ImageDraw, ImageFont

SIZES = (1024, 512)
SIZE = SIZES[0]
BG = (11, 16, 32)
PATH = (139, 152, 179)
STAR = (253, 224, 71)
HALO = (244, 114, 182)
TEXT = (226, 232, 240)
OTHER = (148, 163, 184)  # domains beyond the palette, and loci without one
PALETTE = [  # ten hues told apart on the dark ground, none near the star, halo or grey
    (125, 211, 252),
    (74, 222, 128),
    (251, 146, 60),
    (167, 139, 250),
    (248, 113, 113),
    (45, 212, 191),
    (180, 130, 90),
    (190, 242, 100),
    (59, 130, 246),
    (217, 70, 239),
]
HUBS = 3  # the most visited loci that get a label


def domain_colours(loci: list[dict[str, Any]]) -> dict[str, tuple[int, int, int]]:
    """A distinct palette colour for each of the commonest primary domains (commonest first,
    ties by name); a domain not listed is drawn in OTHER."""
    counts: dict[str, int] = {}
    for lo in loci:
        dom = (lo.get("domains") or [None])[0]
        if dom:
            counts[dom] = counts.get(dom, 0) + 1
    ranked = sorted(counts, key=lambda k: (-counts[k], k))
    return dict(zip(ranked, PALETTE))


def marker_radius(visits: int, scale: float) -> float:
    """Size by visits: a locus seen but never visited is the smallest ring."""
    return scale * (4 + min(12.0, 3.0 * math.sqrt(max(visits, 0))))


def _star(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    pts = []
    for i in range(10):
        a = -math.pi / 2 + i * math.pi / 5
        rr = r if i % 2 == 0 else r * 0.45
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return pts


def layout(points: dict[str, list[float]], size: int) -> tuple[float, Any]:
    """(scale, at): the marks' scale for this size and where a locus id is drawn (None if unplaced)."""
    margin = round(size * 0.07)
    inner = size - 2 * margin

    def at(locus_id: str | None) -> tuple[float, float] | None:
        p = points.get(locus_id or "")
        if p is None:
            return None
        return margin + (p[0] + 1) / 2 * inner, margin + (1 - (p[1] + 1) / 2) * inner

    return size / SIZE, at


def crystal_locus(c: dict[str, Any], points: dict[str, list[float]]) -> str | None:
    """Where a crystal's star goes: its first placed bread, else its source locus."""
    for lid in (c.get("bread_a_locus_id"), c.get("bread_b_locus_id"), c.get("source_locus_id")):
        if lid and lid in points:
            return lid
    return None


def hubs(loci: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The most visited loci (at least twice), most visited first."""
    visited = [lo for lo in loci if (lo.get("visit_count") or 0) >= 2 and lo.get("source_type") != "SEED"]
    return sorted(visited, key=lambda lo: (-(lo.get("visit_count") or 0), lo["concept"]))[:HUBS]


def render_png(rows: dict[str, Any], points: dict[str, list[float]], size: int = SIZE) -> bytes:
    if size not in SIZES:
        raise ValueError(f"size must be one of {SIZES}")
    img = Image.new("RGB", (size, size), BG)
    d = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=max(10, round(13 * size / SIZE)))
    scale, at = layout(points, size)
    colours = domain_colours(rows["loci"])
    loci = {lo["id"]: lo for lo in rows["loci"]}
    _draw_halos(d, rows, at, scale)
    path_width = max(1, round(1.5 * scale))
    for t in sorted(rows["traces"], key=lambda t: t["step_number"]):
        a, b = at(t["from_locus_id"]), at(t["to_locus_id"])
        if a and b:
            d.line([a, b], fill=PATH, width=path_width)
    for lid, lo in loci.items():
        p = at(lid)
        if p is None:
            continue
        r = marker_radius(lo.get("visit_count") or 0, scale)
        fill = colours.get((lo.get("domains") or [None])[0] or "", OTHER)
        d.ellipse([p[0] - r, p[1] - r, p[0] + r, p[1] + r], fill=fill if lo.get("visit_count") else None, outline=fill)
    labels = _draw_crystals(d, rows, points, at, scale) + _locus_labels(rows, loci, at)
    for p, text, fill in labels:
        _label(d, font, (p[0] + 12 * scale, p[1] - 6 * scale), text[:32], fill, size)
    s = rows["session"]
    d.text(
        (12 * scale, 10 * scale),
        f"{s['name'][:70]}  ({s['step_count']} steps, {len(loci)} loci, {len(rows['crystals'])} crystals)",
        fill=TEXT,
        font=font,
    )
    _legend(d, font, rows, colours, size, scale)
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def _draw_halos(d: ImageDraw.ImageDraw, rows: dict[str, Any], at: Any, scale: float) -> None:
    """Halos round the loci each confirmed resonance's residues arrived at."""
    residue_to = {r["id"]: r["to_locus_id"] for r in rows["residues"]}
    halo = 18 * scale
    for res in rows["resonances"]:
        if res["status"] != "confirmed":
            continue
        for rid in res.get("supporting_residue_ids") or []:
            p = at(residue_to.get(rid))
            if p:
                d.ellipse(
                    [p[0] - halo, p[1] - halo, p[0] + halo, p[1] + halo], outline=HALO, width=max(1, round(scale))
                )


Label = tuple[tuple[float, float], str, Any]  # where, what, in which colour


def _draw_crystals(
    d: ImageDraw.ImageDraw, rows: dict[str, Any], points: dict[str, list[float]], at: Any, scale: float
) -> list[Label]:
    """A star on each placed crystal; returns their labels (by filling)."""
    labels: list[Label] = []
    for c in rows["crystals"]:
        p = at(crystal_locus(c, points))
        if p:
            d.polygon(_star(p[0], p[1], 11 * scale), fill=STAR)
            name = (c.get("validity") or {}).get("filling") or c.get("insight") or "crystal"
            labels.append((p, f"* {name}", STAR))
    return labels


def _locus_labels(rows: dict[str, Any], loci: dict[str, dict[str, Any]], at: Any) -> list[Label]:
    """The seed's label, then the hubs' (with their visits)."""
    labels: list[Label] = []
    for lo in loci.values():
        if lo.get("source_type") == "SEED" and lo.get("visit_count"):
            p = at(lo["id"])
            if p:
                labels.append((p, f"seed: {lo['concept']}", TEXT))
    for lo in hubs(rows["loci"]):
        p = at(lo["id"])
        if p:
            labels.append((p, f"{lo['concept']} ({lo['visit_count']}x)", TEXT))
    return labels


def _label(d: ImageDraw.ImageDraw, font: Any, at: tuple[float, float], text: str, fill: Any, size: int) -> None:
    """A label right of its point, or left of it when it would run off the image."""
    width = d.textlength(text, font=font)
    x = at[0] if at[0] + width < size - 4 else at[0] - width - 24 * size / SIZE
    d.text((x, at[1]), text, fill=fill, font=font)


def legend_entries(rows: dict[str, Any], colours: dict[str, tuple[int, int, int]]) -> list[tuple[str, Any]]:
    """(label, colour or mark) in legend order: the coloured domains, 'other' when some loci
    are grey, then the path, crystal and resonance marks."""
    entries: list[tuple[str, Any]] = list(colours.items())
    if any((lo.get("domains") or [None])[0] not in colours for lo in rows["loci"]):
        entries.append(("other", OTHER))
    return entries + [("path", "line"), ("crystal", "star"), ("resonance", "halo")]


def _legend(
    d: ImageDraw.ImageDraw, font: Any, rows: dict[str, Any], colours: dict[str, Any], size: int, scale: float
) -> None:
    """Two rows at the foot of the image when the entries do not fit one."""
    box = 11 * scale
    x, y = 12 * scale, size - 42 * scale
    for label, mark in legend_entries(rows, colours):
        width = box + 8 * scale + d.textlength(label[:18], font=font) + 14 * scale
        if x + width > size - 8:
            x, y = 12 * scale, y + 20 * scale
        if mark == "line":
            d.line([(x, y + box / 2), (x + box + 4 * scale, y + box / 2)], fill=PATH, width=max(2, round(2 * scale)))
        elif mark == "star":
            d.polygon(_star(x + box / 2, y + box / 2, box / 2 + 1), fill=STAR)
        elif mark == "halo":
            d.ellipse([x, y, x + box, y + box], outline=HALO, width=max(1, round(scale)))
        else:
            d.rectangle([x, y, x + box, y + box], fill=mark)
        d.text((x + box + 6 * scale, y - 1), label[:18], fill=TEXT, font=font)
        x += width
