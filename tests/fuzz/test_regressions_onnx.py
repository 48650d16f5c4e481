"""Cases the ONNX program fuzzer (`tests.fuzz.onnx_programs`) found, each small and explicit,
checked against onnxruntime at the sizes that broke the analysis before its fix."""

from __future__ import annotations

import numpy as np
from onnx import helper

from symshape.algebra.expr import sym
from symshape.api import analyze_onnx
from tests.oracle import assert_exact, assert_sound, check, const, guards_hold, make_model, tensor

BIG = 2**63 - 1


def test_a_reshape_copy_at_zero_then_pad_is_exact_not_a_fact() -> None:
    """Seed 210: x [n, n, 1] reshaped to [-1, 1, n, 1] (n read from x's shape). At n = 0 the
    target's n is a 0 that copies input dim 2 (= 1), so the dim is Max(n, 1); the old guard
    ``n >= 1`` was turned into a fact by the Pad of -1 below and so vanished from the guards."""
    nodes = [helper.make_node("Shape", ["x"], ["s"]),
             helper.make_node("Slice", ["s", "one", "big", "zero"], ["tail"]),
             helper.make_node("Concat", ["head", "tail"], ["target"], axis=0),
             helper.make_node("Reshape", ["x", "target"], ["r"]),
             helper.make_node("Pad", ["r", "pads", "", "two"], ["y"])]
    inits = [const("one", [1]), const("big", [BIG]), const("zero", [0]), const("head", [-1, 1]),
             const("pads", [0, -1]), const("two", [2])]
    m = make_model(nodes, [tensor("x", ["n", "n", 1])], ["y"], inits)
    analysis = analyze_onnx(m)
    assert analysis.symbols()["n"]["range"] == [0, None]
    assert analysis.guards() == []
    assert_sound(check(m, [{"n": 0}, {"n": 1}, {"n": 3}], analysis=analysis))


def test_where_on_a_shape_comparison_selects_exactly() -> None:
    """Seed 204: Where(0 < n, 0, n) (a Min of shape values) fed an Expand target; the selected
    element was unknown, so the Expand dim used a symbol no run could observe."""
    nodes = [helper.make_node("Shape", ["x"], ["s"]),
             helper.make_node("Gather", ["s", "zero"], ["n"], axis=0),
             helper.make_node("Less", ["z", "n"], ["lt"]),
             helper.make_node("Where", ["lt", "z", "n"], ["low"]),
             helper.make_node("Greater", ["n", "two"], ["gt"]),
             helper.make_node("Where", ["gt", "n", "two"], ["high"]),
             helper.make_node("Concat", ["low", "high", "one"], ["target"], axis=0),
             helper.make_node("Expand", ["x", "target"], ["y"])]
    inits = [const("zero", [0]), const("z", [0]), const("two", [2]), const("one", [1])]
    m = make_model(nodes, [tensor("x", ["n"])], ["y"], inits)
    report = assert_exact(check(m, [{"n": 1}, {"n": 3}, {"n": 0}]))
    assert [str(e) for e in report.analysis.elements("target") or ()] == ["0", "Max(2, n)", "1"]


def test_a_one_element_reshape_target_is_the_element_count() -> None:
    """A one-element target computed from the shape (``[a*b]``) is the element count whatever it
    is: at a*b = 0 its 0 copies dim 0, which must then be 0 too (onnxruntime refuses a = 3, b = 0)."""
    nodes = [helper.make_node("Shape", ["x"], ["s"]),
             helper.make_node("ReduceProd", ["s"], ["numel"], keepdims=1),
             helper.make_node("Reshape", ["x", "numel"], ["y"])]
    m = make_model(nodes, [tensor("x", ["a", "b"])], ["y"])
    report = assert_exact(check(m, [{"a": 2, "b": 3}, {"a": 0, "b": 3}, {"a": 1, "b": 1}]))
    assert [str(d) for d in report.analysis.shape("y") or ()] == ["a*b"]
    assert report.analysis.guards() == []


def test_where_on_an_equality_of_shape_values_selects_exactly() -> None:
    """Seed 1030: Where(Equal(n / -3, 0), n / -3, 0) (ONNX Div truncates: -floor(n/3) here) fed an
    Expand target; the Equal was not read, so the Expand dim used a symbol no run could observe."""
    nodes = [helper.make_node("Shape", ["x"], ["s"]),
             helper.make_node("Gather", ["s", "zero"], ["n"], axis=0),
             helper.make_node("Div", ["n", "m3"], ["q"]),
             helper.make_node("Equal", ["q", "zero"], ["eq"]),
             helper.make_node("Where", ["eq", "q", "zero"], ["w"]),
             helper.make_node("Equal", ["n", "two"], ["is2"]),
             helper.make_node("Where", ["is2", "n", "one"], ["v"]),
             helper.make_node("Concat", ["one", "w", "v"], ["target"], axis=0),
             helper.make_node("Expand", ["x", "target"], ["y"])]
    inits = [const("zero", [0]), const("m3", [-3]), const("two", [2]), const("one", [1])]
    m = make_model(nodes, [tensor("x", ["n", 1, 1])], ["y"], inits)
    report = assert_exact(check(m, [{"n": 0}, {"n": 1}, {"n": 2}, {"n": 4}]))
    assert report.analysis.elements("w") == (0,)


