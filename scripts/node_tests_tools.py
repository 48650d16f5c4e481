"""Compare symshape with the other shape tools on ONNX's backend node tests, dim by dim.

The cases, variants and counting are those of ``scripts/node_tests.py``; each output dim of each
data set gets one verdict per tool:

- ``symshape``: ``symshape.api.analyze_onnx``;
- ``onnx``: ``onnx.shape_inference.infer_shapes(model, data_prop=True)``;
- ``ort``: onnxruntime's ``SymbolicShapeInference.infer_shapes(model, auto_merge=True)`` (run as in
  ``benchmarks/tools.py``, minus its final raise, so partial results count);
- ``osi``: the ``onnx-shape-inference`` package (the ``bench`` extra), when installed.

A tool's dim is ``exact`` when it is a number equal to the expected size, or a ``dim_param`` that
parses (``symshape.algebra.parse.parse_dim``, sympy as a fallback) to an expression over the input symbols
``in<k>_d<axis>`` only and evaluates to the expected size under the data set's binding. A name the
tool invented (ORT's ``unk__3``, a fresh onnx symbol) is ``unresolved``: consistent, maybe, but not
a function of the inputs. A number or expression of a different value, or a wrong rank, is
``wrong``; a tool that raises leaves every dim of the case ``unresolved`` (``error`` for symshape).

``best`` is exact where any of the other tools is; the report gives each tool, ``best`` and the
dims where some other tool is exact and symshape is not, per op (``--gaps``).

Usage: ``python scripts/node_tests_tools.py [--variant shipped|symbolic|both] [--tools onnx,ort,osi]
[--gaps] [--show OP]``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import onnx

sys.path.insert(0, str(Path(__file__).resolve().parent))
import node_tests as nt  # noqa: E402 - the sibling script, found through the path set above

from symshape.algebra.expr import Expr, evaluate  # noqa: E402
from symshape.algebra.parse import parse_dim  # noqa: E402

OTHERS = ("onnx", "ort", "osi")
Dims = list[Any] | None  # per output: a list of int | str | Expr | None, or None (no rank)


# ----------------------------------------------------------------------------- the tools
def _proto_dims(vi: onnx.ValueInfoProto) -> Dims:
    tt = nt._tensor_dims(vi)  # noqa: SLF001 - the same reading of sequence/optional types
    if tt is None or not tt.HasField("shape"):
        return None
    return [
        int(d.dim_value) if d.HasField("dim_value") else (d.dim_param or None) if d.HasField("dim_param") else None
        for d in tt.shape.dim
    ]


def run_symshape(model: onnx.ModelProto, outputs: Sequence[str]) -> dict[str, Dims]:
    """symshape's claimed output dims (Expr or int)."""
    from symshape.api import analyze_onnx

    analysis = analyze_onnx(model)
    found: dict[str, Dims] = {}
    for name in outputs:
        shape = analysis.shape_or_none(name)
        found[name] = None if shape is None else list(shape)
    return found


def run_onnx(model: onnx.ModelProto, outputs: Sequence[str]) -> dict[str, Dims]:
    """ONNX's C++ inference with data propagation."""
    inferred = onnx.shape_inference.infer_shapes(model, data_prop=True)
    g = inferred.graph
    return {vi.name: _proto_dims(vi) for vi in [*g.value_info, *g.output] if vi.name in outputs}


def run_ort(model: onnx.ModelProto, outputs: Sequence[str]) -> dict[str, Dims]:
    """onnxruntime's symbolic shape inference, auto_merge on, partial results kept."""
    from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference

    sym = SymbolicShapeInference(2**31 - 1, True, False, 0)
    with contextlib.suppress(Exception):
        sym._preprocess(model)  # noqa: SLF001 - the public static method's steps, minus its raise
        while sym.run_:
            sym._infer_impl()  # noqa: SLF001
    known = getattr(sym, "known_vi_", {})
    return {name: _proto_dims(known[name]) for name in outputs if name in known}


def run_osi(model: onnx.ModelProto, outputs: Sequence[str]) -> dict[str, Dims]:
    """onnx-shape-inference on onnx_ir, default (refine) policy."""
    import onnx_ir as ir
    from onnx_shape_inference import infer_symbolic_shapes

    irm = ir.from_proto(model)
    infer_symbolic_shapes(irm)
    found: dict[str, Dims] = {}
    for v in irm.graph.outputs:
        if v.name in outputs and v.shape is not None:
            found[v.name] = [d if isinstance(d, int) else getattr(d, "value", None) for d in v.shape.dims]
    return found


RUNNERS: dict[str, Callable[[onnx.ModelProto, Sequence[str]], dict[str, Dims]]] = {
    "symshape": run_symshape,
    "onnx": run_onnx,
    "ort": run_ort,
    "osi": run_osi,
}


