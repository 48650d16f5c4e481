"""Unresolved dims by root cause: each chain of unknown dims points to the op where it broke.

The oracles are independent of the analysis: which dims a break leaves unknown is counted from
the model's structure (the values downstream of the broken op, found by walking the graph) with
their ranks observed by onnxruntime or inferred by onnx's own shape inference; a diagnosis is
confirmed by declaring the fact it names and seeing the dims resolve (and stay sound).
"""

from __future__ import annotations

import onnx
from onnx import TensorProto, helper

from symshape.algebra.expr import Expr, floordiv, sym
from symshape.api import analyze_onnx
from symshape.engine.context import GiveUp, OpContext
from symshape.rules.registry import register
from symshape.tools.outputs import render
from tests.oracle import assert_sound, check, const, feeds_for, make_model, run, tensor

N = helper.make_node
I64 = TensorProto.INT64
CHAIN = 22  # ops after each break


def downstream(model: onnx.ModelProto, node_name: str) -> list[str]:
    """The values computed from ``node_name``'s outputs (its outputs included), in graph order."""
    reached: set[str] = set()
    out: list[str] = []
    for node in model.graph.node:
        if node.name == node_name or any(i in reached for i in node.input):
            fresh = [o for o in node.output if o]
            reached.update(fresh)
            out.extend(fresh)
    return out


def inferred_ranks(model: onnx.ModelProto) -> dict[str, int]:
    """Every value's rank by onnx's shape inference (which knows nothing of symshape)."""
    inferred = onnx.shape_inference.infer_shapes(model)
    infos = [*inferred.graph.value_info, *inferred.graph.output, *inferred.graph.input]
    return {v.name: len(v.type.tensor_type.shape.dim) for v in infos if v.type.tensor_type.HasField("shape")}


def name_nodes(nodes: list[onnx.NodeProto], prefix: str) -> list[onnx.NodeProto]:
    for k, node in enumerate(nodes):
        node.name = f"{prefix}{k}_{node.op_type}"
    return nodes


def chain(first: str, op: str, prefix: str, n: int = CHAIN) -> tuple[list[onnx.NodeProto], str]:
    """``n`` shape-preserving unary ops after ``first``; returns the nodes and the last value."""
    nodes = [N(op, [first if k == 0 else f"{prefix}{k - 1}"], [f"{prefix}{k}"]) for k in range(n)]
    return nodes, f"{prefix}{n - 1}"


def div_chain(x: str = "x", prefix: str = "d") -> tuple[list[onnx.NodeProto], str]:
    """``Reshape(x, [-1, (height - 1) / height])`` then a chain: a Div by a size that may be 0
    has no exact formula (a truncating Div by a constant is exact since issue 14)."""
    nodes = [
        N("Shape", [x], [f"{prefix}_shape"]),
        N("Gather", [f"{prefix}_shape", "one"], [f"{prefix}_h"], axis=0),
        N("Sub", [f"{prefix}_h", "one"], [f"{prefix}_hm1"]),
        N("Div", [f"{prefix}_hm1", f"{prefix}_h"], [f"{prefix}_half"]),
        N("Unsqueeze", [f"{prefix}_half", "zero_axis"], [f"{prefix}_half1"]),
        N("Concat", ["minus_one", f"{prefix}_half1"], [f"{prefix}_target"], axis=0),
        N("Reshape", [x, f"{prefix}_target"], [f"{prefix}_y"]),
    ]
    tail, last = chain(f"{prefix}_y", "Relu", f"{prefix}_r")
    return name_nodes(nodes + tail, prefix), last


CONSTS = [const("one", 1), const("two", 2), const("zero_axis", [0]), const("minus_one", [-1]), const("four", [4])]


def test_a_truncating_div_is_one_cause_for_the_whole_reshape_chain():
    nodes, last = div_chain()
    m = make_model(nodes, [tensor("x", ["batch", "height"])], [last], CONSTS)
    env = {"batch": 4, "height": 5}
    observed = run(m, feeds_for(m, env))
    affected = {(v, a) for v in downstream(m, "d6_Reshape") for a in range(observed[v].ndim)}
    assert len(affected) == 2 * (CHAIN + 1)

    result = analyze_onnx(m)
    groups = result.causes()
    assert len(groups) == 1
    assert set(groups[0].dims) == affected
    cause = groups[0].cause
    assert (cause.op_type, cause.op_name) == ("Div", "d3_Div")
    assert "height - 1" in cause.reason
    assert groups[0].symbols == ("reshape_0", "reshape_1")
    assert result.fresh_symbols() == [("Reshape 'd6_Reshape'", ["reshape_0", "reshape_1"])]
    assert_sound(check(m, [env, {"batch": 3, "height": 7}], analysis=result))

    summary = render(result, "summary")
    lines = summary.splitlines()
    at = lines.index(f"unresolved: {len(affected)} dims from 1 cause")
    assert lines[at + 1].split()[:4] == [str(len(affected)), "x", "Div", "'d3_Div':"]
    assert lines[at + 2] == "fresh symbols: 2 from 1 op"
    assert lines[at + 3] == "  Reshape 'd6_Reshape': reshape_0, reshape_1"
    assert "symbols: batch in [0, inf], height in [0, inf]" in lines  # fresh ones are listed by origin


