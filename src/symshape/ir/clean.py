# pyright: strict
"""Clean MLIR text before xDSL reads it: drop locations (``loc(...)`` and the ``#loc`` aliases
that ``jax.export`` writes after their uses, which xDSL cannot resolve) and ``//`` comments,
unquote old opaque attributes (``#mhlo<"precision DEFAULT">``) and put each dialect attribute
body on one line. Strings are left untouched, and so is every line break outside a dialect
attribute (error messages quote the source's line numbers).

Comments go first: an attribute body is joined onto one line, and a comment inside it
(``type = 3  // Host to device channel``) would otherwise swallow the rest of its op."""

from __future__ import annotations

import re
from array import array
from itertools import accumulate

_OPAQUE_STRING = re.compile(r'#([A-Za-z_][\w$]*)<"((?:[^"\\]|\\.)*)">')  # a dialect namespace: no dot
_LOC_ALIAS_LINE = re.compile(r"^#loc[\w$.]*\s*=\s*$", re.M)


def clean_text(text: str) -> str:
    """Drop locations and unquote ``#dialect<"body">`` attributes, leaving strings untouched."""
    out: list[str] = []
    i = 0
    while (m := _SPECIAL.search(text, i)) is not None:  # jump to the next string, location or attribute
        k = m.start()
        out.append(text[i:k])
        if text[k] == '"':
            j = _string_end(text, k)
            out.append(text[k:j])
            i = j
        elif text[k] == "l":
            i = balanced_end(text, k + 3)
        elif text[k] == "/":
            i = _line_end(text, k)
        elif om := _OPAQUE_STRING.match(text, k):
            out.append(f"#{om.group(1)}<{om.group(2)}>")
            i = om.end()
        elif dm := _DIALECT_ATTR.match(text, k):
            j = _angle_end(text, dm.end())  # one line per attribute body, so printing is stable
            out.append(NEWLINE_RUN.sub(" ", _without_comments(text[k:j])))
            i = j
        else:
            out.append("#")
            i = k + 1
    out.append(text[i:])
    return _LOC_ALIAS_LINE.sub("", "".join(out))


_SPECIAL = re.compile(r'["#]|//|(?<![\w.$#])loc\(')
_DIALECT_ATTR = re.compile(r"#[A-Za-z_][\w.]*<")
NEWLINE_RUN = re.compile(r"\s*\n\s*")


def _angle_end(text: str, start: int) -> int:
    """The index after the ``>`` closing the ``<`` just before ``start`` (``->`` is not one)."""
    depth, i, n = 1, start, len(text)
    while i < n and depth:
        c = text[i]
        if c == '"':
            i = _string_end(text, i)
            continue
        if c == "<":
            depth += 1
        elif c == ">" and text[i - 1] != "-":
            depth -= 1
        i += 1
    return i


def opaque_quotes(text: str) -> dict[str, str]:
    """The opaque attributes `clean_text` unquotes, unquoted -> as written
    (``#mhlo<precision DEFAULT>`` -> ``#mhlo<"precision DEFAULT">``), so what is printed from
    the source text can be written as it was."""
    return {f"#{m.group(1)}<{m.group(2)}>": m.group(0) for m in _OPAQUE_STRING.finditer(text)}


def _without_comments(text: str) -> str:
    """``text`` without its ``//`` comments (strings are skipped; line breaks are kept)."""
    if "//" not in text:
        return text
    out: list[str] = []
    i = 0
    while (m := _STRING_OR_COMMENT.search(text, i)) is not None:
        out.append(text[i:m.start()])
        if m.group() == '"':
            i = _string_end(text, m.start())
            out.append(text[m.start():i])
        else:
            i = _line_end(text, m.start())
    out.append(text[i:])
    return "".join(out)


_STRING_OR_COMMENT = re.compile(r'"|//')


def _line_end(text: str, start: int) -> int:
    """The index of the line break ending the line ``start`` is on (the text's end if none)."""
    end = text.find("\n", start)
    return len(text) if end < 0 else end


def _string_end(text: str, start: int) -> int:
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == '"':
            return i + 1
        i += 1
    return len(text)


def balanced_end(text: str, open_at: int) -> int:
    """The index after the ``)`` matching the ``(`` at ``open_at`` (strings skipped)."""
    depth = 0
    i = open_at
    while i < len(text):
        c = text[i]
        if c == '"':
            i = _string_end(text, i)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return len(text)


MAX_MLIR_DEPTH = 200
"""Deeper bracket nesting is not given to MLIR's own parser (jaxlib, IREE): it recurses per
level and a few thousand nested regions overflow the C stack, killing the process (found by the
reader fuzzer)."""
_BRACKET_STEPS = bytes.maketrans(b"([{)]}", b"\x01\x01\x01\xff\xff\xff")
_NOT_BRACKETS = bytes(c for c in range(256) if c not in b"([{)]}")


def nesting_depth(text: str) -> int:
    """The deepest nesting of ``()``, ``[]`` and ``{}`` in ``text`` (brackets in strings and
    comments count too: the estimate errs towards deep).

    The brackets become +1 and -1 bytes (UTF-8 never puts an ASCII byte inside another
    character) and the running sum is taken in C: a tenth of a per-bracket Python loop."""
    steps = text.encode("utf-8", "surrogatepass").translate(_BRACKET_STEPS, _NOT_BRACKETS)
    return max(0, max(accumulate(array("b", steps)), default=0))