def available(tools: Sequence[str]) -> list[str]:
    """The tools among ``tools`` whose package imports."""
    modules = {"onnx": "onnx", "ort": "onnxruntime.tools.symbolic_shape_infer", "osi": "onnx_shape_inference"}
    found: list[str] = []
    for tool in tools:
        try:
            __import__(modules.get(tool, "symshape"))
        except ImportError:
            print(f"# {tool}: not installed, skipped", file=sys.stderr)
            continue
        found.append(tool)
    return found


# ----------------------------------------------------------------------------- scoring
_PARSED: dict[str, Any] = {}


def _parse(text: str) -> Any:
    """A dim_param as a symshape Dim, a sympy expression, or None (unparsable: an opaque name)."""
    if text not in _PARSED:
        try:
            _PARSED[text] = parse_dim(text)
        except Exception:  # noqa: BLE001 - not symshape syntax: try sympy
            try:
                import sympy

                _PARSED[text] = sympy.sympify(text)
            except Exception:  # noqa: BLE001
                _PARSED[text] = None
    return _PARSED[text]


def verdict(dim: Any, size: int, env: Mapping[str, int]) -> str:
    """``exact``, ``wrong`` or ``unresolved`` for one claimed dim against the expected size."""
    if dim is None:
        return "unresolved"
    if isinstance(dim, int):
        return "exact" if dim == size else "wrong"
    parsed = dim if isinstance(dim, Expr) else _parse(str(dim))
    if parsed is None:
        return "unresolved"
    if isinstance(parsed, int):
        return "exact" if parsed == size else "wrong"
    free = parsed.free if isinstance(parsed, Expr) else frozenset(str(s) for s in parsed.free_symbols)
    if not free <= env.keys():
        return "unresolved"
    try:
        value = evaluate(parsed, dict(env)) if isinstance(parsed, Expr) else parsed.subs(dict(env))
        value = int(value) if not isinstance(value, int) and value.is_integer else value
    except Exception:  # noqa: BLE001 - division by zero and the like: not a size
        return "wrong"
    return "exact" if value == size else "wrong"


def case_verdicts(
    case: Any, variant_name: str, tools: Sequence[str], *, first: bool = False
) -> list[tuple[str, dict[str, str]]]:
    """Per output dim of every data set (``first``: of the first only): (label, {tool: verdict})."""
    data_sets = case.data_sets[:1] if first or variant_name in nt.DIAGNOSTICS else case.data_sets
    model = nt.variant(case.model, variant_name, data_sets[0][0] if data_sets else ())
    names = [o.name for o in model.graph.output]
    claimed: dict[str, dict[str, Dims] | None] = {}
    for tool in tools:
        sink = io.StringIO()
        try:
            with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
                claimed[tool] = RUNNERS[tool](model, names)
        except Exception:  # noqa: BLE001 - a tool's failure is an outcome
            claimed[tool] = None
    input_names = [vi.name for vi in case.model.graph.input]
    rows: list[tuple[str, dict[str, str]]] = []
    for inputs, outputs in data_sets:
        env = nt.bindings(model, dict(zip(input_names, inputs, strict=False)))
        for name, value in zip(names, outputs, strict=False):
            shape = nt._shape_of(value)  # noqa: SLF001
            if shape is None:
                continue
            for axis, size in enumerate(shape):
                verdicts = {tool: _dim_verdict(tool, claimed[tool], name, shape, axis, env) for tool in tools}
                rows.append((f"{case.name} '{name}' dim {axis} = {size}: {_show(claimed, name, axis)}", verdicts))
    return rows


def _dim_verdict(
    tool: str, found: dict[str, Dims] | None, name: str, shape: tuple[int, ...], axis: int, env: Mapping[str, int]
) -> str:
    """One tool's verdict on dim ``axis`` of output ``name`` (``found``: None when the tool raised)."""
    if found is None:
        return "error" if tool == "symshape" else "unresolved"
    dims = found.get(name)
    if dims is None:
        return "unresolved"
    if len(dims) != len(shape):
        return "wrong"
    return verdict(dims[axis], shape[axis], env)


def _show(claimed: Mapping[str, dict[str, Dims] | None], name: str, axis: int) -> str:
    parts: list[str] = []
    for tool, found in claimed.items():
        dims = None if found is None else found.get(name)
        parts.append(f"{tool}={dims[axis] if dims is not None and axis < len(dims) else '?'}")
    return " ".join(parts)