def test_the_diagnosis_is_right_declaring_the_sign_resolves_the_chain():
    nodes, last = div_chain()
    m = make_model(nodes, [tensor("x", ["batch", "height"])], [last], CONSTS)
    result = analyze_onnx(m, facts=["height >= 1"])
    assert result.unresolved == [] and result.causes() == []
    assert "unresolved: none" in render(result, "summary").splitlines()
    assert_sound(check(m, [{"batch": 4, "height": 5}, {"batch": 3, "height": 7}], analysis=result))


def test_an_op_without_a_rule_is_one_cause_and_later_give_ups_point_to_it():
    """Its output has no declared type, so every later op gives up for lack of a shape: those
    give-ups are the same cause, not 22 new ones."""
    tail, last = chain("m", "Relu", "r")
    nodes = name_nodes([N("Mystery", ["x"], ["m"], domain="test.none"), *tail], "n")
    m = make_model(nodes, [tensor("x", ["n", 4])], [last])
    m.opset_import.append(helper.make_opsetid("test.none", 1))
    values = downstream(m, "n0_Mystery")
    assert len(values) == CHAIN + 1

    result = analyze_onnx(m)
    groups = result.causes()
    assert len(groups) == 1
    assert set(groups[0].dims) == {(v, -1) for v in values}  # whole values: the rank is unknown
    assert (groups[0].cause.op_type, groups[0].cause.reason) == ("Mystery", "no rule for test.none::Mystery")
    assert len(result.warnings) == CHAIN + 1
    assert sum(w.follows_earlier_cause() for w in result.warnings) == CHAIN
    summary = render(result, "summary").splitlines()
    assert f"unresolved: {CHAIN + 1} dims from 1 cause" in summary
    assert f"warnings: 1 (and {CHAIN} ops that gave up because of a cause above)" in summary


def test_declared_dims_of_an_op_without_a_rule_count_only_where_they_flow():
    """The op's declared type is ``[?, 4]``: its unknown dim flows through a MatMul's rows but
    not its columns. onnx's shape inference (given the same declared type) marks the same dims."""
    tail, last = chain("mm", "Sigmoid", "s")
    nodes = [N("Mystery", ["x"], ["m"], domain="test.none"), N("MatMul", ["m", "w"], ["mm"]), *tail]
    w = helper.make_tensor("w", TensorProto.FLOAT, [4, 3], [0.0] * 12)
    m = make_model(name_nodes(nodes, "n"), [tensor("x", ["n", 4])], [last], [w])
    m.opset_import.append(helper.make_opsetid("test.none", 1))
    m.graph.value_info.append(tensor("m", [None, 4]))
    inferred = onnx.shape_inference.infer_shapes(m)
    infos = {v.name: v for v in [*inferred.graph.value_info, *inferred.graph.output]}
    values = downstream(m, "n0_Mystery")
    unknown = {
        (v, a)
        for v in values
        for a, d in enumerate(infos[v].type.tensor_type.shape.dim)
        if not d.HasField("dim_value")  # onnx names an unknown dim unk__N
    }
    assert len(unknown) == CHAIN + 2  # one per value; the 4 and the 3 are static

    groups = analyze_onnx(m).causes()
    assert len(groups) == 1
    assert set(groups[0].dims) == unknown
    assert groups[0].symbols == ("mystery_0",)


