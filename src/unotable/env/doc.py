"""The generated parts of ``docs/env.md``: the action ids and the observation layout of a
configuration, as Markdown tables (a test keeps the document equal to them). Needs numpy."""

from __future__ import annotations

from unotable.cards import WILD_CODES
from unotable.env.actions import action_table
from unotable.env.encoding import layout_for
from unotable.rules import Rules


def action_rows(rules: Rules) -> str:
    """The env action ids of ``rules`` as a Markdown table, runs of one kind on one row."""
    table = action_table(rules)
    lines = ["| ids | actions |", "| --- | --- |"]
    texts = table.texts
    start = 0
    for i in range(1, len(texts) + 1):
        if i < len(texts) and _group(texts[i]) == _group(texts[start]):
            continue
        ids = str(start) if i - 1 == start else f"{start}-{i - 1}"
        lines.append(f"| {ids} | {', '.join(f'`{t}`' for t in texts[start:i])} |")
        start = i
    return "\n".join(lines)


def _group(text: str) -> str:
    words = text.split()
    if words[0] == "play":
        code = words[1]
        return "play " + (code if code in WILD_CODES else code[0])
    return words[0]


def layout_rows(rules: Rules) -> str:
    """The observation segments of ``rules`` as a Markdown table."""
    lay = layout_for(rules)
    lines = ["| segment | indices | shape | what |", "| --- | --- | --- | --- |"]
    for s in lay.segments:
        shape = "x".join(map(str, s.shape))
        lines.append(f"| `{s.name}` | {s.start}-{s.stop - 1} | {shape} | {s.doc} |")
    lines.append(f"| (size) | {lay.size} | | |")
    return "\n".join(lines)
