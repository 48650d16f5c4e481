"""If, Loop and Scan against onnxruntime: subgraph dims, branch agreement, loop-carried fixpoint,
trip counts, and that facts of a subgraph that may not run never reach the main graph."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from symshape.algebra.expr import as_symbol
from symshape.api import analyze_onnx
from tests.oracle import check_model, make_model, rand, tensor
from tests.paths import MODELS

F, I64, B = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL


def _graph(name: str, nodes: list, inputs: list, outputs: list, inits: list | None = None):
    return helper.make_graph(nodes, name, inputs, outputs, inits or [])


def _if_model(
    then_nodes: list, then_out: str, else_nodes: list, else_out: str, extra: list | None = None, cond: str = "c"
):
    then_g = _graph("then", then_nodes, [], [tensor(then_out, None)])
    else_g = _graph("else", else_nodes, [], [tensor(else_out, None)])
    nodes = [
        *(extra or []),
        helper.make_node("If", [cond], ["y"], then_branch=then_g, else_branch=else_g),
        helper.make_node("Shape", ["x"], ["xs"]),
    ]
    return make_model(
        nodes, [tensor("x", ["a", "b"]), tensor("c", [], B)], [tensor("y", None), tensor("xs", None, I64)]
    )


def _feeds(a: int, b: int, c: bool) -> dict[str, np.ndarray]:
    return {"x": rand(a, b), "c": np.array(c)}


def test_if_branches_that_agree_keep_the_dims() -> None:
    model = _if_model([helper.make_node("Relu", ["x"], ["t"])], "t", [helper.make_node("Neg", ["x"], ["e"])], "e")
    result, _ = check_model(model, [_feeds(2, 3, True), _feeds(4, 1, False)])
    assert [str(d) for d in result.shape("y")] == ["a", "b"]


def test_if_branch_facts_do_not_leak() -> None:
    """The then-branch squeezes axis 0 (needs a == 1); the else-branch reduces it. Both give [b],
    but ``a`` must stay free: the model is valid with a = 3 when the else-branch runs."""
    axes = helper.make_tensor("ax0", I64, [1], [0])
    then_nodes = [
        helper.make_node("Constant", [], ["ax_t"], value=axes),
        helper.make_node("Squeeze", ["x", "ax_t"], ["t"]),
    ]
    else_nodes = [
        helper.make_node("Constant", [], ["ax_e"], value=axes),
        helper.make_node("ReduceSum", ["x", "ax_e"], ["e"], keepdims=0),
    ]
    model = _if_model(then_nodes, "t", else_nodes, "e")
    result, _ = check_model(model, [_feeds(3, 2, False), _feeds(1, 4, True), _feeds(1, 2, False)])
    assert [str(d) for d in result.shape("x")] == ["a", "b"]
    assert [str(d) for d in result.shape("y")] == ["b"]
    assert result.symbols()["a"]["range"] == [0, None]


DECIDED_BY_C = ("output #0 dims {axes} differ between the branches; the branch taken is not known: the values of "
                "'c' decide (give them: --value c=...)")


def test_if_branches_that_differ_get_a_fresh_symbol() -> None:
    then_nodes = [helper.make_node("Concat", ["x", "x"], ["t"], axis=0)]
    model = _if_model(then_nodes, "t", [helper.make_node("Identity", ["x"], ["e"])], "e")
    result, obs = check_model(model, [_feeds(2, 3, True), _feeds(5, 3, False)], allow_warnings=True)
    assert [w.message for w in result.warnings] == [DECIDED_BY_C.format(axes="0")]
    d0, d1 = result.shape("y")
    assert str(d1) == "b"
    name = as_symbol(d0)
    assert name is not None and result.symbols()[name]["kind"] == "data"
    assert [o.env[name] for o in obs] == [4, 5]


def test_if_differing_static_branches_are_bounded() -> None:
    shape3 = helper.make_tensor("s3", I64, [2], [3, 2])
    shape6 = helper.make_tensor("s6", I64, [2], [6, 1])
    then_nodes = [
        helper.make_node("Constant", [], ["st"], value=shape3),
        helper.make_node("Reshape", ["x", "st"], ["t"]),
    ]
    else_nodes = [
        helper.make_node("Constant", [], ["se"], value=shape6),
        helper.make_node("Reshape", ["x", "se"], ["e"]),
    ]
    model = _if_model(then_nodes, "t", else_nodes, "e")
    result, _ = check_model(model, [_feeds(2, 3, True), _feeds(3, 2, False)], allow_warnings=True)
    assert [w.message for w in result.warnings] == [DECIDED_BY_C.format(axes="0, 1")]
    d0, d1 = result.shape("y")
    assert result.symbols()[str(d0)]["range"] == [3, 6]
    assert result.symbols()[str(d1)]["range"] == [1, 2]
    # the reshape facts (a*b == 6) hold only when a branch runs: every branch needs them here,
    # but symshape keeps them out of the main graph, so a and b stay free
    assert result.symbols()["a"]["range"] == [0, None]


def test_if_with_a_tracked_condition_takes_the_branch() -> None:
    """The condition is computed from shapes (rank == 2), so only the then-branch runs and its
    facts are facts of the model."""
    one = helper.make_tensor("one", I64, [1], [1])
    then_nodes = [helper.make_node("Constant", [], ["k"], value=one), helper.make_node("Squeeze", ["x", "k"], ["t"])]
    extra = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Size", ["s"], ["r"]),
        helper.make_node("Constant", [], ["two"], value=helper.make_tensor("two_v", I64, [], [2])),
        helper.make_node("Equal", ["r", "two"], ["rank2"]),
    ]
    model = _if_model(then_nodes, "t", [helper.make_node("Identity", ["x"], ["e"])], "e", extra=extra, cond="rank2")
    result, _ = check_model(model, [_feeds(3, 1, True), _feeds(5, 1, False)])
    assert [str(d) for d in result.shape("y")] == ["a"]
    assert result.shape("x")[1] == 1  # the squeeze in the taken branch is a fact


def _loop_model(
    body_nodes: list, body_outputs: list, carried: list[str], m: str, cond: str, n_scan: int, extra: list | None = None
):
    body_inputs = [tensor("i", [], I64), tensor("cond_in", [], B)] + [tensor(f"{c}_in", None) for c in carried]
    body = _graph("body", body_nodes, body_inputs, body_outputs)
    outs = [f"{c}_final" for c in carried] + [f"scan{k}" for k in range(n_scan)]
    nodes = [*(extra or []), helper.make_node("Loop", [m, cond, *carried], outs, body=body)]
    return make_model(nodes, [tensor("x", ["a", "b"]), tensor("h", ["c"])], [tensor(o, None) for o in outs])


def _count_from_x(name: str = "m") -> list:
    """``m = x.shape[0]`` as a tracked int64 scalar."""
    return [helper.make_node("Shape", ["x"], ["xs"], start=0, end=1), helper.make_node("Squeeze", ["xs"], [name])]


def test_loop_stable_carried_value_and_known_trip_count() -> None:
    body_nodes = [
        helper.make_node("Identity", ["cond_in"], ["cond_out"]),
        helper.make_node("Relu", ["h_in"], ["h_out"]),
        helper.make_node("Add", ["h_in", "h_in"], ["s"]),
    ]
    model = _loop_model(
        body_nodes,
        [tensor("cond_out", [], B), tensor("h_out", None), tensor("s", None)],
        ["h"],
        "m",
        "",
        1,
        extra=_count_from_x(),
    )
    result, _ = check_model(model, [{"x": rand(3, 2), "h": rand(4)}, {"x": rand(1, 2), "h": rand(2)}])
    assert [str(d) for d in result.shape("h_final")] == ["c"]
    assert [str(d) for d in result.shape("scan0")] == ["a", "c"]


def test_loop_growing_carried_value_grows_by_the_trip_count() -> None:
    body_nodes = [
        helper.make_node("Identity", ["cond_in"], ["cond_out"]),
        helper.make_node("Concat", ["h_in", "one"], ["h_out"], axis=0),
        helper.make_node("Shape", ["h_in"], ["s"]),
    ]
    body_inputs_init = [helper.make_tensor("one", F, [1], [1.0])]
    body = _graph(
        "body",
        body_nodes,
        [tensor("i", [], I64), tensor("cond_in", [], B), tensor("h_in", None)],
        [tensor("cond_out", [], B), tensor("h_out", None), tensor("s", None, I64)],
        body_inputs_init,
    )
    nodes = [*_count_from_x(), helper.make_node("Loop", ["m", "", "h"], ["h_final", "scan0"], body=body)]
    model = make_model(
        nodes, [tensor("x", ["a", "b"]), tensor("h", ["c"])], [tensor("h_final", None), tensor("scan0", None, I64)]
    )
    result, obs = check_model(model, [{"x": rand(3, 2), "h": rand(4)}, {"x": rand(2, 2), "h": rand(1)}])
    # one element per iteration, a iterations: observed 7 = 4 + 3 and 3 = 1 + 2
    assert str(result.shape("h_final")[0]) == "a + c"
    assert [o.shapes["h_final"] for o in obs] == [(7,), (3,)]
    assert [str(d) for d in result.shape("scan0")] == ["a", "1"]


def test_loop_with_data_condition_has_a_bounded_trip_count() -> None:
    limit = helper.make_tensor("lim", I64, [], [2])
    body_nodes = [
        helper.make_node("Constant", [], ["limit"], value=limit),
        helper.make_node("Less", ["i", "limit"], ["cond_out"]),
        helper.make_node("Mul", ["h_in", "h_in"], ["h_out"]),
        helper.make_node("Identity", ["h_in"], ["s"]),
    ]
    model = _loop_model(
        body_nodes,
        [tensor("cond_out", [], B), tensor("h_out", None), tensor("s", None)],
        ["h"],
        "m",
        "t",
        1,
        extra=[
            *_count_from_x(),
            helper.make_node("Constant", [], ["t"], value=helper.make_tensor("tv", B, [], [True])),
        ],
    )
    result, obs = check_model(model, [{"x": rand(5, 2), "h": rand(3)}, {"x": rand(2, 2), "h": rand(2)}])
    trips = as_symbol(result.shape("scan0")[0])
    assert trips is not None
    assert [o.env[trips] for o in obs] == [3, 2]
    assert result.shape("scan0")[1:] == result.shape("h")
    preds = [(str(result.public(p.lhs)), str(result.public(p.rhs))) for p in result.graph.predicates]
    assert (("0", f"a - {trips}") in preds) or result.symbols()[trips]["range"][1] is not None


def test_scan_cumulative_sum_with_axes() -> None:
    body = _graph(
        "body",
        [helper.make_node("Add", ["acc", "row"], ["acc_out"]), helper.make_node("Identity", ["acc_out"], ["y"])],
        [tensor("acc", None), tensor("row", None)],
        [tensor("acc_out", None), tensor("y", None)],
    )
    nodes = [
        helper.make_node(
            "Scan",
            ["h", "x"],
            ["final", "ys"],
            body=body,
            num_scan_inputs=1,
            scan_input_axes=[1],
            scan_output_axes=[-1],
        )
    ]
    model = make_model(
        nodes, [tensor("x", ["c", "n"]), tensor("h", ["c"])], [tensor("final", None), tensor("ys", None)]
    )
    result, _ = check_model(model, [{"x": rand(3, 5), "h": rand(3)}, {"x": rand(2, 1), "h": rand(2)}])
    assert [str(d) for d in result.shape("ys")] == ["c", "n"]
    assert [str(d) for d in result.shape("final")] == ["c"]


def test_scan_lengths_are_equal_facts() -> None:
    body = _graph(
        "body",
        [helper.make_node("Add", ["p", "q"], ["y"])],
        [tensor("p", None), tensor("q", None)],
        [tensor("y", None)],
    )
    nodes = [helper.make_node("Scan", ["x", "z"], ["ys"], body=body, num_scan_inputs=2)]
    model = make_model(nodes, [tensor("x", ["n", 4]), tensor("z", ["m", 4])], [tensor("ys", None)])
    result = analyze_onnx(model)
    assert result.same_dim(("x", 0), ("z", 0)) is True
    assert result.shape("ys")[1] == 4


@pytest.mark.parametrize("op", ["If", "Loop", "Scan"])
def test_unknown_shapes_fall_back_without_crashing(op: str) -> None:
    unranked = helper.make_tensor_value_info("u", F, None)
    if op == "If":
        g = _graph("g", [helper.make_node("Relu", ["u"], ["r"])], [], [tensor("r", None)])
        node = helper.make_node("If", ["c"], ["y"], then_branch=g, else_branch=g)
        inputs = [unranked, tensor("c", [], B)]
    elif op == "Scan":
        body = _graph("body", [helper.make_node("Relu", ["p"], ["q"])], [tensor("p", None)], [tensor("q", None)])
        node = helper.make_node("Scan", ["u"], ["y"], body=body, num_scan_inputs=1)
        inputs = [unranked]
    else:
        body = _graph(
            "body",
            [helper.make_node("Identity", ["cond_in"], ["cond_out"]), helper.make_node("Relu", ["v_in"], ["v_out"])],
            [tensor("i", [], I64), tensor("cond_in", [], B), tensor("v_in", None)],
            [tensor("cond_out", [], B), tensor("v_out", None)],
        )
        node = helper.make_node("Loop", ["", "c", "u"], ["y"], body=body)
        inputs = [unranked, tensor("c", [], B)]
    model = make_model([node], inputs, [tensor("y", None)])
    result = analyze_onnx(model)
    assert result.warnings and result.shape("y") is None


def _relu_loop(m: str, extra: list | None = None, inputs: list | None = None):
    body_nodes = [
        helper.make_node("Identity", ["cond_in"], ["cond_out"]),
        helper.make_node("Relu", ["h_in"], ["h_out"]),
        helper.make_node("Add", ["h_in", "h_in"], ["s"]),
    ]
    body = _graph(
        "body",
        body_nodes,
        [tensor("i", [], I64), tensor("cond_in", [], B), tensor("h_in", None)],
        [tensor("cond_out", [], B), tensor("h_out", None), tensor("s", None)],
    )
    nodes = [*(extra or []), helper.make_node("Loop", [m, "", "h"], ["h_final", "scan0"], body=body)]
    return make_model(
        nodes,
        inputs or [tensor("M", [], I64), tensor("h", ["c", "d"])],
        [tensor("h_final", None), tensor("scan0", None)],
    )


def test_loop_with_a_runtime_trip_count_guards_zero_iterations() -> None:
    model = _relu_loop("M")
    result, obs = check_model(model, [{"M": np.array(m, np.int64), "h": rand(3, 2)} for m in (1, 4)])
    trips = as_symbol(result.shape("scan0")[0])
    assert trips is not None and [o.env[trips] for o in obs] == [1, 4]
    assert [str(d) for d in result.shape("h_final")] == ["c", "d"]
    assert [g[0] for g in result.guards()] == [f"{trips} >= 1"]


def test_loop_with_a_proven_positive_trip_count_needs_no_guard() -> None:
    extra = [helper.make_node("Shape", ["h"], ["hs"], start=0, end=1), helper.make_node("Squeeze", ["hs"], ["m"])]
    model = _relu_loop("m", extra, [tensor("h", ["c", "d"])])
    result, _ = check_model(model, [{"h": rand(3, 2)}, {"h": rand(1, 5)}], facts=["c >= 1"])
    assert [str(d) for d in result.shape("scan0")] == ["c", "c", "d"]
    assert result.guards() == []


def test_nested_if_in_a_loop_body_reads_outer_values() -> None:
    """The body's If concatenates the outer ``x`` or reads it twice; the loop carries ``h``."""
    then_g = _graph("then", [helper.make_node("Concat", ["h_in", "x"], ["t"], axis=0)], [], [tensor("t", None)])
    else_g = _graph(
        "else",
        [helper.make_node("Add", ["h_in", "x"], ["e0"]), helper.make_node("Concat", ["e0", "x"], ["e"], axis=0)],
        [],
        [tensor("e", None)],
    )
    body_nodes = [
        helper.make_node("Identity", ["cond_in"], ["cond_out"]),
        helper.make_node("Identity", ["h_in"], ["h_out"]),
        helper.make_node("If", ["flag"], ["s"], then_branch=then_g, else_branch=else_g),
    ]
    body = _graph(
        "body",
        body_nodes,
        [tensor("i", [], I64), tensor("cond_in", [], B), tensor("h_in", None)],
        [tensor("cond_out", [], B), tensor("h_out", None), tensor("s", None)],
    )
    nodes = [*_count_from_x("m"), helper.make_node("Loop", ["m", "", "h"], ["h_final", "scan0"], body=body)]
    model = make_model(
        nodes,
        [tensor("x", ["a", "b"]), tensor("h", ["a", "b"]), tensor("flag", [], B)],
        [tensor("h_final", None), tensor("scan0", None)],
    )
    samples = [{"x": rand(2, 3), "h": rand(2, 3), "flag": np.array(f)} for f in (True, False)]
    result, _ = check_model(model, samples)
    assert [str(d) for d in result.shape("scan0")] == ["a", "2*a", "b"]


