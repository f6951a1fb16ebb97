"""The text-quality figures of bench/text_quality.py: names, definitions, domains and figures
are masked before skeletons are compared, and only a skeleton shared by 5% or more of the
texts of a kind (and by two at least) makes its texts templated."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from text_quality import (  # noqa: E402
    first_lens_variety,
    rejected_as_trivial,
    skeleton,
    template_share,
    template_share_by_kind,
)


def test_skeleton_masks_names_definitions_domains_and_figures():
    a = skeleton(
        "'whale (cetacean)' and 'woman's clothing' meet at 'entity' (\"a thing\"); 3 levels, artifact", ["artifact"]
    )
    b = skeleton("'dog' and 'cat' meet at 'animal' (\"a living organism\"); 12 levels, food and act", ["food", "act"])
    assert a == b == "n and n meet at n (g); # levels, d"


def test_template_share_counts_texts_whose_skeleton_is_common():
    frame = [f"'x{i}' is a kind of 'y{i}'." for i in range(10)]
    varied = [f"'x{i}' " + " ".join(["word"] * i) + "." for i in range(20)]
    assert template_share(frame) == 1.0
    assert template_share(varied[:10]) == 0.0
    assert template_share(frame[:5] + varied[:15]) == 0.25
    overall, per = template_share_by_kind({"connection": frame, "tension": varied[:10]})
    assert per == {"connection": 1.0, "tension": 0.0} and overall == 0.5


def test_trivial_rejections_and_first_lenses():
    crystals = [{"hard_failures": ["trivial: the filling 'food' is ..."]}, {"hard_failures": []}, {}]
    assert rejected_as_trivial(crystals) == 1
    runs = [[{"lens": "loci"}, {"lens": "crystals"}], [{"lens": "compost"}], [{"lens": "loci"}], []]
    assert first_lens_variety(runs) == 2
