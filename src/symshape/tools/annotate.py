"""Write an analysis back into an ONNX model as ``value_info`` (``symshape annotate``).

Dims become ints or ``dim_param`` strings in sympy syntax over the input symbols, the
convention of onnxruntime's symbolic shape inference. A graph output whose declared dim name is
proven equal to the computed dim keeps its name; a data-dependent symbol that a graph output
declares a name for takes that name everywhere. Weights are never loaded; external data keeps
pointing at the original files.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import onnx

from symshape.algebra.expr import Dim, Expr, as_symbol, subs, sym
from symshape.algebra.parse import is_identifier, parse_dim
from symshape.engine.result import Analysis
from symshape.engine.userfacts import Fact
from symshape.frontends.onnx.external_data import relocate_external_data
from symshape.frontends.onnx.reader import elem_types, load_model, model_to_program
from symshape.io import refuse_overwrite, write_bytes_atomic, write_failed
from symshape.rules.walker import ProgressFn, analyze

INT64_MAX = 2**63 - 1  # the largest dim_value ONNX's protobuf holds


def annotate_file(
    path: Path,
    out: Path,
    *,
    facts: Sequence[Fact | str] = (),
    progress: ProgressFn | None = None,
    guards: bool = False,
) -> str:
    """Analyze ``path`` and write the annotated model to ``out``; returns a one-line summary.
    With ``guards``, every requirement is also written as nodes that fail at run time
    (`symshape.tools.guard_nodes`)."""
    if Path(out).resolve() == Path(path).resolve():
        raise refuse_overwrite(out, path, "input model")
    model = load_model(path)
    result = analyze(model_to_program(model), facts=facts, progress=progress, source=str(path))
    written = annotate_model(model, result)
    in_model = ""
    if guards:
        from symshape.tools.guard_nodes import add_guard_nodes

        added = add_guard_nodes(model, result)
        left = f" ({len(added.left_out)} left out: {'; '.join(added.left_out[:3])})" if added.left_out else ""
        in_model = f"; {added.written} requirements written as run-time checks{left}"
    relocate_external_data(model, Path(path).parent, Path(out).parent)
    try:
        write_bytes_atomic(Path(out), model.SerializeToString())
    except OSError as err:
        raise write_failed(out, err) from None
    kinds = result.dim_kinds()
    return (
        f"wrote {out}: {written} values annotated; {kinds['static']} static dims, "
        f"{kinds['symbolic']} symbolic, {kinds['fresh']} fresh; {len(result.guards())} guards{in_model}"
    )


def annotate_model(
    model: onnx.ModelProto, result: Analysis, types: dict[str, int] | None = None, *, untyped: bool = False
) -> int:
    """Set value_info / output shapes of ``model`` from ``result`` in place; returns the count.

    ``types``: the values' element types where the caller knows them; else onnx's inference
    finds them (in a child interpreter, ~0.25 s). A value whose type is not known gets no
    value_info (onnxruntime refuses an element type of 0), unless ``untyped`` (the caller sets
    the types after)."""
    graph = model.graph
    rename = _declared_output_names(graph, result)
    if types is None:
        types = elem_types(model, isolated=True)
    inputs = {vi.name for vi in graph.input}
    outputs = {vi.name: vi for vi in graph.output}
    kept = [vi for vi in graph.value_info if result.shape_or_none(vi.name) is None]
    del graph.value_info[:]
    graph.value_info.extend(kept)
    # the values inside inlined function bodies (`model_to_program` inlines them) are not the graph's
    outside = {o for n in graph.node for o in n.output} if model.functions else None
    count = 0
    for name in result.value_names():
        if name in inputs or outside is not None and name not in outside:
            continue
        dims = result.shape_or_none(name)
        assert dims is not None
        if name in outputs:
            vi = outputs[name]
            declared = _declared_dims(vi)
            _set_dims(
                vi,
                [_dim_text(d, rename, declared[i] if i < len(declared) else None, result) for i, d in enumerate(dims)],
            )
        elif untyped or types.get(name, onnx.TensorProto.UNDEFINED):  # onnxruntime refuses elem_type 0
            vi = graph.value_info.add()
            vi.name = name
            vi.type.tensor_type.elem_type = types.get(name, onnx.TensorProto.UNDEFINED)
            _set_dims(vi, [_dim_text(d, rename, None, result) for d in dims])
        else:
            continue
        count += 1
    return count


def _declared_dims(vi: onnx.ValueInfoProto) -> list[str | None]:
    t = vi.type.tensor_type
    if not t.HasField("shape"):
        return []
    return [d.dim_param if d.HasField("dim_param") else None for d in t.shape.dim]


def _declared_output_names(graph: onnx.GraphProto, result: Analysis) -> dict[str, Dim]:
    """Fresh symbols that a graph output declares a name for, renamed to that name."""
    taken = set(result.symbols())
    rename: dict[str, Dim] = {}
    for vi in graph.output:
        dims = result.shape_or_none(vi.name) or ()
        for d, declared in zip(dims, _declared_dims(vi), strict=False):
            name = as_symbol(d)
            if (
                declared
                and name
                and is_identifier(declared)
                and declared not in taken
                and result.symbols().get(name, {}).get("kind") in ("derived", "data")
                and name not in rename
            ):
                rename[name] = sym(declared)
                taken.add(declared)
    return rename


def _dim_text(d: Dim, rename: dict[str, Dim], declared: str | None, result: Analysis) -> int | str:
    d = subs(d, rename) if isinstance(d, Expr) else d
    if isinstance(d, int):
        return d
    if declared:
        try:
            parsed = parse_dim(declared)
        except Exception:  # noqa: BLE001 - an unparsable label is just not kept
            parsed = None
        if parsed is d:
            return declared
    return str(d)


def _set_dims(vi: onnx.ValueInfoProto, dims: list[int | str]) -> None:
    shape = vi.type.tensor_type.shape
    del shape.dim[:]
    for d in dims:
        dim = shape.dim.add()
        if isinstance(d, int) and 0 <= d <= INT64_MAX:
            dim.dim_value = d
        else:  # a symbol, or a number no int64 dim_value holds (an overflowing model): a label
            dim.dim_param = str(d)
