"""`optimize_model` and `optimize_file`: the passes in order, on a model or a file."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import onnx

from symshape.algebra.atoms import Sym
from symshape.algebra.expr import Dim, Expr
from symshape.engine.result import Analysis
from symshape.engine.userfacts import Fact
from symshape.frontends.onnx.external_data import relocate_external_data
from symshape.frontends.onnx.reader import elem_types, load_model, model_to_program
from symshape.io import refuse_overwrite, write_bytes_atomic, write_failed
from symshape.memory import gc_paused
from symshape.rules.walker import ProgressFn, analyze
from symshape.tools.optimize.emit import FRESH_PREFIX, Emitter, Source
from symshape.tools.optimize.graph_edit import pinned_names
from symshape.tools.optimize.graph_view import GraphView
from symshape.tools.optimize.guarded import GuardCheck
from symshape.tools.optimize.passes import PASSES, Run
from symshape.tools.optimize.shapes_out import ShapeWriter
from symshape.tools.optimize.summary import Summary, shape_nodes
from symshape.tools.optimize.types import TypeInference

MIN_IR_FREE_INITIALIZERS = 4  # before IR 4 every initializer had to be a graph input too
MIN_OPSET_FOR_CHAINS = 13  # Squeeze takes its axes as an input from opset 13


def optimize_model(
    model: onnx.ModelProto, facts: Sequence[Fact | str] = (), progress: ProgressFn | None = None
) -> tuple[onnx.ModelProto, Summary]:
    """A copy of ``model`` with known shape values folded, proven no-ops removed, dead nodes
    dropped and every value's shape written as value_info. ``facts`` are assumed true of every
    input the optimized model will see (the summary says which guards were in play)."""
    inference = TypeInference(model)  # runs while the analysis does
    with gc_paused():
        program = model_to_program(model)
    result = analyze(program, facts=facts, progress=progress)
    return optimize_with(model, result, inference.types())


def optimize_with(
    model: onnx.ModelProto, result: Analysis, types: dict[str, int] | None = None
) -> tuple[onnx.ModelProto, Summary]:
    """`optimize_model` given the analysis of ``model`` (and its element types, when known).
    Folding is kept only when it makes the model smaller: an export whose shape computation is
    already minimal (the dynamo exporter's ``Shape(start, end)`` per dim) would otherwise get a
    second one."""
    with gc_paused():  # the passes allocate many short-lived objects beside the analysis's many long-lived ones
        return _optimize_with(model, result, elem_types(model, isolated=True) if types is None else types)


def _optimize_with(model: onnx.ModelProto, result: Analysis, types: dict[str, int]) -> tuple[onnx.ModelProto, Summary]:
    shapes = ShapeWriter(model, result)  # in a forked child while the passes run, where that is safe
    before = shape_nodes(model, types)
    best = _passes(model, result, types, fold=True)
    if best[1].values_folded and 2 * best[1].shape_nodes_after > before:  # folding did not clearly win
        plain = _passes(model, result, types, fold=False)
        if (plain[1].nodes_after, plain[1].shape_nodes_after) < (best[1].nodes_after, best[1].shape_nodes_after):
            plain[1].fold_skipped = True
            best = plain
    out, summary = best
    summary.shape_nodes_before = before
    summary.annotated = shapes.write_into(out.graph, types, summary.reshaped)
    return out, summary


def _passes(
    model: onnx.ModelProto, result: Analysis, types: dict[str, int], *, fold: bool
) -> tuple[onnx.ModelProto, Summary]:
    out = onnx.ModelProto()
    out.CopyFrom(model)
    graph = out.graph
    view = GraphView(graph)
    summary = Summary(nodes_before=len(graph.node))
    guard = GuardCheck(graph, result)
    summary.guards = [cond for cond, _, _ in guard.guards]
    run = Run(view, result, types, guard, _emitter(out, result, view), summary,
              pinned=pinned_names(graph, view.nodes),  # outputs and captures: the passes change neither
              opset=_opset(out), free_initializers=out.ir_version >= MIN_IR_FREE_INITIALIZERS, fold=fold)
    for p in PASSES:
        if p.applies(run):
            p.run(run)
    view.write_back()
    summary.nodes_after = len(graph.node)
    summary.shape_nodes_after = shape_nodes(out, _types_after(graph, types))
    return out, summary


def _types_after(graph: onnx.GraphProto, types: dict[str, int]) -> dict[str, int]:
    """Element types after the passes: the original ones, int64 for every value made here (all
    shape values), and the initializers'."""
    after = dict(types)
    for node in graph.node:
        if node.name.startswith("symshape_opt/"):
            after.update(dict.fromkeys(node.output, onnx.TensorProto.INT64))
    after.update({t.name: t.data_type for t in graph.initializer})
    return after


@dataclass(frozen=True)
class Analyzed:
    """A model read from ``path`` (weights left in their files), its analysis, and onnx's type
    inference of it, running since the model was read."""

    path: Path
    model: onnx.ModelProto
    result: Analysis
    inference: TypeInference


def optimize_file(
    path: Path, out: Path, *, facts: Sequence[Fact | str] = (), progress: ProgressFn | None = None
) -> tuple[Summary, Analysis]:
    """Optimize the model at ``path`` and write it atomically to ``out`` (never over the input);
    external weights are not loaded: the output points at the original files. Returns the
    summary and the analysis it rests on."""
    analyzed = analyze_file(path, out, facts=facts, progress=progress)
    return write_optimized(analyzed, out), analyzed.result


def analyze_file(
    path: Path, out: Path, *, facts: Sequence[Fact | str] = (), progress: ProgressFn | None = None
) -> Analyzed:
    """The first half of `optimize_file`: refuse ``out`` if it is the input, read and analyze
    (the command line's progress bar covers this half only)."""
    if Path(out).resolve() == Path(path).resolve():
        raise refuse_overwrite(out, path, "input model")
    model = load_model(path)
    inference = TypeInference(model)  # runs while the analysis does
    with gc_paused():
        program = model_to_program(model)
    result = analyze(program, facts=facts, progress=progress, source=str(path))
    return Analyzed(Path(path), model, result, inference)


def write_optimized(analyzed: Analyzed, out: Path) -> Summary:
    """The second half of `optimize_file`: optimize and write atomically."""
    optimized, summary = optimize_with(analyzed.model, analyzed.result, analyzed.inference.types())
    relocate_external_data(optimized, analyzed.path.parent, Path(out).parent)
    try:
        write_bytes_atomic(Path(out), optimized.SerializeToString())
    except OSError as err:
        raise write_failed(out, err) from None
    return summary


def _emitter(model: onnx.ModelProto, result: Analysis, view: GraphView) -> Emitter:
    graph = model.graph
    initialized = {t.name for t in graph.initializer}
    sources: dict[str, Source] = {}
    ranks: dict[str, int] = {}
    opset = _opset(model)
    for vi in graph.input:
        dims = result.shape_or_none(vi.name)
        if vi.name in initialized or dims is None:
            continue
        ranks[vi.name] = len(dims)
        for axis, d in enumerate(dims):
            name = _symbol(d)
            if name is not None and opset >= MIN_OPSET_FOR_CHAINS:
                sources.setdefault(name, (vi.name, axis))
    names = [n.name for n in view.nodes] + [o for n in view.nodes for o in n.output]
    names += [*initialized, *(vi.name for vi in graph.input), *(vi.name for vi in graph.output)]
    taken = {n for n in names if n.startswith(FRESH_PREFIX)}  # only these can collide with new names
    facts = result.graph.facts
    return Emitter(sources, ranks, lambda d: facts.prove_ge(result.private(d)), taken)


def _symbol(d: Dim) -> str | None:
    if isinstance(d, Expr) and len(d.terms) == 1:
        mono, coeff = d.terms[0]
        if coeff == 1 and len(mono) == 1 and isinstance(mono[0], Sym):
            return mono[0].name
    return None


def _opset(model: onnx.ModelProto) -> int:
    return next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 0)
