"""Shape computations as exporters write them, against onnxruntime: every intermediate shape
value's tracked elements and every tensor's dims are compared at each sample.

Shape -> Gather -> Unsqueeze -> Concat -> Reshape (split and merge heads), Shape -> Slice ->
ConstantOfShape (masks), Range from a Shape (positions, causal masks), integer Div/Mod on shape
values (pad to a multiple, patches), a KV cache concat, torch's expand(-1) Where pattern, and
Size/ReduceProd element counts.
"""

from __future__ import annotations

import pytest
from onnx import TensorProto, helper

from tests.oracle import const, tensor
from tests.rules.onnx.test_op_coverage import Row, row, run_row

F, I32, I64, B = TensorProto.FLOAT, TensorProto.INT32, TensorProto.INT64, TensorProto.BOOL
BIG = 2**63 - 1
node = helper.make_node
BS = [{"b": 2, "s": 3}, {"b": 1, "s": 1}, {"b": 0, "s": 4}, {"b": 3, "s": 0}, {"b": 2, "s": 7}]


def dim(x: str, axis: int, out: str) -> list[helper.NodeProto]:
    """``out = x.shape[axis]`` as a 1-element int64 vector (Shape -> Gather -> Unsqueeze)."""
    return [node("Shape", [x], [f"{out}_shape"]), node("Gather", [f"{out}_shape", f"i{axis}"], [f"{out}_scalar"]),
            node("Unsqueeze", [f"{out}_scalar", "zero1"], [out])]


def twins(id: str, nodes: list[helper.NodeProto], inputs: list[object], samples: list[dict[str, int]],
          inits: list[object] = (), *, facts: list[str] = (), edge: dict[str, int], why: str,
          guarded: bool = False) -> list[object]:
    """A row whose samples keep a Reshape's computed target elements >= 1, and a twin at an edge
    where an element is 0 and copies an input dim of the same size, so the answer is exact there
    too; ``guarded`` marks a twin still answered under the guard (expected to fail, issue 14)."""
    xfail = f"issue 14: a computed Reshape element that may be 0 is guarded >= 1; {why}" if guarded else ""
    return [row(id, nodes, inputs, samples, inits, facts=facts),
            row(f"{id}-at-{'-'.join(f'{k}{v}' for k, v in edge.items())}", nodes, inputs, [*samples, edge], inits,
                facts=facts, xfail=xfail)]


AXES = [const("i0", 0), const("i1", 1), const("i2", 2), const("i3", 3), const("zero1", [0])]

HEADS = [
    row("split-heads-gather-unsqueeze-concat-reshape-transpose",
        [*dim("x", 0, "b"), *dim("x", 1, "s"), node("Concat", ["b", "s", "h_d"], ["target"], axis=0),
         node("Reshape", ["x", "target"], ["heads"]), node("Transpose", ["heads"], ["y"], perm=[0, 2, 1, 3])],
        [tensor("x", ["b", "s", 16])], BS, [*AXES, const("h_d", [2, 8])]),
    row("merge-heads-shape-slice-concat-minus1",
        [node("Transpose", ["x"], ["t"], perm=[0, 2, 1, 3]), node("Shape", ["t"], ["ts"]),
         node("Slice", ["ts", "zero1", "two"], ["bs"]), node("Concat", ["bs", "m1"], ["target"], axis=0),
         node("Reshape", ["t", "target"], ["y"])],
        [tensor("x", ["b", 2, "s", 8])], [s for s in BS if s["b"] and s["s"]],  # -1 needs b*s != 0
        [const("zero1", [0]), const("two", [2]), const("m1", [-1])]),
    row("merge-heads-shape-start-end-attrs", [node("Shape", ["x"], ["bs"], end=-2),
                                              node("Concat", ["bs", "width"], ["target"], axis=0),
                                              node("Reshape", ["x", "target"], ["y"])],
        [tensor("x", ["b", "s", 2, 8])], BS, [const("width", [16])]),
    *twins("flatten-by-size-div-batch", [node("Size", ["x"], ["n"]), *dim("x", 0, "b"),
                                         node("Div", ["n", "b_scalar"], ["rest"]),
                                         node("Unsqueeze", ["rest", "zero1"], ["rest1"]),
                                         node("Concat", ["b", "rest1"], ["target"], axis=0),
                                         node("Reshape", ["x", "target"], ["y"])],
           [tensor("x", ["b", "s", 3])], [s for s in BS if s["b"] and s["s"]], AXES, facts=["b >= 1"],
           edge={"b": 3, "s": 0}, why="target [b, 3*s] at s = 0 copies dim 1 (s = 0): the dim is 3*s either way"),
    *twins("numel-by-reduceprod-of-shape", [node("Shape", ["x"], ["sh"]),
                                            node("ReduceProd", ["sh"], ["n"], keepdims=1),
                                            node("Reshape", ["x", "n"], ["y"])],
           # at s = 0 < b the target [0] copies b: onnxruntime rejects the size, as it should
           [tensor("x", ["b", "s", 3])], [s for s in BS if s["s"] and s["b"]], edge={"b": 0, "s": 4},
           why="target [3*b*s] at b = 0 copies dim 0 (b = 0): the dim is 3*b*s wherever the model runs"),
]

