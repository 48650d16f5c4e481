"""Text mutations for the MLIR reader fuzzer: line and token edits that keep most of a module
readable, so inputs reach the parser's later stages and the analysis, not only the lexer."""

from __future__ import annotations

import random
import re

_TOKEN = re.compile(r"%[\w#]+|@\w+|\d+|[A-Za-z_][\w.]*|\S")
ODD_TOKENS = (
    "?", "-1", "0", "9223372036854775807", "-9223372036854775808", "%0", "%arg0", "tensor<?x?xf32>",
    "tensor<*xf32>", "tensor<0x?xi64>", "i64", "index", "(", ")", "{", "}", "<", ">", "[", "]", ":", ",",
    '"', '"\\', "dense<>", "dense<[1, -1]> : tensor<2xi64>", "->", "^bb0", "loc(", "#loc", "//", "\\xff",
    "stablehlo.dynamic_reshape", "mhlo.concatenate", "func.return", "x" * 200,
)  # fmt: skip


def mutate_text(text: str, rng: random.Random) -> str:
    """One to four edits of lines and tokens of ``text``."""
    lines = text.splitlines(keepends=True) or [""]
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(lines))
        kind = rng.randrange(6)
        if kind == 0 and len(lines) > 1:
            del lines[i]
        elif kind == 1:
            lines.insert(rng.randrange(len(lines) + 1), lines[i])
        elif kind == 2:
            lines = lines[: i + 1]
            lines[-1] = lines[-1][: rng.randrange(len(lines[-1]) + 1)]
        else:
            lines[i] = _edit_token(lines[i], rng, kind)
    return "".join(lines)


def _edit_token(line: str, rng: random.Random, kind: int) -> str:
    tokens = list(_TOKEN.finditer(line))
    if not tokens:
        return line + rng.choice(ODD_TOKENS)
    m = rng.choice(tokens)
    if kind == 3:  # replace a token
        new = rng.choice(ODD_TOKENS)
    elif kind == 4:  # swap with another token of the line
        new = rng.choice(tokens).group()
    else:  # delete it
        new = ""
    return line[: m.start()] + new + line[m.end() :]
