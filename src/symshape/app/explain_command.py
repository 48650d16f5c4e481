"""``symshape explain [CODE]``: the error guide, read from the copy shipped inside the package.

Every error message ends with ``(run `symshape explain <code>`)``; the code is the error class's
``anchor`` (its name in lower case). The guide is ``symshape/errors.md``, package data equal to
the site's ``docs/errors.md`` (``scripts/error_examples.py --write`` copies it; a test fails when
they differ), so a pip install has it without the repository. Its ``## Heading`` sections are the
codes: ``explain CODE`` prints one, ``explain`` lists them with the first sentence of each.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib.resources import files

import click

from symshape.errors import GUIDE, compose, one_line

OK, USAGE = 0, 2
_COMMENT = re.compile(r"^\s*<!--.*-->\s*$")


@dataclass(frozen=True)
class Section:
    """One ``## Heading`` of the guide: its code (the heading's anchor), heading and text."""

    code: str
    heading: str
    text: str

    def summary(self) -> str:
        """The first sentence of the section's first paragraph (up to a ``.`` or ``:`` that ends a
        clause outside inline code), on one line."""
        paragraph: list[str] = []
        for line in self.text.splitlines()[1:]:
            if line.strip():
                paragraph.append(line.strip())
            elif paragraph:
                break
        return first_sentence(" ".join(paragraph))


def first_sentence(text: str) -> str:
    """``text`` up to its first ``.`` or ``:`` followed by a space or the end, ignoring those
    inside backquotes; without the ``:``."""
    in_code = False
    for i, c in enumerate(text):
        if c == "`":
            in_code = not in_code
        elif c in ".:" and not in_code and (i + 1 == len(text) or text[i + 1] == " "):
            return text[: i + 1] if c == "." else text[:i]
    return text


def anchor(heading: str) -> str:
    """A heading's anchor as GitHub and mkdocs spell it: ``ModelError`` -> ``modelerror``."""
    return re.sub(r"[^\w\- ]", "", heading).strip().lower().replace(" ", "-")


def guide_text() -> str:
    """The error guide shipped with the package."""
    return files("symshape").joinpath(GUIDE).read_text(encoding="utf-8")


def sections(text: str) -> list[Section]:
    """The ``## `` sections of ``text``, in order (the introduction before the first is not one)."""
    parts = re.split(r"^(?=## )", text, flags=re.MULTILINE)
    out: list[Section] = []
    for part in parts[1:]:
        heading = part.splitlines()[0].removeprefix("## ").strip()
        out.append(Section(anchor(heading), heading, _for_terminal(part)))
    return out


def _for_terminal(part: str) -> str:
    """A section without the markers of generated examples, one blank line between paragraphs."""
    lines = [line.rstrip() for line in part.splitlines() if not _COMMENT.match(line)]
    text = "\n".join(lines)
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n")


def normalize(code: str) -> str:
    """What a user may type for a code: ``modelerror``, ``ModelError``, ``#modelerror``, or the
    old link ``docs/errors.md#modelerror``."""
    return code.strip().rsplit("#", 1)[-1].strip().lower()


def listing(found: list[Section]) -> str:
    """Every code with its summary, aligned."""
    width = max(len(s.code) for s in found)
    rows = [f"  {s.code:<{width}}  {s.summary()}" for s in found]
    return "\n".join(["error codes (symshape explain CODE prints one):", *rows])


def run_explain(code: str | None) -> int:
    """Print the section of ``code`` (or the list of codes); the exit status."""
    found = sections(guide_text())
    if code is None:
        click.echo(listing(found))
        return OK
    wanted = normalize(code)
    for section in found:
        if section.code == wanted:
            click.echo(section.text)
            return OK
    message = compose(
        where=f"code '{code}'",
        found="no error has this code",
        expected=f"one of {', '.join(s.code for s in found)}",
        fix="run `symshape explain` for what each one is",
    )
    click.secho(f"error: {one_line(message)}", fg="red", err=True)
    return USAGE