def three_breaks() -> onnx.ModelProto:
    """A Div by a size that may be 0 on x, an op without a rule on z, and a reshape to an input's values on v."""
    div, div_last = div_chain("x", "d")
    mystery_tail, mystery_last = chain("z_m", "Relu", "zr", CHAIN + 5)
    data = [
        N("ReduceMax", ["k"], ["k_max"], keepdims=1),
        N("Concat", ["k_max", "four"], ["k_target"], axis=0),
        N("Reshape", ["v", "k_target"], ["k_y"]),
    ]
    data_tail, data_last = chain("k_y", "Neg", "kn", CHAIN - 5)
    nodes = [
        *div,
        *name_nodes([N("Mystery", ["z"], ["z_m"], domain="test.none"), *mystery_tail], "z"),
        *name_nodes(data + data_tail, "k"),
    ]
    inputs = [tensor("x", ["batch", "height"]), tensor("z", ["n", 4]), tensor("v", ["b", 8]), tensor("k", [1], I64)]
    m = make_model(nodes, inputs, [div_last, mystery_last, data_last], CONSTS)
    m.opset_import.append(helper.make_opsetid("test.none", 1))
    return m


def test_three_breaks_are_three_causes_with_their_own_dims():
    m = three_breaks()
    ranks = inferred_ranks(m)
    expected = {
        "Div": {(v, a) for v in downstream(m, "d6_Reshape") for a in range(ranks[v])},
        "Mystery": {(v, -1) for v in downstream(m, "z0_Mystery")},
        "input": {(v, a) for v in downstream(m, "k2_Reshape") for a in range(ranks[v])},
    }
    result = analyze_onnx(m)
    groups = result.causes()
    assert {g.cause.op_type: set(g.dims) for g in groups} == expected
    assert [len(g.dims) for g in groups] == sorted((len(d) for d in expected.values()), reverse=True)
    data_cause = next(g.cause for g in groups if g.cause.op_type == "input")
    assert data_cause.op_name == "k"  # the Reshape target is the input's data

    total = sum(len(d) for d in expected.values())
    summary = render(result, "summary").splitlines()
    at = summary.index(f"unresolved: {total} dims from 3 causes")
    rows = summary[at + 1 : at + 4]
    assert [int(r.split()[0]) for r in rows] == [len(g.dims) for g in groups]
    assert not summary[at + 4].startswith("   ")  # 3 lines, not one per dim


def halve(ctx: OpContext) -> None:
    """A test rule: integer halving that explains when it cannot track its result."""
    els = ctx.require_elements(0)
    if not all(ctx.prove_ge(e, 0) for e in els):
        bad = next(e for e in els if not ctx.prove_ge(e, 0))
        [name] = bad.free if isinstance(bad, Expr) else [""]
        offset = bad - sym(name)  # bad is name + offset: the fact is a range of name
        ctx.explain_unknown(0, f"Halve truncates and the sign of '{bad}' is not known", fact=f"{name} >= {-offset}")
        ctx.set_output(0, ctx.shape(0))
        return
    ctx.set_output(0, ctx.shape(0), [floordiv(e, 2) for e in els])


def picky(ctx: OpContext) -> None:
    """A test rule that gives up, naming the fact that would let it go on."""
    raise GiveUp("the input must be non-empty", fact="n >= 1")


register("test.causes", "Halve")(halve)
register("test.causes", "Picky")(picky)


def test_a_rule_names_the_fact_that_would_resolve_its_cause():
    nodes = [
        N("Shape", ["x"], ["s"]),
        N("Gather", ["s", "one"], ["h"], axis=0),
        N("Sub", ["h", "one"], ["hm1"]),
        N("Unsqueeze", ["hm1", "zero_axis"], ["hm1_1"]),
        N("Halve", ["hm1_1"], ["half"], domain="test.causes"),
        N("Concat", ["minus_one", "half"], ["target"], axis=0),
        N("Reshape", ["x", "target"], ["y"]),
    ]
    tail, last = chain("y", "Relu", "r")
    m = make_model(name_nodes(nodes + tail, "h"), [tensor("x", ["batch", "height"])], [last], CONSTS)
    m.opset_import.append(helper.make_opsetid("test.causes", 1))
    result = analyze_onnx(m)
    [group] = result.causes()
    assert len(group.dims) == 2 * len(downstream(m, "h6_Reshape"))
    assert group.cause.fact == "height >= 1"
    assert "declare 'height >= 1' to resolve it" in render(result, "summary")

    resolved = analyze_onnx(m, facts=[group.cause.fact])
    assert resolved.causes() == [] and resolved.unresolved == []


def test_a_give_up_with_a_fact_is_its_own_cause():
    tail, last = chain("p", "Relu", "r")
    m = make_model(name_nodes([N("Picky", ["x"], ["p"], domain="test.causes"), *tail], "p"), [tensor("x", ["n"])])
    m.opset_import.append(helper.make_opsetid("test.causes", 1))
    [group] = analyze_onnx(m).causes()
    assert (group.cause.op_name, group.cause.fact) == ("p0_Picky", "n >= 1")
    assert len(group.dims) == CHAIN + 1
