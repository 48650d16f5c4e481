"""The declared dims of a program's inputs, as ints and expressions over input symbols: what the
analysis starts from, what the oracle feeds, the guard nodes read and the torch.export frontend
compares against. All of them read the labels through `input_dims`, so all use the same symbols.

Labels are read so that no two unknowns are merged: a label that names nothing (``?``, ``-1``,
empty, ``*``) is the dim's own symbol ``<input>_d<axis>``, as an absent one is (onnx itself names
each such dim apart, ``unk__N``); a label that is not a plain name (``p2o.DynamicDimension.1``,
``sequence length``) gets a spelling that sympy and onnxruntime's tools read back
(``p2o_DynamicDimension_1``), one per distinct label and never one another label already has.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from symshape.algebra.expr import Dim, Expr, free_symbols, sym
from symshape.algebra.parse import parse_dim
from symshape.engine.program import Program

_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_MINUS_ONE = re.compile(r"\s*-\s*1\s*\Z")


@dataclass
class InputDims:
    """Every input's dims (None: no declared rank) and, per input and axis, why a label was read
    as something other than what it spells (for the report's warnings)."""

    dims: dict[str, tuple[Dim, ...] | None] = field(default_factory=lambda: {})
    notes: list[tuple[str, int, str]] = field(default_factory=lambda: [])


def input_dims(program: Program) -> InputDims:
    """The dims of every graph input, labels read as the module docstring says."""
    out = InputDims()
    labels = _Labels(program)
    for name in program.inputs:
        value = program.values[name]
        if value.type is None or value.type.dims is None:
            out.dims[name] = None
            continue
        dims: list[Dim] = []
        for axis, d in enumerate(value.type.dims):
            if isinstance(d, int) and d >= 0:
                dims.append(d)
                continue
            if not isinstance(d, str) or not d.strip():
                dims.append(labels.claim_own(f"{name}_d{axis}"))
            elif names_nothing(d):
                own = labels.claim_own(f"{name}_d{axis}")
                dims.append(own)
                note = f"the declared size {d!r} names no symbol: read as its own unknown '{own}'"
                out.notes.append((name, axis, note))
            else:
                read, note = labels.read(d)
                dims.append(read)
                if note:
                    out.notes.append((name, axis, note))
        out.dims[name] = tuple(dims)
    return out


def names_nothing(label: str) -> bool:
    """Whether a label means "unknown" rather than a size or a name: ``-1`` (exporters' "dynamic"),
    or no letter or digit at all (``?``, ``*``). Another negative number stays an error."""
    return bool(_MINUS_ONE.match(label)) or not any(c.isalnum() or c == "_" for c in label)


class _Labels:
    """One symbol per distinct label, spelled so no other label or position already has it."""

    def __init__(self, program: Program) -> None:
        self.taken: dict[str, str] = {}  # symbol -> the label (or position) that has it
        self.read_as: dict[str, Dim] = {}
        for name in program.inputs:
            dims = program.values[name].type
            for d in (dims.dims or ()) if dims is not None else ():
                if isinstance(d, str) and _PLAIN.match(d.strip()):
                    self.taken[d.strip()] = d.strip()

    def claim_own(self, position: str) -> Dim:
        """The per-position symbol, suffixed when a label already names it."""
        return sym(self._free(position, f"position {position}"))

    def read(self, label: str) -> tuple[Dim, str]:
        """A label's dim, and a note when its spelling changed."""
        key = label.strip()
        if key in self.read_as:
            return self.read_as[key], ""
        note = ""
        expression = None if _PLAIN.match(key) else _expression(key)
        if _PLAIN.match(key):
            d: Dim = sym(key)
        elif expression is not None:
            d = expression
        else:
            d = sym(self._free(_safe(key), key))
            note = f"the declared size {label!r} is not a name sympy reads: spelled '{d}'"
        self.read_as[key] = d
        return d, note

    def _free(self, spelled: str, owner: str) -> str:
        candidate, n = spelled, 1
        while self.taken.get(candidate, owner) != owner:
            n += 1
            candidate = f"{spelled}_{n}"
        self.taken[candidate] = owner
        return candidate


def _expression(label: str) -> Dim | None:
    """The label read as an expression over plain names (``batch*seq``), or None."""
    try:
        d = parse_dim(label)
    except Exception:  # noqa: BLE001 - a label that is no expression is a name
        return None
    return d if all(_PLAIN.match(s) for s in free_symbols(d)) else None


def _safe(label: str) -> str:
    safe = "".join(c if c.isalnum() or c == "_" else "_" for c in label)
    return safe if safe and not safe[0].isdigit() else f"d_{safe}"


def declared_input_dims(program: Program, name: str) -> tuple[Dim, ...] | None:
    """The declared dims of graph input ``name`` (None when its rank is not declared)."""
    return input_dims(program).dims[name]


def input_symbol_names(program: Program) -> list[str]:
    """The symbols the graph inputs declare, in order of first appearance."""
    names: list[str] = []
    for dims in input_dims(program).dims.values():
        for d in dims or ():
            if isinstance(d, Expr):
                names.extend(s for s in sorted(d.free) if s not in names)
    return names