def test_loop_keeps_a_carried_shape_tensor() -> None:
    """A carried shape vector that the body passes through keeps its elements, so the body's
    Reshape (and the scan output) is exact."""
    body_nodes = [
        helper.make_node("Identity", ["cond_in"], ["cond_out"]),
        helper.make_node("Identity", ["shp_in"], ["shp_out"]),
        helper.make_node("Reshape", ["x", "shp_in"], ["s"]),
    ]
    body = _graph(
        "body",
        body_nodes,
        [tensor("i", [], I64), tensor("cond_in", [], B), tensor("shp_in", None, I64)],
        [tensor("cond_out", [], B), tensor("shp_out", None, I64), tensor("s", None)],
    )
    extra = [
        *_count_from_x("m"),
        helper.make_node("Shape", ["x"], ["xs2"]),
        helper.make_node("ReduceProd", ["xs2"], ["numel"], keepdims=1),
    ]
    nodes = [*extra, helper.make_node("Loop", ["m", "", "numel"], ["shp_final", "scan0"], body=body)]
    model = make_model(nodes, [tensor("x", ["a", "b"])], [tensor("shp_final", None, I64), tensor("scan0", None)])
    result, _ = check_model(model, [{"x": rand(2, 3)}, {"x": rand(4, 1)}])
    assert [str(d) for d in result.shape("scan0")] == ["a", "a*b"]
    origins = {origin for _, origin, _ in result.guards()}
    assert origins == {"Loop 'Loop_4' (loop scan outputs)"}  # a one-element target is the element count