def test_allowzero_reshape_with_a_zero_next_to_minus_one_is_no_fact() -> None:
    """Seed 8006: x [n] reshaped with allowzero=1 to [n, -1]. The spec forbids a 0 next to -1,
    but onnxruntime runs it (n = 0 gives (0, 1)): ``n >= 1`` must never be a fact. Onnxruntime
    infers that -1 from the non-zero dims, so the zero cancels and the -1 is exact: 1."""
    nodes = [helper.make_node("Shape", ["x"], ["s"]),
             helper.make_node("Concat", ["s", "m1"], ["target"], axis=0),
             helper.make_node("Reshape", ["x", "target"], ["y"], allowzero=1)]
    m = make_model(nodes, [tensor("x", ["n"])], ["y"], [const("m1", [-1])])
    analysis = analyze_onnx(m)
    assert analysis.symbols()["n"]["range"] == [0, None]
    assert analysis.guards() == [] and analysis.shape("y") == (sym("n"), 1)
    assert_exact(check(m, [{"n": 2}, {"n": 0}, {"n": 1}], analysis=analysis))


def test_allowzero_reshape_where_zeros_do_not_cancel_is_exact() -> None:
    """x [n, m] reshaped with allowzero=1 to [n, -1]: onnxruntime infers the -1 from the non-zero
    dims, so it is m, except 1 where n and m are both 0: ``Max(m, 1 - Min(1, n))``, no guard."""
    nodes = [helper.make_node("Shape", ["x"], ["s"]),
             helper.make_node("Slice", ["s", "zero", "one"], ["first"]),
             helper.make_node("Concat", ["first", "m1"], ["target"], axis=0),
             helper.make_node("Reshape", ["x", "target"], ["y"], allowzero=1)]
    m = make_model(nodes, [tensor("x", ["n", "m"])], ["y"], [const("m1", [-1]), const("zero", [0]), const("one", [1])])
    analysis = analyze_onnx(m)
    assert analysis.guards() == []
    assert_exact(check(m, [{"n": 2, "m": 3}, {"n": 2, "m": 0}, {"n": 0, "m": 3}, {"n": 0, "m": 0}], analysis=analysis))


def test_allowzero_reshape_keeps_its_guard_where_zeros_do_not_pair_up() -> None:
    """x [n, m, k] reshaped with allowzero=1 to [n, -1]: the -1 is m*k, but where n is 0 too
    onnxruntime drops every zero (n = m = 0 gives k). With two input dims left there is no short
    exact form, so the guard states just that: ``Max(Min(k, m), n) >= 1``, which n = 0 alone
    does not break."""
    nodes = [helper.make_node("Shape", ["x"], ["s"]),
             helper.make_node("Slice", ["s", "zero", "one"], ["first"]),
             helper.make_node("Concat", ["first", "m1"], ["target"], axis=0),
             helper.make_node("Reshape", ["x", "target"], ["y"], allowzero=1)]
    m = make_model(nodes, [tensor("x", ["n", "m", "k"])], ["y"],
                   [const("m1", [-1]), const("zero", [0]), const("one", [1])])
    analysis = analyze_onnx(m)
    assert [g[0] for g in analysis.guards()] == ["Max(Min(k, m), n) >= 1"]
    assert_exact(check(m, [{"n": 2, "m": 3, "k": 2}, {"n": 0, "m": 3, "k": 2}, {"n": 2, "m": 0, "k": 0}],
                       analysis=analysis))
    report = check(m, [{"n": 0, "m": 0, "k": 2}], analysis=analysis)  # onnxruntime: (0, 2)
    assert report.mismatches and not guards_hold(analysis, {"n": 0, "m": 0, "k": 2})


def test_pad_of_one_axis_of_a_two_dim_tensor_tracks_no_flat_elements() -> None:
    """Seed 217: an empty [1, 0] int tensor padded by [0, 1] on axis 0 (``axes``) is [2, 0]; the
    elements rule took the two pads for a 1-D pad and claimed one element."""
    nodes = [helper.make_node("Shape", ["x"], ["s"]),
             helper.make_node("Slice", ["s", "zero", "zero", "zero"], ["empty"]),
             helper.make_node("Unsqueeze", ["empty", "zero"], ["u"]),
             helper.make_node("Pad", ["u", "pads", "", "zero"], ["y"])]
    m = make_model(nodes, [tensor("x", ["n"])], ["y"], [const("zero", [0]), const("pads", [0, 1])])
    report = assert_exact(check(m, [{"n": 1}, {"n": 3}]))
    assert report.analysis.shape("y") == (2, 0)


