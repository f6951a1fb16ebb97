"""The text-quality figures of bench/text_quality.py: names, definitions, domains and figures
are masked before skeletons are compared, and only a skeleton shared by 5% or more of the
texts of a kind (and by two at least) makes its texts templated."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from text_quality import (  # noqa: E402
    first_lens_variety,
    most_alike_in_a_row,
    most_common_clause,
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


def test_most_alike_in_a_row_counts_openings_within_ten_consecutive_texts():
    alike = [f"'a{i}' and 'b{i}' lie a middle distance apart, and 'm{i}' stands between." for i in range(4)]
    other = [f"Seen from '{i}', the step {w} on." for i, w in enumerate("goes runs walks moves hops leaps".split())]
    # four alike among ten in a row
    assert most_alike_in_a_row(alike + other)[0] == 4
    assert most_alike_in_a_row(alike + other)[1] == "n and n lie a middle"
    # the same four spread so that no ten in a row hold more than two
    spread = [
        alike[0],
        *other[:3],
        alike[1],
        *other[3:],
        "x.",
        "y.",
        "z.",
        alike[2],
        "u.",
        "v.",
        "w.",
        "t.",
        "s.",
        "r.",
        alike[3],
    ]
    assert most_alike_in_a_row(spread)[0] == 2
    # a second sentence that opens alike counts only when every sentence is read
    seconds = [f"{t} 'q{i}' lies evenly between them." for i, t in enumerate(other)]
    assert most_alike_in_a_row(seconds)[0] == 1
    assert most_alike_in_a_row(seconds, every_sentence=True)[0] == 6


def test_the_most_common_clause_is_counted_wherever_it_stands_once_a_text():
    texts = [
        "'a' lies near 'b'; a candidate filling.",
        "Set against 'c', 'd' leans away: a candidate filling; a candidate filling.",
        "A candidate filling: 'e'.",
        "'f' is far.",
    ]
    assert most_common_clause(texts) == (0.75, "a candidate filling")
    assert most_common_clause([]) == (0.0, "")
