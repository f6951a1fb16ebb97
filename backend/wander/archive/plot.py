"""The UMAP plot of a wander as a PNG (000 "Standard Plot Encoding"): position from the
projection, colour by domain, size by visits, the path drawn in step order, stars on
crystals, halos round resonance clusters, and a legend. Pillow only, deterministic."""

from __future__ import annotations

import hashlib
import io
import math
from typing import Any

from PIL import Image, ImageDraw, ImageFont

SIZE = 768
MARGIN = 56
BG = (11, 16, 32)
PATH = (139, 152, 179)
STAR = (253, 224, 71)
HALO = (244, 114, 182)
TEXT = (226, 232, 240)
PALETTE = [
    (125, 211, 252),
    (134, 239, 172),
    (251, 146, 60),
    (196, 181, 253),
    (248, 113, 113),
    (45, 212, 191),
    (250, 204, 21),
    (244, 114, 182),
    (163, 230, 53),
    (147, 197, 253),
]


def domain_colour(domain: str | None) -> tuple[int, int, int]:
    if not domain:
        return (148, 163, 184)
    return PALETTE[int(hashlib.sha1(domain.encode()).hexdigest(), 16) % len(PALETTE)]


def _star(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    pts = []
    for i in range(10):
        a = -math.pi / 2 + i * math.pi / 5
        rr = r if i % 2 == 0 else r * 0.45
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return pts


def render_png(rows: dict[str, Any], points: dict[str, list[float]], size: int = SIZE) -> bytes:
    img = Image.new("RGB", (size, size), BG)
    d = ImageDraw.Draw(img)
    font = ImageFont.load_default()
    inner = size - 2 * MARGIN

    def at(locus_id: str | None) -> tuple[float, float] | None:
        p = points.get(locus_id or "")
        if p is None:
            return None
        return MARGIN + (p[0] + 1) / 2 * inner, MARGIN + (1 - (p[1] + 1) / 2) * inner

    loci = {lo["id"]: lo for lo in rows["loci"]}
    traces = sorted(rows["traces"], key=lambda t: t["step_number"])
    # halos: the loci each confirmed resonance's residues arrived at
    residue_to = {r["id"]: r["to_locus_id"] for r in rows["residues"]}
    for res in rows["resonances"]:
        if res["status"] != "confirmed":
            continue
        for rid in res.get("supporting_residue_ids") or []:
            p = at(residue_to.get(rid))
            if p:
                d.ellipse([p[0] - 16, p[1] - 16, p[0] + 16, p[1] + 16], outline=HALO, width=1)
    for t in traces:
        a, b = at(t["from_locus_id"]), at(t["to_locus_id"])
        if a and b:
            d.line([a, b], fill=PATH, width=1)
    for lid, lo in loci.items():
        p = at(lid)
        if p is None:
            continue
        r = 3 + min(9, 2.2 * math.sqrt(max(lo.get("visit_count") or 0, 0)))
        fill = domain_colour((lo.get("domains") or [None])[0])
        d.ellipse([p[0] - r, p[1] - r, p[0] + r, p[1] + r], fill=fill if lo.get("visit_count") else None, outline=fill)
        if lo.get("source_type") == "SEED":
            _label(d, font, (p[0] + r + 3, p[1] - 6), lo["concept"][:28], TEXT, size)
    for c in rows["crystals"]:
        for lid in (c.get("bread_a_locus_id"), c.get("bread_b_locus_id"), c.get("source_locus_id")):
            p = at(lid)
            if p:
                d.polygon(_star(p[0], p[1], 9), fill=STAR)
                break
    if traces:
        p = at(traces[-1]["to_locus_id"])
        if p:
            _label(
                d,
                font,
                (p[0] + 8, p[1] + 4),
                loci.get(traces[-1]["to_locus_id"], {}).get("concept", "")[:28],
                STAR,
                size,
            )
    s = rows["session"]
    d.text(
        (12, 10),
        f"{s['name'][:70]}  ({s['step_count']} steps, {len(loci)} loci, {len(rows['crystals'])} crystals)",
        fill=TEXT,
        font=font,
    )
    _legend(d, font, rows, size)
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def _label(d: ImageDraw.ImageDraw, font: Any, at: tuple[float, float], text: str, fill: Any, size: int) -> None:
    """A label right of its point, or left of it when it would run off the image."""
    width = d.textlength(text, font=font)
    x = at[0] if at[0] + width < size - 4 else at[0] - width - 24
    d.text((x, at[1]), text, fill=fill, font=font)


def _legend(d: ImageDraw.ImageDraw, font: Any, rows: dict[str, Any], size: int) -> None:
    counts: dict[str, int] = {}
    for lo in rows["loci"]:
        dom = (lo.get("domains") or ["(none)"])[0]
        counts[dom] = counts.get(dom, 0) + 1
    top = sorted(counts, key=lambda k: (-counts[k], k))[:6]
    y = size - 20
    x = 12
    entries: list[tuple[str, Any]] = [(dom, domain_colour(None if dom == "(none)" else dom)) for dom in top]
    entries += [("path", "line"), ("crystal", "star"), ("resonance", "halo")]
    for label, mark in entries:
        if mark == "line":
            d.line([(x, y + 5), (x + 14, y + 5)], fill=PATH, width=2)
        elif mark == "star":
            d.polygon(_star(x + 6, y + 5, 6), fill=STAR)
        elif mark == "halo":
            d.ellipse([x, y - 1, x + 12, y + 11], outline=HALO)
        else:
            d.ellipse([x, y, x + 10, y + 10], fill=mark)
        d.text((x + 17, y - 1), label[:16], fill=TEXT, font=font)
        x += 24 + 6 * min(len(label), 16)
