"""The archive plot's encodings (000 "Standard Plot Encoding"), read back from the pixels of
a constructed wander at both of 000's sizes: the path's polyline, a star at each crystal's
locus, halos round a confirmed resonance's loci, marker sizes ordered by visits, a legend
with a distinct colour per domain, and labels for the seed, the crystals and the hubs."""

from __future__ import annotations

import io
import math

import pytest
from PIL import Image

from wander.core.archive import plot
from wander.core.archive.plot import HALO, OTHER, PATH, STAR, TEXT, domain_colours, layout, render_png

# id: (x, y, primary domain, visits, source)
LOCI = {
    "S": (-0.8, -0.7, "artifact", 1, "SEED"),
    "A": (0.55, -0.75, "artifact", 1, "DISTANCE_BAND"),
    "B": (0.65, 0.35, "food", 4, "DISTANCE_BAND"),
    "C": (-0.55, 0.45, "plant", 9, "BRIDGE"),
    "E": (0.0, -0.05, "animal", 1, "ANALOGY"),
    "U": (-0.1, 0.75, "body", 0, "DISTANCE_BAND"),
}
STEPS = [("S", "A"), ("A", "B"), ("B", "C"), ("C", "E")]


def rows() -> dict:
    loci = [
        {"id": k, "concept": f"concept {k}", "domains": [dom], "visit_count": v, "source_type": src}
        for k, (_, _, dom, v, src) in LOCI.items()
    ]
    traces = [
        {"id": f"t{i}", "step_number": i, "from_locus_id": a, "to_locus_id": b} for i, (a, b) in enumerate(STEPS, 1)
    ]
    residues = [{"id": f"r{i}", "trace_id": f"t{i}", "to_locus_id": b} for i, (_, b) in enumerate(STEPS, 1)]
    return {
        "session": {"name": "constructed", "step_count": len(STEPS)},
        "loci": loci,
        "traces": traces,
        "residues": residues,
        # confirmed: its residues reached B and C; the candidate one (reached A) has no halo
        "resonances": [
            {"status": "confirmed", "supporting_residue_ids": ["r2", "r3"]},
            {"status": "candidate", "supporting_residue_ids": ["r1"]},
        ],
        "crystals": [
            {"bread_a_locus_id": "E", "bread_b_locus_id": "C", "validity": {"filling": "glue"}, "insight": "x"},
        ],
    }


POINTS = {k: [x, y] for k, (x, y, *_) in LOCI.items()}


@pytest.fixture(params=plot.SIZES)
def drawn(request):
    size = request.param
    img = Image.open(io.BytesIO(render_png(rows(), POINTS, size))).convert("RGB")
    scale, at = layout(POINTS, size)
    return img, size, scale, at


def px(img, p) -> tuple[int, int, int]:
    return img.getpixel((round(p[0]), round(p[1])))


def count(img, box, colour) -> int:
    x0, y0, x1, y1 = (round(v) for v in box)
    return sum(img.getpixel((x, y)) == colour for x in range(x0, x1) for y in range(y0, y1))


def test_the_image_has_the_size_asked_for(drawn):
    img, size, _, _ = drawn
    assert img.size == (size, size)
    with pytest.raises(ValueError):
        render_png(rows(), POINTS, 768)


def test_the_path_is_a_polyline_through_the_steps_in_order(drawn):
    img, _, _, at = drawn
    for a, b in STEPS:
        pa, pb = at(a), at(b)
        for f in (0.35, 0.5, 0.65):
            mid = (pa[0] + f * (pb[0] - pa[0]), pa[1] + f * (pb[1] - pa[1]))
            near = [px(img, (mid[0] + dx, mid[1] + dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
            assert PATH in near, (a, b, f)
    # no segment between loci that were not consecutive steps: S to C
    pa, pc = at("S"), at("C")
    mid = ((pa[0] + pc[0]) / 2, (pa[1] + pc[1]) / 2)
    assert PATH not in [px(img, (mid[0] + dx, mid[1] + dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]


def test_a_star_marks_each_crystal_and_nothing_else(drawn):
    img, _, scale, at = drawn
    assert px(img, at("E")) == STAR
    star_box = 10 * scale
    for k in ("S", "A", "B", "C", "U"):
        p = at(k)
        assert count(img, (p[0] - star_box, p[1] - star_box, p[0] + star_box, p[1] + star_box), STAR) == 0, k


def test_halos_ring_the_confirmed_resonance_loci_only(drawn):
    img, _, scale, at = drawn
    r = 18 * scale

    def ring(k: str) -> int:
        p = at(k)
        hits = 0
        for i in range(72):
            a = 2 * math.pi * i / 72
            around = [px(img, (p[0] + (r + dr) * math.cos(a), p[1] + (r + dr) * math.sin(a))) for dr in (-1, 0, 1)]
            hits += HALO in around
        return hits

    assert ring("B") > 40 and ring("C") > 40
    assert ring("A") == 0 and ring("S") == 0


def test_marker_sizes_follow_visits(drawn):
    img, _, scale, at = drawn
    colours = domain_colours(rows()["loci"])

    def area(k: str) -> int:
        p, colour = at(k), colours[LOCI[k][2]]
        half = 20 * scale
        return count(img, (p[0] - half, p[1] - half, p[0] + half, p[1] + half), colour)

    # C (9 visits) > B (4) > A (1); the unvisited U is a ring, not a disc
    assert area("C") > area("B") > area("A") > area("U") > 0
    assert px(img, at("U")) != colours["body"]


def test_the_legend_gives_each_domain_a_colour_of_its_own(drawn):
    img, size, scale, _ = drawn
    colours = domain_colours(rows()["loci"])
    assert set(colours) == {"artifact", "food", "plant", "animal", "body"}
    assert len(set(colours.values())) == len(colours) and OTHER not in colours.values()
    foot = (0, size - 50 * scale, size, size)
    for dom, colour in colours.items():
        assert count(img, foot, colour) >= 9, dom  # its swatch
    assert count(img, foot, STAR) > 0 and count(img, foot, HALO) > 0 and count(img, foot, PATH) > 0


def test_domains_beyond_the_palette_are_grey_and_the_rest_distinct():
    loci = [{"domains": [f"d{i:02d}"]} for i in range(14) for _ in range(14 - i)]
    colours = domain_colours(loci)
    assert list(colours) == [f"d{i:02d}" for i in range(10)]  # commonest first
    assert len(set(colours.values())) == 10
    assert "other" in [label for label, _ in plot.legend_entries({"loci": loci}, colours)]


def test_the_seed_the_crystals_and_the_hubs_are_labelled(drawn):
    img, _, scale, at = drawn

    def label_pixels(k: str, colour) -> int:
        """Pixels of the label's colour (text is anti-aliased: within a small distance of it)."""
        p = at(k)
        x0, y0, x1, y1 = (
            round(v) for v in (p[0] + 10 * scale, p[1] - 8 * scale, p[0] + 150 * scale, p[1] + 12 * scale)
        )
        return sum(math.dist(img.getpixel((x, y)), colour) < 30 for x in range(x0, x1) for y in range(y0, y1))

    assert label_pixels("S", TEXT) > 10  # the seed
    assert label_pixels("C", TEXT) > 10 and label_pixels("B", TEXT) > 10  # the hubs (9 and 4 visits)
    assert label_pixels("E", STAR) > 10  # the crystal, named by its filling
    assert label_pixels("A", TEXT) == 0  # visited once, no crystal: unlabelled
    assert [lo["id"] for lo in plot.hubs(rows()["loci"])] == ["C", "B"]