# ----------------------------------------------------------------------------- report
def measure(variant_name: str, cases: Sequence[Any], tools: Sequence[str]) -> dict[str, Any]:
    """Per tool and per op the verdict counts, plus the gap examples (others exact, symshape not)."""
    counts: dict[str, Counter[str]] = {t: Counter[str]() for t in [*tools, "best", "any"]}
    gaps: dict[str, list[str]] = {}
    others = [t for t in tools if t != "symshape"]
    for case in cases:
        op = nt.case_op(case)
        for label, v in case_verdicts(case, variant_name, tools):
            for tool in tools:
                counts[tool][v[tool]] += 1
            best = "exact" if any(v[t] == "exact" for t in others) else "other"
            counts["best"][best] += 1
            counts["any"]["exact" if best == "exact" or v.get("symshape") == "exact" else "other"] += 1
            if best == "exact" and v.get("symshape") != "exact":
                gaps.setdefault(op, []).append(label)
    return {"counts": counts, "gaps": gaps}


def report(variant_name: str, result: Mapping[str, Any], *, gaps: bool, show: str | None) -> list[str]:
    """The table (one row per tool), then the gap counts per op."""
    lines = [f"== {variant_name}", f"{'tool':<10} {'dims':>6} {'exact':>6} {'frac':>7} {'wrong':>6} {'error':>6}"]
    for tool, c in result["counts"].items():
        total = sum(c.values())
        frac = 100 * c["exact"] / total if total else 100.0
        lines.append(f"{tool:<10} {total:>6} {c['exact']:>6} {frac:>6.1f}% {c['wrong']:>6} {c['error']:>6}")
    lines.append("(best: exact where any other tool is; any: where symshape or another tool is)")
    if gaps:
        for op, items in sorted(result["gaps"].items(), key=lambda kv: -len(kv[1])):
            lines.append(f"  gap {op}: {len(items)}")
            if show in (op, "all"):
                lines.extend(f"      {x}" for x in items[:12])
    return lines


def ceiling(cases: Sequence[Any]) -> list[str]:
    """What the inputs' values decide, per op, from symshape's verdicts on each case's first data set.

    Per variant pair (``shipped`` / ``values``, ``symbolic`` / ``symbolic+values``): ``exact``,
    ``by values`` (exact only once the small inputs are constants: their values, and in the symbolic
    pair their shapes, decide the dim) and ``not even`` (unresolved with the values too: a size the
    data decides, such as NonZero's count, or a rule that gives up).
    """
    lines: list[str] = []
    for plain, with_values in (("shipped", "values"), ("symbolic", "symbolic+values")):
        per_op: dict[str, Counter[str]] = {}
        for case in cases:
            a = case_verdicts(case, plain, ["symshape"], first=True)
            b = case_verdicts(case, with_values, ["symshape"], first=True)
            c = per_op.setdefault(nt.case_op(case), Counter[str]())
            for (_, va), (_, vb) in zip(a, b, strict=True):
                x, y = va["symshape"] == "exact", vb["symshape"] == "exact"
                c["dims"] += 1
                c["exact" if x else "by values" if y else "not even"] += 1
                c["lost"] += x and not y
        lines += [f"== {plain} vs {with_values}", f"{'op':<28} {'dims':>6} {'exact':>6} {'values':>6} {'not':>6}"]
        total = Counter[str]()
        for op, c in sorted(per_op.items(), key=lambda kv: -kv[1]["by values"] - kv[1]["not even"]):
            total.update(c)
            if c["exact"] != c["dims"]:
                lines.append(f"{op:<28} {c['dims']:>6} {c['exact']:>6} {c['by values']:>6} {c['not even']:>6}")
        n = total["dims"]
        lines.append(f"{'overall':<28} {n:>6} {total['exact']:>6} {total['by values']:>6} {total['not even']:>6}")
        lines.append(
            f"exact {100 * total['exact'] / n:.1f}%; at most {100 * (n - total['by values']) / n:.1f}% without the "
            f"values (every dim but those they decide; 'not' holds data-dependent sizes); "
            f"exact only without the values: {total['lost']}"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--variant", choices=[*nt.VARIANTS, *nt.DIAGNOSTICS, "both"], default="both")
    parser.add_argument("--tools", default=",".join(OTHERS), help="comma-separated: onnx, ort, osi")
    parser.add_argument("--gaps", action="store_true", help="count per op the dims others get and symshape not")
    parser.add_argument("--show", metavar="OP", help="list the gap dims of OP ('all': every op)")
    parser.add_argument("--ceiling", action="store_true", help="per op, the dims the inputs' values decide")
    args = parser.parse_args(argv)
    tools = ["symshape", *available([t for t in args.tools.split(",") if t])]
    cases = nt.node_cases()
    if args.ceiling:
        print("\n".join(ceiling(cases)))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        here = os.getcwd()
        os.chdir(tmp)  # ORT may drop a temporary model in the working directory
        try:
            for name in nt.VARIANTS if args.variant == "both" else (args.variant,):
                print("\n".join(report(name, measure(name, cases, tools), gaps=args.gaps, show=args.show)))
                sys.stdout.flush()
        finally:
            os.chdir(here)
    return 0


if __name__ == "__main__":
    sys.exit(main())
