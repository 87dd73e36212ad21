"""Hypothesis strategies for memory files: a markdown-ish line alphabet plus arbitrary text."""

from __future__ import annotations

from hypothesis import strategies as st

# Lines chosen to sit on the edges between block constructs, so generated files mix
# entries with everything that can swallow, continue or interrupt them.
TRICKY_LINES = (
    "",
    " ",
    "   ",
    "\t",
    "- a",
    "- a [k: v]",
    "- b [a: b; c]",
    "* b",
    "+ c",
    "-",
    "- ",
    "-  two spaces",
    "-     five spaces",
    "-\ttab",
    "- - nested",
    "- 1. x",
    "- # h",
    "- > q",
    "- ```",
    "- <!--",
    "-->",
    "- <div>",
    "- [[a]]",
    "- [[b|label]] [by: user]",
    "- - -",
    "* * *",
    "***",
    "---",
    "...",
    "-----",
    "===",
    "_ _ _",
    "# h",
    "## Index",
    "## index ##",
    "##   Index   #",
    "### Index",
    "# Top",
    "## Other",
    "#nospace",
    "####### seven",
    "Index",
    "para text",
    "more words",
    "```",
    "```md",
    "~~~",
    "> q",
    "> - quoted",
    "<div>",
    "</div>",
    "<!--",
    "    code",
    "  - nested",
    "   - three",
    "  continued",
    "1. one",
    "2) two",
    "[x]: /url",
    "| t |",
    "_x_",
    "\u00a0nbsp",
    "\x0cff",
    "\x00nul",
)
ENDINGS = ("\n", "\r\n", "\r")
# Lines the fast scanner accepts, so that property runs on the fast path often.
SIMPLE_LINES = (
    "",
    "  ",
    "- a",
    "- b [k: v]",
    "* c",
    "+ d [[e]]",
    "- [[f|g]]",
    "# T",
    "## Index",
    "## index ##",
    "### Index",
    "## Other",
    "# Top",
    "para",
    "Index words",
)

paragraph = st.from_regex(r"[A-Za-z][^\r\n]{0,10}", fullmatch=True)
free_line = st.text(st.characters(codec="utf-8", exclude_characters="\r\n"), max_size=12)


@st.composite
def documents(draw: st.DrawFn, lines: tuple[str, ...] = TRICKY_LINES) -> str:
    """A file made of tricky lines, free text lines and mixed line endings."""
    chosen = draw(st.lists(st.one_of(st.sampled_from(lines), free_line), max_size=14))
    if draw(st.booleans()):
        chosen = [
            "---",
            *draw(st.lists(st.sampled_from(("a: 1", "", "- x")), max_size=2)),
            draw(st.sampled_from(("---", "..."))),
            *chosen,
        ]
    uniform = draw(st.booleans())
    out = []
    for line in chosen:
        ending = "\n" if uniform else draw(st.sampled_from(ENDINGS))
        out.append(line + ending)
    text = "".join(out)
    if text and draw(st.booleans()):
        text = text.rstrip("\r\n")
    return text


@st.composite
def simple_documents(draw: st.DrawFn) -> str:
    """A file the fast scanner must accept: simple lines, paragraphs never right after a bullet."""
    chosen = draw(st.lists(st.one_of(st.sampled_from(SIMPLE_LINES), paragraph), max_size=14))
    lines: list[str] = []
    for line in chosen:
        if line[:1].isalpha() and lines and lines[-1][:2] in ("- ", "* ", "+ "):
            lines.append("")
        lines.append(line)
    ending = draw(st.sampled_from(ENDINGS))
    return "".join(line + ending for line in lines)


metadata_keys = st.from_regex(r"[A-Za-z][A-Za-z0-9_-]{0,8}", fullmatch=True)
metadata_maps = st.dictionaries(metadata_keys, st.text(max_size=12), min_size=1, max_size=4)