def test_subgraph_data_symbols_stay_apart_from_the_main_graph() -> None:
    """Unnamed NonZero nodes in the main graph and in a branch (both ``NonZero_0`` to the
    reader) count different values, so they must not share a symbol."""
    then_g = _graph(
        "then",
        [helper.make_node("Relu", ["x"], ["r"]), helper.make_node("NonZero", ["r"], ["t"])],
        [],
        [tensor("t", None, I64)],
    )
    else_g = _graph(
        "else",
        [helper.make_node("Relu", ["x"], ["r2"]), helper.make_node("NonZero", ["r2"], ["e"])],
        [],
        [tensor("e", None, I64)],
    )
    nodes = [
        helper.make_node("NonZero", ["x"], ["nz"]),
        helper.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g),
    ]
    model = make_model(
        nodes, [tensor("x", ["a"]), tensor("c", [], B)], [tensor("nz", None, I64), tensor("y", None, I64)]
    )
    x = np.array([1.0, -2.0, 0.0, 3.0], np.float32)
    result, obs = check_model(model, [{"x": x, "c": np.array(True)}, {"x": -x, "c": np.array(False)}],
                              allow_warnings=True)
    assert [w.message for w in result.warnings] == [DECIDED_BY_C.format(axes="1")]
    assert result.shape("nz")[1] is not result.shape("y")[1]
    assert result.shape("y")[0] == 1


