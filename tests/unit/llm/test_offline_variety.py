"""Which true text opens a facet: the first the facts rank whose sentences did not open as
three of the wander's last nine steps did (those steps' words come with the step)."""

from collections import Counter
from types import SimpleNamespace

from wander.adapters.llm.offline_facets.clauses import arrangements
from wander.adapters.llm.offline_facets.history import recurring
from wander.adapters.llm.offline_facets.variety import LIMIT, WINDOW, Masker, choose, used_openings

MASK = Masker(["acts", "artifacts"])


def test_an_opening_masks_names_definitions_domains_and_figures():
    a = MASK.opening("'whale' (\"a large sea animal\") and 'krill' are both acts and artifacts, 3 of them")
    b = MASK.opening("'bee' (\"an insect\") and 'hive' are both artifacts, 12 of them")
    assert a == b == "n (g) and n are both"


def test_the_first_option_not_worn_out_is_chosen_else_the_least_worn():
    options = ["'a' pulls toward 'b'.", "Set against 'a', 'b' leans away.", "What marks 'a' off is 'b'."]
    used = Counter({MASK.opening(options[0]): LIMIT})
    assert choose(options, used, MASK) == options[1]
    used[MASK.opening(options[1])] = LIMIT
    used[MASK.opening(options[2])] = LIMIT + 1
    assert choose(options, used, MASK) == options[0]  # all worn: the least worn, the first of those
    # a text is worn by any of its sentences
    two = ["'x' is near. 'y' pulls toward 'b'.", "'x' lies far."]
    assert choose(two, Counter({"n pulls toward n.": LIMIT}), MASK) == two[1]


def test_where_every_option_is_worn_a_facet_says_its_fresh_sentences_alone():
    options = ["'x' is near. 'y' pulls toward 'b'.", "'x' is near. 'y' lies far."]
    used = Counter({"n is near.": LIMIT, "n pulls toward n.": 1, "n lies far.": LIMIT + 2})
    assert choose(options, used, MASK) == options[0]  # not shortened: the least worn
    assert choose(options, used, MASK, shorten=True) == "'y' pulls toward 'b'."
    # nothing fresh in any option: the least worn, whole
    used["n pulls toward n."] = LIMIT
    assert choose(options, used, MASK, shorten=True) == options[0]


def test_the_openings_counted_are_the_last_window_steps_each_sentence_once_a_step():
    recent = [{"tension": "'a' pulls toward 'b'. 'c' pulls toward 'd'."} for _ in range(11)]
    recent[0] = {"tension": "Set against 'a', 'b' leans away."}  # outside the window
    used = used_openings(recent, MASK)["tension"]
    assert used == Counter({"n pulls toward n.": WINDOW})  # the last WINDOW steps, not all eleven
    assert used_openings([], MASK) == {}


def test_arrangements_put_each_held_clause_first_in_each_phrasing():
    clauses = [("a one", "a two"), (), ("c one",)]
    assert arrangements(clauses) == ["A one; c one.", "A two; c one.", "C one; a one."]
    assert arrangements(clauses, [2, 0]) == ["C one; a one.", "A one; c one.", "A two; c one."]


def test_a_pairs_turn_picks_the_following_clauses_phrasing_and_the_leads_first():
    clauses = [("a one", "a two"), ("b one", "b two", "b three")]
    assert arrangements(clauses, [0], turn=1) == ["A two; b three.", "A one; b three."]
    assert arrangements(clauses, [0], turn=2) == ["A one; b one.", "A two; b one."]
    # every turn's texts say the same facts; over turns each phrasing follows a lead in turn
    following = {arrangements(clauses, [0], turn=t)[0].split("; ")[1] for t in range(6)}
    assert following == {"b one.", "b two.", "b three."}


def test_an_active_resonance_that_names_the_arrival_is_cited_with_its_other_themes():
    side = SimpleNamespace(name="harbour", lemma="harbor")
    f = SimpleNamespace(b=side, recurring=None)
    recurring(f, ["ship, sail, mast", "port, Harbor, quay, dock"])
    assert f.recurring == ["port", "quay"]
    g = SimpleNamespace(b=side, recurring=None)
    recurring(g, ["ship, sail", "harbourmaster, pier"])  # a theme must be the locus itself, not a longer word
    assert g.recurring is None


def test_every_phrasing_of_a_domain_contrast_says_the_realms_where_one_does():
    """The tension's depth clause leaves the realms to the contrast: whichever phrasing the
    pair's turn picks must carry them."""
    from wander.adapters.llm.offline_facets.tension import _contrast

    def side(name, path):
        return SimpleNamespace(name=name, concept=SimpleNamespace(path=path))

    f = SimpleNamespace(
        a=side("rope", ["line"]),
        b=side("vote", ["group action"]),
        opposite=None,
        doing_a=None,
        doing_b=None,
        kinship="broad",
        kin=True,  # the connection names the realms only for a pair of no kin: here it does not
        only_a=["artifacts"],
        only_b=["acts"],
        common_domains=[],
        realms=("physical entity", "abstract entity"),
    )
    phrasings, strength = _contrast(f)
    assert strength == 2 and len(phrasings) == 4
    assert all(p.endswith(", the one among physical things, the other among abstractions") for p in phrasings)