MASKS = [
    row("mask-shape-slice-constantofshape", [node("Shape", ["x"], ["sh"]),
                                             node("Slice", ["sh", "zero1", "two"], ["bs"]),
                                             node("ConstantOfShape", ["bs"], ["y"],
                                                  value=helper.make_tensor("one", I64, [1], [1]))],
        [tensor("x", ["b", "s", 4])], BS, [const("zero1", [0]), const("two", [2])]),
    row("position-ids-range-unsqueeze-expand", [*dim("x", 1, "s"), node("Range", ["zero", "s_scalar", "one"], ["pos"]),
                                                node("Unsqueeze", ["pos", "zero1"], ["pos1"]),
                                                node("Shape", ["x"], ["sh"]),
                                                node("Slice", ["sh", "zero1", "two"], ["bs"]),
                                                node("Expand", ["pos1", "bs"], ["y"])],
        [tensor("x", ["b", "s", 4])], BS, [*AXES, const("zero", 0), const("one", 1), const("two", [2])]),
    row("causal-mask-range-less-where", [*dim("x", 1, "s"), node("Range", ["zero", "s_scalar", "one"], ["r"]),
                                         node("Unsqueeze", ["r", "one1"], ["col"]),
                                         node("Unsqueeze", ["r", "zero1"], ["rowv"]),
                                         node("Less", ["col", "rowv"], ["future"]),
                                         node("Where", ["future", "ninf", "zf"], ["y"])],
        [tensor("x", ["b", "s", 4])], BS,
        [*AXES, const("zero", 0), const("one", 1), const("one1", [1]),
         helper.make_tensor("ninf", F, [], [-1e9]), helper.make_tensor("zf", F, [], [0.0])]),
    row("causal-mask-constantofshape-trilu", [*dim("x", 1, "s"), node("Concat", ["s", "s"], ["ss"], axis=0),
                                              node("ConstantOfShape", ["ss"], ["full"],
                                                   value=helper.make_tensor("v", F, [1], [1.0])),
                                              node("Trilu", ["full", "one"], ["y"])],
        [tensor("x", ["b", "s", 4])], BS, [*AXES, const("one", 1)]),
    row("attention-mask-unsqueeze-cast-sub-mul", [node("Unsqueeze", ["m", "ax12"], ["m4"]),
                                                  node("Cast", ["m4"], ["mf"], to=F),
                                                  node("Sub", ["onef", "mf"], ["inv"]),
                                                  node("Mul", ["inv", "big"], ["y"])],
        [tensor("m", ["b", "t"], I64)], [{"b": 2, "t": 5}, {"b": 1, "t": 1}, {"b": 0, "t": 3}, {"b": 2, "t": 0}],
        [const("ax12", [1, 2]), helper.make_tensor("onef", F, [], [1.0]), helper.make_tensor("big", F, [], [-1e4])]),
]

CACHE = [
    row("kv-cache-concat-then-range-over-total", [node("Concat", ["past", "new"], ["kv"], axis=2),
                                                  *dim("kv", 2, "t"), node("Range", ["zero", "t_scalar", "one"],
                                                                           ["y"])],
        [tensor("past", ["b", 2, "p", 8]), tensor("new", ["b", 2, "s", 8])],
        [{"b": 2, "p": 4, "s": 1}, {"b": 1, "p": 0, "s": 3}, {"b": 0, "p": 2, "s": 2}, {"b": 1, "p": 1, "s": 0}],
        [*AXES, const("zero", 0), const("one", 1)]),
    row("kv-cache-slice-mask-rows-p-to-p+s", [*dim("past", 2, "p"), *dim("new", 2, "s"),
                                              node("Add", ["p", "s"], ["t"]),
                                              node("Slice", ["mask", "p", "t", "zero1"], ["y"])],
        [tensor("past", ["b", 2, "p", 8]), tensor("new", ["b", 2, "s", 8]), tensor("mask", ["m", "m"])],
        [{"b": 1, "p": 4, "s": 1, "m": 5}, {"b": 1, "p": 0, "s": 3, "m": 3}, {"b": 2, "p": 2, "s": 2, "m": 6}],
        AXES, facts=["m >= p + s"]),
]

