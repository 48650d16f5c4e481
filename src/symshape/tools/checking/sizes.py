"""From concrete input shapes (or symbol values) to an assignment of the input symbols.

Each graph input's declared dims are read as the analysis reads them (a declared name stays a
symbol, so a binding can name it); a dim that is one free symbol takes its size from the first
input that has it. Every other dim is a binding the sizes must meet: a static dim, a symbol the
analysis solved to an expression or a constant (``seq := 64``), or a symbol met twice (``batch``
in two inputs). Shapes for unknown inputs, of the wrong rank or with negative sizes are a
`UserFactError`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from symshape.algebra.expr import Dim, as_symbol, evaluate, free_symbols, sym
from symshape.engine.inputs import declared_input_dims
from symshape.errors import UserFactError, where_input, where_option, where_symbol
from symshape.tools.checking.items import BINDING, SHAPE, Analysis, Violation

Shapes = Mapping[str, Sequence[int]]


@dataclass
class Assignment:
    """Values of the free input symbols, where each was read, and the bindings that failed."""

    env: dict[str, int] = field(default_factory=dict[str, int])
    where: dict[str, str] = field(default_factory=dict[str, str])
    violations: list[Violation] = field(default_factory=list[Violation])
    checked: int = 0


def by_input_name(analysis: Analysis, shapes: Shapes) -> dict[str, Sequence[int]]:
    """``shapes`` keyed by the inputs' full names: an MLIR input may be given by its name in the
    text (``arg0`` or ``%arg0`` for ``@main:%arg0``) when no other input has that name. A name
    that is no input stays as given (the check says which names there are)."""
    inputs = analysis.program.inputs
    local: dict[str, list[str]] = {}
    for name in inputs:
        _, sep, short = name.rpartition(":%")
        if sep:
            local.setdefault(short, []).append(name)
    out: dict[str, Sequence[int]] = {}
    for name, shape in shapes.items():
        found = local.get(name.removeprefix("%"), []) if name not in inputs else [name]
        out[found[0] if len(found) == 1 else name] = shape
    return out


def from_shapes(analysis: Analysis, shapes: Shapes) -> Assignment:
    """The assignment the input ``shapes`` make (by input name, `by_input_name`), with failed bindings."""
    shapes = by_input_name(analysis, shapes)
    ranked = _ranked_inputs(analysis)
    for name, shape in shapes.items():
        _check_given(analysis, name, shape, ranked)
    out = Assignment()
    for name, dims in ranked.items():  # first pass: dims that are one free symbol
        for axis, d in enumerate(dims):
            s = as_symbol(analysis.public(d))
            if s is not None and s not in out.env and name in shapes:
                out.env[s] = int(shapes[name][axis])
                out.where[s] = f"input '{name}' dim {axis}"
    _require_values(analysis, out.env, shapes)
    for name, dims in ranked.items():
        if name not in shapes:
            continue
        for axis, d in enumerate(dims):
            out.checked += 1
            found = _binding(analysis, (name, axis), d, int(shapes[name][axis]), out)
            if found is not None:
                out.violations.append(found)
    return out


def from_symbols(analysis: Analysis, values: Mapping[str, int]) -> Assignment:
    """The assignment ``values`` (by symbol name) make; a symbol the analysis bound to an
    expression of others must equal it."""
    declared = sorted(
        {s for dims in _ranked_inputs(analysis).values() for d in dims for s in free_symbols(analysis.public(d))}
    )
    kinds = ("input", "user")
    known = sorted(set(declared) | {n for n, i in analysis.graph.symbols.items() if i.kind in kinds})
    out = Assignment()
    for name, value in values.items():
        if name not in known:
            raise UserFactError(
                where=where_symbol(name),
                found="it is not an input symbol",
                expected=f"one of the input symbols: {', '.join(known) or 'none'}",
                fix="use one of those names",
            )
        _require_size(where_symbol(name), value)
        if as_symbol(analysis.public(sym(name))) == name:
            out.env[name] = int(value)
    missing = [s for s in declared if as_symbol(analysis.public(sym(s))) == s and s not in out.env]
    if missing:
        raise UserFactError(
            where=where_symbol(missing[0]),
            found="it has no value",
            expected="a value for every free input symbol",
            fix=f"give values for {', '.join(missing)}",
        )
    for name, value in values.items():
        out.checked += 1
        found = _binding(analysis, None, sym(name), int(value), out)
        if found is not None:
            out.violations.append(found)
    return out


def parse_shapes(items: Sequence[str]) -> dict[str, tuple[int, ...]]:
    """``--shapes input_ids=2x7,attention_mask=2x7`` (repeatable; ``x=`` is a scalar)."""
    out: dict[str, tuple[int, ...]] = {}
    for item in (part.strip() for text in items for part in text.split(",")):
        if not item:
            continue
        name, eq, dims = (p.strip() for p in item.partition("="))
        sizes = [d.strip() for d in dims.split("x")] if dims else []
        if not eq or not name or not all(d.isdigit() for d in sizes):
            raise UserFactError(
                where=where_option("--shapes", item),
                found="not an input shape",
                expected="INPUT=D1xD2x... with sizes >= 0 (INPUT= for a scalar)",
                fix="write e.g. --shapes input_ids=2x7,attention_mask=2x7",
            )
        out[name] = tuple(int(d) for d in sizes)
    return out


def shapes_of_npz(path: Path) -> dict[str, tuple[int, ...]]:
    """The shapes of the arrays in an ``.npz`` file, by name (values and dtypes are not used)."""
    import zipfile

    import numpy as np

    try:
        with np.load(path, allow_pickle=False) as data:
            return {name: tuple(int(n) for n in data[name].shape) for name in data.files}
    except (OSError, ValueError, zipfile.BadZipFile) as err:
        raise UserFactError(
            where=where_option("--inputs", str(path)),
            found=f"cannot be read as an .npz file ({type(err).__name__})",
            expected="a file written by numpy.savez with one array per graph input",
            fix="write it with numpy.savez(path, input_ids=..., ...)",
        ) from None


def _ranked_inputs(analysis: Analysis) -> dict[str, tuple[Dim, ...]]:
    """Each graph input of known rank: its dims as declared (a declared name stays a symbol, so
    a binding names it), else as the analysis reads them."""
    out: dict[str, tuple[Dim, ...]] = {}
    for name in analysis.program.inputs:
        value, dims = analysis.program.values[name], analysis.shape_or_none(name)
        if dims is None or value.type is None or value.type.dims is None:
            continue
        labels, declared = value.type.dims, declared_input_dims(analysis.program, name) or dims
        out[name] = tuple(
            named if isinstance(label, str) and as_symbol(named) is not None else d
            for label, named, d in zip(labels, declared, dims, strict=True)
        )
    return out


def _check_given(analysis: Analysis, name: str, shape: Sequence[int], ranked: Mapping[str, tuple[Dim, ...]]) -> None:
    inputs = list(analysis.program.inputs)
    if name not in inputs:
        raise UserFactError(
            where=where_input(name),
            found="the model has no input of that name",
            expected=f"one of its inputs: {', '.join(inputs) or 'none'}",
            fix="give shapes by the model's input names",
        )
    for size in shape:
        _require_size(where_input(name), size)
    dims = ranked.get(name)
    if dims is not None and len(dims) != len(shape):
        declared = "[" + ", ".join(str(d) for d in dims) + "]"
        raise UserFactError(
            where=where_input(name),
            found=f"the shape given has rank {len(shape)}",
            expected=f"rank {len(dims)} (declared {declared})",
            fix=f"give {len(dims)} sizes for it",
        )


def _require_size(where: str, size: object) -> None:
    if isinstance(size, bool) or not isinstance(size, int) or size < 0:
        raise UserFactError(
            where=where,
            found=f"size {size!r} is not an integer >= 0",
            expected="sizes that are integers >= 0",
            fix="give whole, non-negative sizes",
        )


def _require_values(analysis: Analysis, env: Mapping[str, int], shapes: Shapes) -> None:
    """Every free symbol the declared inputs mention must have a size from some given shape."""
    for name, dims in _ranked_inputs(analysis).items():
        if name in shapes:
            continue
        for axis, d in enumerate(dims):
            if free_symbols(analysis.public(d)) - env.keys():
                raise UserFactError(
                    where=where_input(name, f"dim {axis}"),
                    found="no shape was given for it and no other input fixes its size",
                    expected="a shape for every input with a dynamic dim",
                    fix=f"give its shape too, e.g. {name}=" + "x".join("N" for _ in dims),
                )


def _binding(
    analysis: Analysis, at: tuple[str, int] | None, declared: Dim, size: int, out: Assignment
) -> Violation | None:
    """The declared dim (or symbol) ``declared`` given ``size``: None when its value under the
    assignment is ``size``."""
    value = analysis.public(declared)
    try:
        expected = evaluate(value, out.env)
    except (KeyError, ZeroDivisionError):
        return None  # over a symbol no size fixes (counted, not decidable)
    if expected == size:
        return None
    place = f"input '{at[0]}' dim {at[1]}" if at else f"symbol '{declared}'"
    if isinstance(declared, int):
        return Violation(
            SHAPE,
            place,
            f"{place} == {declared}",
            f"{size} == {declared}",
            f"give {place} the size {declared} (the model declares it)",
        )
    name = as_symbol(declared)
    if name is not None and value is sym(name) and name in out.where:
        return Violation(
            BINDING,
            f"both are '{name}'",
            f"{place} == {out.where[name]}",
            f"{size} == {expected}",
            f"give {place} the same size as {out.where[name]}",
        )
    bound = analysis.graph.binding(name) if name is not None else None
    origin = str(bound[1]) if bound is not None else place
    return Violation(
        BINDING, origin, f"{declared} == {value}", f"{size} == {expected}", f"give {place} the size {expected}"
    )
