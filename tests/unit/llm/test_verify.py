"""Verification and repair of model output, and the fuzz: broken answers never crash a dwell."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wander.adapters.llm.dwelling import ModelDweller
from wander.adapters.llm.dwelling_answer import parse_dwelling
from wander.adapters.llm.ollama import OllamaChat
from wander.adapters.llm.output import OutputError, extract_json, failed_residue

from .answers import dwelling, well_formed
from .conftest import make_request
from .servers import Reply

GOOD = dwelling("CURRENT LOCUS:\ninformation asymmetry\nENCOUNTERED LOCUS:\nlighthouse keeper\n")


def test_strict_json_needs_no_repair():
    d = parse_dwelling(json.dumps(GOOD))
    assert d.repairs == []
    assert d.facets["connection"] == GOOD["connection"]
    assert d.themes == GOOD["themes"] and d.interestingness == 0.72 and d.actionability == 0.41


@pytest.mark.parametrize(
    "text, repair",
    [
        ("Sure! Here it is:\n" + json.dumps(GOOD) + "\nLet me know.", "prose around the JSON"),
        ("```json\n" + json.dumps(GOOD, indent=2) + "\n```", "code fence"),
        (json.dumps(GOOD).replace('"actionability": 0.41}', '"actionability": 0.41,}'), "trailing commas"),
        (json.dumps(GOOD).replace('"', "'"), "single quotes"),
        (json.dumps(GOOD).replace(', "tension"', '\n "tension"'), "missing commas"),
        (
            '{connection: "a link", tension: "a pull", bridge: "a crossing", surprise: "x", possibility: "y"}',
            "unquoted keys",
        ),
        (json.dumps(GOOD).replace("0.41", "None"), "non-JSON literals"),
        (json.dumps(GOOD).replace('"connection"', '// the link\n"connection"'), "comments"),
        (json.dumps(GOOD)[: json.dumps(GOOD).index('"surprise"') + 20], "truncated JSON closed"),
        (json.dumps({"residue": GOOD}), "nested object unwrapped"),
        (json.dumps([GOOD]), "object wrapped in a list"),
        (json.dumps(json.dumps(GOOD)), "double-encoded JSON"),
        (json.dumps({k.upper(): v for k, v in GOOD.items()}), "field names normalised"),
    ],
)
def test_common_breakages_are_repaired_and_named(text, repair):
    d = parse_dwelling(text)
    assert repair in d.repairs, d.repairs
    assert d.facets["connection"].startswith(("'information asymmetry'", "a link", "a"))
    assert all(d.facets[f] for f in ("connection", "tension", "bridge", "surprise", "possibility"))


def test_truncated_json_keeps_what_came_and_fills_stated_defaults():
    text = json.dumps(GOOD)
    cut = text[: text.index('"possibility"') + 30]
    d = parse_dwelling(cut)
    assert d.facets["surprise"] == GOOD["surprise"]
    assert d.facets["possibility"].endswith("…")  # the cut string, marked as cut
    assert d.themes == [] and d.interestingness == 0.5 and d.actionability == 0.0
    assert "themes missing: default []" in d.repairs


def test_wrong_types_are_coerced_where_safe():
    d = parse_dwelling(
        json.dumps(
            {
                **GOOD,
                "themes": "signalling, disclosure; trust",
                "interestingness": "80%",
                "actionability": "3/4",
                "bridge": ["a", "b"],
                "surprise": 7,
                "possibility": {"concept": "ledger"},
            }
        )
    )
    assert d.themes == ["signalling", "disclosure", "trust"]
    assert d.interestingness == pytest.approx(0.8) and d.actionability == pytest.approx(0.75)
    assert d.facets["bridge"] == "a; b" and d.facets["surprise"] == "7" and d.facets["possibility"] == "concept: ledger"


@pytest.mark.parametrize(
    "value, expected",
    [
        (1.7, 1.0),
        (-0.2, 0.0),
        ("12", 1.0),
        ("high", 0.75),
        ("0.X", 0.5),
        (True, 0.5),
        (None, 0.5),
        (float("nan"), 0.5),
        ([0.3], 0.3),
    ],
)
def test_scores_clamped_or_defaulted(value, expected):
    raw = json.dumps({**GOOD, "interestingness": value}) if value == value else json.dumps(GOOD).replace("0.72", "NaN")
    assert parse_dwelling(raw).interestingness == pytest.approx(expected)


def test_missing_most_facets_is_an_error_not_a_residue():
    with pytest.raises(OutputError, match="missing or empty fields: bridge, surprise, possibility"):
        parse_dwelling(json.dumps({"connection": "a", "tension": "b", "themes": ["x"]}))


@pytest.mark.parametrize("text", ["", "   ", "I would rather not.", "[1, 2, 3]", "{}", '{"thoughts": "hmm"}', "null"])
def test_unusable_answers_raise_output_error(text):
    with pytest.raises(OutputError):
        parse_dwelling(text)


def test_pii_is_scrubbed_from_every_stored_text():
    d = parse_dwelling(
        json.dumps(
            {
                **GOOD,
                "connection": "mail jane@example.com or call +1 415 555 0100",
                "themes": ["ops@example.com", "trust", "sk-abcdefghijklmnopqrstu"],
            }
        )
    )
    assert "jane@example.com" not in d.facets["connection"] and "[email]" in d.facets["connection"]
    assert "+1 415 555 0100" not in d.facets["connection"]
    assert d.themes == ["trust"]  # themes that were PII are dropped, not stored as placeholders


def test_failed_residue_says_why_and_keeps_the_raw_answer_scrubbed():
    r = failed_residue(
        "no JSON object in the answer",
        "my key is sk-ant-abcdefghijklmnop0123 sorry",
        model="llama3.2:3b",
        route="local",
        tokens=12,
    )
    assert r.failed and r.route == "local" and r.tokens_used == 12 and r.cost_cents == 0
    assert all("no JSON object in the answer" in v for v in r.facets().values())
    assert "sk-ant" not in r.raw_output and "[secret]" in r.raw_output


def test_lists_for_the_proposer():
    assert extract_json('["a", "b",]', list).value == ["a", "b"]
    assert extract_json('{"concepts": ["a", "b"]}', list).value == ["a", "b"]
    assert extract_json("Sure:\n1. price signal\n2. credential\n3. warranty", list).value == [
        "price signal",
        "credential",
        "warranty",
    ]
    with pytest.raises(OutputError):
        extract_json("no idea, sorry", list)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("{}[]:,\"' \n\\abc01.-/*#tnulrefasTNF")), max_size=120))
def test_parse_never_raises_anything_but_output_error(text):
    try:
        parse_dwelling(text)
    except OutputError:
        pass


# ---- the fuzz: 200 broken answers through the real Ollama client and a local server ----------


def _breakers(rng: random.Random):
    def prose(t: str) -> str:
        return (
            rng.choice(["Sure! ", "Here is the JSON you asked for:\n", "Reflection:\n\n"])
            + t
            + rng.choice(["", "\nHope this helps.", "\n\n(1-2 sentences each, as asked)"])
        )

    def fence(t: str) -> str:
        return f"```{rng.choice(['json', '', 'JSON'])}\n{t}\n```"

    def trailing_comma(t: str) -> str:
        return t.replace('", "', '",, "', 1).replace("}", ",}")

    def single_quotes(t: str) -> str:
        return t.replace('"', "'")

    def truncate(t: str) -> str:
        return t[: rng.randint(0, len(t) - 1)] if len(t) > 1 else t

    def drop_keys(t: str) -> str:
        d = json.loads(t)
        for k in rng.sample(list(d), rng.randint(1, 4)):
            d.pop(k)
        return json.dumps(d)

    def wrong_types(t: str) -> str:
        d = json.loads(t)
        d["interestingness"] = rng.choice(["0.8", "80%", 8, -1, "high", None, [0.4], "0.X"])
        d["themes"] = rng.choice(["a, b, c", 42, {"a": 1}, [1, "two", None]])
        d[rng.choice(["connection", "bridge"])] = rng.choice([["x", "y"], 3, {"k": "v"}, None, ""])
        return json.dumps(d)

    def garbage(t: str) -> str:
        chars = list(t) or ["{"]
        for _ in range(rng.randint(1, 6)):
            i = rng.randrange(max(1, len(chars)))
            op = rng.random()
            if op < 0.4 and chars:
                del chars[i]
            elif op < 0.8:
                chars.insert(i, rng.choice("{}[]:,\"'\\\n#/"))
            elif chars:
                chars[i] = rng.choice("\x00\x07\u2028\u201c\u201d")
        return "".join(chars)

    def hopeless(t: str) -> str:
        return rng.choice(["", "I'd rather not.", "[]", "null", "<html>502</html>", "{" * 40, '{"a": 1}'])

    def python_repr(t: str) -> str:
        return repr(json.loads(t))

    # Structural breakers need JSON to work on; textual ones work on anything.
    return [drop_keys, wrong_types, python_repr], [
        prose,
        fence,
        trailing_comma,
        single_quotes,
        truncate,
        garbage,
        hopeless,
    ]


async def test_fuzz_200_broken_answers_no_crash(ollama_server, retry):
    rng = random.Random(20260102)
    structural, textual = _breakers(rng)
    dweller = ModelDweller(OllamaChat(ollama_server.url, timeout=5), retry=retry)
    request = make_request()
    outcomes: Counter[str] = Counter()
    for i in range(200):
        text = well_formed(f"CURRENT LOCUS:\ninformation asymmetry\nENCOUNTERED LOCUS:\nthing {i}\n")
        chosen = rng.sample(structural, rng.choice([0, 1, 1])) + rng.sample(textual, rng.choice([0, 1, 1, 2]))
        for b in chosen or [rng.choice(textual)]:
            text = b(text)
        # The retry's answer: good, or broken again.
        second = well_formed() if rng.random() < 0.6 else rng.choice(textual)(well_formed())
        ollama_server.push("/api/chat", Reply(text=text), Reply(text=second))
        residue = await dweller.dwell(request)
        if residue.failed:
            outcomes["failed"] += 1
            assert residue.raw_output is not None and "The dwell failed" in residue.connection
        elif residue.details.get("retried"):
            outcomes["retried"] += 1
        else:
            outcomes["repaired"] += 1
            ollama_server.scripts["/api/chat"].clear()  # the retry answer was not needed
        assert 0.0 <= residue.interestingness <= 1.0 and 0.0 <= residue.actionability <= 1.0
        assert residue.route == "local" and residue.model_used == "llama3.2:3b"
        if not residue.failed:
            assert all(isinstance(v, str) and v for v in residue.facets().values())
    print(
        f"\nfuzz over 200 broken answers: repaired {outcomes['repaired']}, retried {outcomes['retried']}, "
        f"failed {outcomes['failed']}"
    )
    assert sum(outcomes.values()) == 200
    assert outcomes["repaired"] > 0 and outcomes["retried"] > 0 and outcomes["failed"] > 0
