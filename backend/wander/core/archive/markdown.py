"""The compressed text of a wander (000 "Visual Encoding for Session Archives": 500-2,000
tokens for a model's context or a person): the path, the best residues, the confirmed
resonances and the crystals as sandwiches.

Bounded whatever the wander's length: the path shows its start and end, at most
BEST_RESIDUES residues with each facet clipped, the strongest RESONANCES_SHOWN
resonances and the CRYSTALS_SHOWN best crystals (the rest are counted; archive.json has
them all). Measured with the MiniLM tokenizer (archive/tokens.py) from 50 to 5,000 steps."""

from __future__ import annotations

import re
from typing import Any

FACETS = ("connection", "tension", "bridge", "surprise", "possibility")
BEST_RESIDUES = 3
PATH_SHOWN = 40  # the first PATH_SHOWN - PATH_END concepts, then the last PATH_END
PATH_END = 8
RESONANCES_SHOWN = 8
CRYSTALS_SHOWN = 4
FACET_CHARS = 170  # a facet longer than this is clipped at a word (with an ellipsis)
INSIGHT_CHARS = 300  # a crystal's insight, likewise


# CommonMark's backslash escapes for what can open markup or HTML in a line of text.
_MARKUP = re.compile(r"([\\`*_\[\]<>#|!~])")


def md(value: Any) -> str:
    """Text a person or a model wrote, as literal Markdown text: one line, every character
    that could start emphasis, a link, a heading, a table or raw HTML escaped."""
    return _MARKUP.sub(r"\\\1", " ".join(str(value).split()))


def clip(value: Any, limit: int = FACET_CHARS) -> str:
    """md() of the text, cut at a word before `limit` characters, with an ellipsis."""
    text = " ".join(str(value).split())
    if len(text) > limit:
        text = text[:limit].rsplit(" ", 1)[0] + " …"
    return md(text)


def crystal_state(c: dict[str, Any]) -> str:
    """A crystal's one state in words: the sandwich gate's verdict, or for a crystal the gate
    kept for a person's review, that person's verdict (accepted: approved; rejected: its
    status invalidated), else that it still waits for one."""
    verdict = (c.get("validity") or {}).get("verdict", "?")
    if verdict == "review":
        if c.get("human_approved"):
            return "accepted by a person"
        if c.get("status") == "invalidated":
            return "rejected by a person"
        return "awaiting a person's review"
    if verdict in ("accepted", "rejected"):
        return f"{verdict} by the gate"
    return str(verdict)


def render_markdown(rows: dict[str, Any]) -> str:
    s = rows["session"]
    loci = {lo["id"]: lo for lo in rows["loci"]}
    name = lambda i: md(loci[i]["concept"]) if i in loci else "?"  # noqa: E731
    traces = sorted(rows["traces"], key=lambda t: t["step_number"])
    out = [f"# {md(s['name'])}", ""]
    out.append(
        f"- seed: **{md(s['seed_concept'])}**" + (f"; attractor: *{md(s['attractor'])}*" if s.get("attractor") else "")
    )
    out.append(
        f"- status: {s['status']}"
        + (f" ({md(s['stopped_reason'])})" if s.get("stopped_reason") else "")
        + f"; steps: {s['step_count']}/{s['max_steps']}; loci: {len(loci)}; temperature {s['temperature']}; "
        f"random seed {s['random_seed']}"
    )
    out.append(f"- session: `{s['id']}`")
    out += ["", "## Path", ""]
    path = [md(s["seed_concept"])] + [name(t["to_locus_id"]) for t in traces]
    if len(path) > PATH_SHOWN:
        head, tail = path[: PATH_SHOWN - PATH_END], path[-PATH_END:]
        out.append(" -> ".join(head) + f" -> ... ({len(path) - PATH_SHOWN} more) -> " + " -> ".join(tail))
    else:
        out.append(" -> ".join(path))
    step_of = {t["id"]: t for t in traces}
    residues = [r for r in rows["residues"] if r["trace_id"] in step_of]
    best = sorted(residues, key=lambda r: (-(r.get("interestingness") or 0), step_of[r["trace_id"]]["step_number"]))
    out += ["", f"## Best residues ({min(BEST_RESIDUES, len(best))} of {len(residues)})"]
    for r in best[:BEST_RESIDUES]:
        t = step_of[r["trace_id"]]
        out += [
            "",
            f"### Step {t['step_number']}: {name(t['from_locus_id'])} -> {name(t['to_locus_id'])} "
            f"(interestingness {r.get('interestingness') or 0:.2f})",
        ]
        out += [f"- **{f}**: {clip(r[f])}" for f in FACETS if r.get(f)]
        if r.get("themes"):
            out.append(f"- themes: {', '.join(md(t) for t in r['themes'][:8])}")
    confirmed = [r for r in rows["resonances"] if r["status"] == "confirmed"]
    out += ["", f"## Resonances ({len(confirmed)} confirmed of {len(rows['resonances'])})", ""]
    out += [
        f"- {', '.join(md(t) for t in r['themes'][:6])} (occurrences {r['occurrences']}, strength {r['strength']:.2f})"
        for r in sorted(confirmed, key=lambda r: -r["strength"])[:RESONANCES_SHOWN]
    ]
    if len(confirmed) > RESONANCES_SHOWN:
        out.append(f"- ... and {len(confirmed) - RESONANCES_SHOWN} weaker ones")
    crystals = rows["crystals"]
    # the best first: standing ones (not invalidated) by V; then in the order they formed
    best = sorted(
        range(len(crystals)),
        key=lambda i: (
            crystals[i].get("status") == "invalidated",
            -((crystals[i].get("validity") or {}).get("V") or 0),
            i,
        ),
    )[:CRYSTALS_SHOWN]
    shown = f"{len(best)} best of {len(crystals)}" if len(crystals) > CRYSTALS_SHOWN else f"{len(crystals)}"
    out += ["", f"## Crystals ({shown})"]
    for c in (crystals[i] for i in sorted(best)):
        v = c.get("validity") or {}
        out += [
            "",
            f"### {c.get('structural_type') or 'crystal'}: V = {v.get('V', 0):.3f} ({crystal_state(c)})",
            f"- bread: {name(c.get('bread_a_locus_id'))}",
            f"- filling: {md(v.get('filling', '?'))}: {clip(c['insight'], INSIGHT_CHARS)}",
            f"- bread: {name(c.get('bread_b_locus_id'))}",
            f"- confidence {c['confidence']:.2f}, actionability {c['actionability']:.2f}, "
            f"domains {', '.join(md(d) for d in c['domains'])}",
        ]
    return "\n".join(out) + "\n"
