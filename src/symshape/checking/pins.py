"""The analysis run again with input symbols pinned to sizes: the op that cannot take them names
itself in the contradiction it raises (a symbol's facts keep only their latest origin).

Kept apart from the rest of `symshape.checking`, which `symshape.result` imports and so may not
import the walker (`symshape.analysis`).
"""

from __future__ import annotations

from collections.abc import Mapping

from symshape.analysis import analyze
from symshape.checking import Pin
from symshape.checking.items import Analysis
from symshape.errors import SymshapeError


def pin_for(analysis: Analysis) -> Pin:
    """A `Pin` for ``analysis``: the error message of its program analyzed with ``name == size``
    for each pinned input symbol ("" when it raises none). User symbols are not pinned."""
    user = {n for n, i in analysis.graph.symbols.items() if i.kind == "user"}

    def pin(env: Mapping[str, int]) -> str:
        facts = [f"{name} == {value}" for name, value in sorted(env.items()) if name not in user]
        try:
            analyze(analysis.program, facts=facts)
        except SymshapeError as err:
            return err.message
        return ""

    return pin