def test_a_branch_that_cannot_run_is_dead_code() -> None:
    """``x`` is ``[a, 3]``: the then-branch squeezes axis 1, which needs 3 == 1, so it never runs;
    the If takes the else-branch's dims, and the analysis does not fail."""
    one = helper.make_tensor("one", I64, [1], [1])
    then_nodes = [  # axes = rank(x) - 1 = [1], computed so that onnxruntime's loader cannot see it
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Shape", ["s"], ["r"]),
        helper.make_node("Constant", [], ["o"], value=one),
        helper.make_node("Sub", ["r", "o"], ["k"]),
        helper.make_node("Squeeze", ["x", "k"], ["t"]),
    ]
    then_g = _graph("then", then_nodes, [], [tensor("t", None)])
    else_g = _graph("else", [helper.make_node("Relu", ["x"], ["e"])], [], [tensor("e", None)])
    nodes = [helper.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g)]
    model = make_model(nodes, [tensor("x", ["a", 3]), tensor("c", [], B)], [tensor("y", None)])
    result, _ = check_model(model, [{"x": rand(2, 3), "c": np.array(False)}])
    assert [str(d) for d in result.shape("y")] == ["a", "3"]


SCRIPTED = MODELS / "scripted_control_flow.onnx"


def test_torchscript_export_with_nonzero_topk_loop_and_if() -> None:
    """A scripted PyTorch function (regenerate: ``python -m tests.rules.onnx.test_control_flow``):
    ``nonzero`` and boolean-mask indexing share one count, ``topk`` with ``min(3, d)``, a
    ``for`` loop over ``x.shape[0]`` and a data-dependent ``if``."""
    model = onnx.load(str(SCRIPTED))
    assert {"Loop", "If", "NonZero", "TopK"} <= {n.op_type for n in model.graph.node}
    rng = np.random.default_rng(11)
    samples = [
        {"x": rng.standard_normal((a, b)).astype(np.float32), "y": rng.standard_normal((c, d)).astype(np.float32)}
        for a, b, c, d in [(3, 4, 2, 5), (1, 2, 4, 2), (2, 1, 3, 3)]
    ]
    result, observed = check_model(model, samples)
    idx, sel, v, h, z = (o.name for o in model.graph.output)
    assert result.shape(idx)[0] is result.shape(sel)[0]
    assert [str(d) for d in result.shape(v)] == ["c", "Min(3, d)"]
    assert [str(d) for d in result.shape(h)] == [str(d) for d in result.shape(z)] == ["c", "d"]
    for feeds, obs in zip(samples, observed, strict=True):
        assert obs.env[str(result.shape(idx)[0])] == int((feeds["x"] > 0).sum())


