"""How `wander show` prints what a wander found: resonances and crystals as sandwiches."""

from __future__ import annotations

from rich.console import Console

from wander.domain.models import Crystal, Locus, Resonance


def print_resonances(console: Console, resonances: list[Resonance]) -> None:
    confirmed = [r for r in resonances if str(r.status) == "confirmed"]
    console.rule(f"[bold]resonances[/]: {len(confirmed)} confirmed of {len(resonances)}")
    for r in sorted(confirmed, key=lambda r: -r.strength)[:12]:
        console.print(f"  [magenta]{', '.join(r.themes[:5])}[/]  occurrences {r.occurrences}, strength {r.strength:.2f}",
                      highlight=False)  # fmt: skip


def print_crystals(console: Console, crystals: list[Crystal], loci: dict[str, Locus]) -> None:
    console.rule(f"[bold]crystals[/]: {len(crystals)}")
    for c in crystals:
        v = c.validity
        b1 = loci.get(c.bread_a_locus_id or "")
        b2 = loci.get(c.bread_b_locus_id or "")
        verdict = v.get("verdict", "?")
        colour = {"accepted": "green", "review": "yellow", "rejected": "red"}.get(verdict, "white")
        console.print(f"\n[bold {colour}]◆ {c.structural_type or '?'} sandwich[/]  V = {v.get('V', 0):.3f} ({verdict})"
                      f"  trigger: {v.get('trigger', '?')}", highlight=False)  # fmt: skip
        console.print(f"    [dim]bread[/]    {b1.concept if b1 else '?'}", highlight=False)
        console.print(f"    [dim]filling[/]  {v.get('filling', '?')}: {c.insight}", highlight=False)
        console.print(f"    [dim]bread[/]    {b2.concept if b2 else '?'}", highlight=False)
        console.print(
            f"    V = 0.25 x {v.get('bread_compat', 0):.2f} (bread compat) + 0.35 x {v.get('containment', 0):.2f} "
            f"(containment) + 0.20 x {v.get('non_triviality', 0):.2f} (non-triviality) + 0.20 x "
            f"{v.get('novelty', 0):.2f} (novelty)", highlight=False)  # fmt: skip
        if v.get("reasons"):
            console.print(f"    [red]{'; '.join(v['reasons'])}[/]", highlight=False)
        console.print(f"    rumination, {len(c.rumination)} steps:", highlight=False)
        for s in c.rumination:
            guard = f"  [yellow]{s['guard']}[/]" if s.get("guard") else ""
            rejected = f"  [red]rejected: {s['rejected']}[/]" if s.get("rejected") else ""
            console.print(f"      {s['step']:>2}. [{s['signal']}] {s['lens']:<12} gap {s['gap_before']:.2f} -> "
                          f"{s['gap_after']:.2f}  {s['finding'][:110]}{guard}{rejected}", highlight=False)  # fmt: skip