def test_the_allowzero_minus_one_broadcast_with_its_own_dim_is_that_dim() -> None:
    """position_ids.view(-1, seq) + x[batch, seq] (GPT-2's dynamo export): the view's first dim
    is ``Max(batch, 1 - Min(1, seq))``, and broadcast with ``batch`` it is ``batch`` at every
    size (1 at batch = seq = 0 broadcasts to 0)."""
    nodes = [helper.make_node("Shape", ["p"], ["s"]),
             helper.make_node("Slice", ["s", "one", "two"], ["last"]),
             helper.make_node("Concat", ["m1", "last"], ["target"], axis=0),
             helper.make_node("Reshape", ["p", "target"], ["v"], allowzero=1),
             helper.make_node("Add", ["v", "x"], ["y"])]
    m = make_model(nodes, [tensor("p", ["batch", "seq"]), tensor("x", ["batch", "seq"])], ["y"],
                   [const("m1", [-1]), const("one", [1]), const("two", [2])])
    analysis = analyze_onnx(m)
    assert analysis.guards() == [] and analysis.shape("y") == (sym("batch"), sym("seq"))
    sizes = [{"batch": b, "seq": s} for b in (0, 1, 3) for s in (0, 1, 4)]
    assert_exact(check(m, sizes, analysis=analysis))


def test_a_nonzero_count_is_bound_where_it_is_made_not_where_a_guard_claims_it() -> None:
    """Fuzz seed 2202: NonZero's count c reshaped with target [c, -1] (allowzero 0) is (c, 2)
    under the guard ``c >= 1``; at c = 0 the 0 copies input dim 0 and the output is (2, 0). The
    oracle bound c from the first value in ORT's output order (the reshape's dim 0, 2) instead of
    from the NonZero that makes it (0), and so saw an unsound dim where the guard had failed."""
    nodes = [helper.make_node("NonZero", ["x"], ["nz"]),
             helper.make_node("Shape", ["nz"], ["s"]),
             helper.make_node("Gather", ["s", "one"], ["count"]),
             helper.make_node("Concat", ["count", "minus_one"], ["target"], axis=0),
             helper.make_node("Reshape", ["nz", "target"], ["y"])]
    m = make_model(nodes, [tensor("x", [2, "n"])], ["y", "nz"], [const("one", [1]), const("minus_one", [-1])])
    analysis = analyze_onnx(m)
    (count,) = analysis.shape("nz")[1:]
    assert analysis.shape("y") == (count, 2)
    assert [g[0] for g in analysis.guards()] == [f"{count} >= 1"]
    at_zero = check(m, [{"x": np.zeros((2, 3), np.float32)}], analysis=analysis).runs[-1].env
    assert at_zero[str(count)] == 0 and not guards_hold(analysis, at_zero)
    assert_sound(check(m, [{"x": np.ones((2, 3), np.float32)}], analysis=analysis))


def test_a_zero_or_one_reshape_target_element_copies_or_keeps_exactly() -> None:
    """Fuzz seed 2682: a computed target element t = Max(0, Min(1 - n, n)) (allowzero 0) is 0
    at every n, so it copies the input dim, but its bounds only say t in [0, 1]: the guard
    ``t >= 1`` then made the -1's element count 0 and the analysis refused a model onnxruntime
    runs. A 0/1 element is now exactly ``t + (1 - t)*d``."""
    nodes = [helper.make_node("Shape", ["x"], ["s"]),
             helper.make_node("Gather", ["s", "one"], ["n"]),
             helper.make_node("Sub", ["one", "n"], ["one_minus_n"]),
             helper.make_node("Min", ["one_minus_n", "n"], ["low"]),
             helper.make_node("Max", ["low", "zero"], ["t"]),
             helper.make_node("Concat", ["t", "minus_one"], ["target"], axis=0),
             helper.make_node("Reshape", ["x", "target"], ["y"])]
    inits = [const("one", [1]), const("zero", [0]), const("minus_one", [-1])]
    m = make_model(nodes, [tensor("x", [2, "n"])], ["y"], inits)
    analysis = analyze_onnx(m)
    assert analysis.guards() == []  # y is (2 - t, floor(2*n / (2 - t))): (2, n) at every n, as t is 0
    assert_exact(check(m, [{"n": 0}, {"n": 1}, {"n": 2}, {"n": 5}], analysis=analysis))