ARITH = [
    row("pad-to-multiple-of-4-mod-sub-mod", [*dim("x", 3, "w"), node("Mod", ["w", "four"], ["r"]),
                                             node("Sub", ["four", "r"], ["d"]), node("Mod", ["d", "four"], ["pw"]),
                                             node("Concat", ["zeros7", "pw"], ["pads"], axis=0),
                                             node("Pad", ["x", "pads"], ["padded"]),
                                             node("Shape", ["padded"], ["ps"]),
                                             node("Slice", ["ps", "zero1", "three"], ["nch"]),
                                             node("Concat", ["nch", "m1", "four1"], ["target"], axis=0),
                                             node("Reshape", ["padded", "target"], ["y"])],
        [tensor("x", ["n", 2, "h", "w"])],
        [{"n": 1, "h": 3, "w": 5}, {"n": 2, "h": 1, "w": 1}, {"n": 1, "h": 2, "w": 8}, {"n": 1, "h": 2, "w": 0}],
        [*AXES, const("four", [4]), const("four1", [4]), const("zeros7", [0] * 7), const("three", [3]),
         const("m1", [-1])]),
    *twins("patches-div-on-shape-values", [*dim("x", 2, "h"), *dim("x", 3, "w"), node("Div", ["h", "p"], ["gh"]),
                                           node("Div", ["w", "p"], ["gw"]),
                                           node("Concat", ["nc", "gh", "p", "gw", "p"], ["target"], axis=0),
                                           node("Reshape", ["x", "target"], ["y"])],
           # a 0 in a Reshape target copies the input dim: w = 0 puts a 0 at index 4, which has none
           [tensor("x", [1, 3, "h", "w"])], [{"h": 4, "w": 8}, {"h": 2, "w": 2}, {"h": 6, "w": 4}],
           [*AXES, const("p", [2]), const("nc", [1, 3])], facts=["h % 2 == 0", "w % 2 == 0"],
           edge={"h": 0, "w": 6}, why="target element h/2 at h = 0 copies dim 2 (h = 0): the dim is h/2 either way"),
    row("int32-shape-arithmetic-cast-back", [*dim("x", 1, "s"), node("Cast", ["s", ], ["s32"], to=I32),
                                             node("Mul", ["s32", "two32"], ["d32"]),
                                             node("Cast", ["d32"], ["d"], to=I64),
                                             node("ConstantOfShape", ["d"], ["y"])],
        [tensor("x", ["b", "s"])], BS, [*AXES, const("two32", [2], I32)]),
    row("max-of-shape-value-and-one", [*dim("x", 1, "s"), node("Max", ["s", "one1"], ["m"]),
                                       node("Min", ["m", "eight"], ["k"]), node("ConstantOfShape", ["k"], ["y"])],
        [tensor("x", ["b", "s"])], BS, [*AXES, const("one1", [1]), const("eight", [8])]),
    row("torch-expand-minus1-where-equal", [node("Shape", ["x"], ["sh"]), node("Equal", ["target", "m1"], ["keep"]),
                                            node("Where", ["keep", "sh", "target"], ["t2"]),
                                            node("Expand", ["x", "t2"], ["y"])],
        [tensor("x", ["b", 1, "s"])], BS, [const("target", [-1, 4, -1]), const("m1", [-1])]),
    row("last-dim-minus-one-slice-end", [*dim("x", 1, "s"), node("Sub", ["s", "one1"], ["e"]),
                                         node("Slice", ["x", "zero1", "e", "one1"], ["y"])],
        [tensor("x", ["b", "s"])], [s for s in BS if s["s"]], [*AXES, const("one1", [1])], facts=["s >= 1"]),
    row("last-dim-minus-one-slice-end-on-empty", [*dim("x", 1, "s"), node("Sub", ["s", "one1"], ["e"]),
                                                  node("Slice", ["x", "zero1", "e", "one1"], ["y"])],
        [tensor("x", ["b", "s"])], BS, [*AXES, const("one1", [1])]),
    row("shape-tensor-elements-through-squeeze-and-neg-gather",
        [node("Shape", ["x"], ["sh"]), node("Gather", ["sh", "neg"], ["last"]), node("Unsqueeze", ["last", "zero1"],
                                                                                   ["last1"]),
         node("Squeeze", ["last1", "zero1"], ["last0"]), node("Unsqueeze", ["last0", "zero1"], ["l"]),
         node("Concat", ["l", "m1"], ["target"], axis=0), node("Reshape", ["x", "target"], ["y"])],
        [tensor("x", ["b", "s"])], [s for s in BS if s["s"]], [const("neg", -1), const("zero1", [0]),
                                                              const("m1", [-1])]),
]

ROWS = HEADS + MASKS + CACHE + ARITH


@pytest.mark.parametrize("r", HEADS + MASKS + CACHE)
def test_exporter_shape_chains(r: Row) -> None:
    report = run_row(r)
    assert report.checked_elements > 0 or not any(n.op_type == "Shape" for n in r.nodes)


@pytest.mark.parametrize("r", ARITH)
def test_integer_arithmetic_on_shape_values(r: Row) -> None:
    report = run_row(r)
    assert report.checked_elements > 0


def test_a_declared_relation_discharges_the_slice_guards_it_implies() -> None:
    cache_slice = next(p.values[0] for p in CACHE if p.id.startswith("kv-cache-slice"))
    assert run_row(cache_slice).analysis.guards() == []