def _export_scripted() -> None:
    import io

    import torch

    class Scripted(torch.nn.Module):
        def forward(self, x: torch.Tensor, y: torch.Tensor):  # noqa: ANN202
            idx = torch.nonzero(x > 0)
            sel = x[x > 0]
            v, _ = torch.topk(y, k=min(3, y.shape[1]), dim=1)
            h = y
            for _step in range(x.shape[0]):
                h = torch.relu(h) + 1
            z = y * 2 if bool(x.sum() > 0) else y - 1
            return idx, sel, v, h, z

    buf = io.BytesIO()
    torch.onnx.export(
        torch.jit.script(Scripted()), (torch.randn(3, 4), torch.randn(2, 5)), buf, dynamo=False, opset_version=17,
        input_names=["x", "y"], dynamic_axes={"x": {0: "a", 1: "b"}, "y": {0: "c", 1: "d"}},
    )  # fmt: skip
    model = onnx.load_from_string(buf.getvalue())
    for node in model.graph.node:
        del node.metadata_props[:]
    model.producer_version = ""
    onnx.save(model, str(SCRIPTED))


if __name__ == "__main__":
    _export_scripted()


def test_same_local_name_in_two_taken_branches_is_not_shared() -> None:
    """Two Ifs with known conditions; each taken branch computes a local ``r`` (one from ``x``,
    one from ``-x``) and counts its non-zeros: the counts differ, so the symbols must too."""
    extra = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Size", ["s"], ["rk"]),
        helper.make_node("Constant", [], ["one"], value=helper.make_tensor("one_v", I64, [], [1])),
        helper.make_node("Equal", ["rk", "one"], ["is1"]),
    ]
    branches = []
    for k, src in enumerate(("x", "nx")):
        then_nodes = [helper.make_node("Relu", [src], ["r"]), helper.make_node("NonZero", ["r"], [f"t{k}"])]
        then_g = _graph(f"then{k}", then_nodes, [], [tensor(f"t{k}", None, I64)])
        else_g = _graph(f"else{k}", [helper.make_node("NonZero", [src], [f"e{k}"])], [], [tensor(f"e{k}", None, I64)])
        branches.append(helper.make_node("If", ["is1"], [f"y{k}"], then_branch=then_g, else_branch=else_g))
    nodes = [*extra, helper.make_node("Neg", ["x"], ["nx"]), *branches]
    model = make_model(nodes, [tensor("x", ["a"])], [tensor("y0", None, I64), tensor("y1", None, I64)])
    x = np.array([1.0, -2.0, 0.0, 3.0, 4.0], np.float32)
    result, _ = check_model(model, [{"x": x}, {"x": -x}])
    assert result.shape("y0")[1] is not result.shape("y1")[1]


def test_loop_carried_dim_kept_under_a_body_guard_lists_that_guard():
    """Squeeze without axes in the body keeps [a] only if a != 1: the guard must reach the main graph."""
    body = _graph(
        "body",
        [helper.make_node("Identity", ["cin"], ["cout"]), helper.make_node("Squeeze", ["xin"], ["xout"])],
        [tensor("i", [], I64), tensor("cin", [], B), tensor("xin", None)],
        [tensor("cout", [], B), tensor("xout", None)],
    )
    loop = helper.make_node("Loop", ["M", "", "X"], ["Y"], body=body)
    m = make_model([loop], [tensor("M", [], I64), tensor("X", ["a"])], [tensor("Y", None)])
    result, _ = check_model(m, [{"M": np.array(k, np.int64), "X": rand(a)} for k in (0, 2) for a in (2, 3)])
    assert result.shape("Y") == (result.shape("X") or ())[:1]
    assert "a != 1" in [g[0] for g in result.guards()]  # at a = 1 onnxruntime gives shape ()
