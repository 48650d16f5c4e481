"""Rules of `symshape.rules.mlir.tensor` and `symshape.rules.hlo.extra`: each row's
expected dims come from the op's spec formula evaluated in plain Python at several sizes
(including 0 and 1 where legal), the facts each op implies are checked on the analysis, and
jax's FFT is checked against ``jax.eval_shape``; one module using these ops round-trips through
``shape-optimization``."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from symshape.algebra.expr import evaluate
from symshape.errors import ContradictionError, ModelError
from symshape.frontends.mlir.frontend import analyze_mlir_text

Env = dict[str, int]
SIZES = [0, 1, 2, 3, 8, 12]
DYN = -9223372036854775808  # ShapedType::kDynamic


def analyze_body(args: str, body: str, facts: tuple[str, ...] = ()):
    text = f"func.func @f({args}) {{\n{body}\n  return\n}}"
    return analyze_mlir_text(text, facts=facts)


def dims_at(result, name: str, env: Env) -> tuple[int, ...]:
    got = result.shape(f"@f:%{name}")
    assert got is not None, name
    return tuple(evaluate(d, env) for d in got)


def envs(names: list[str], least: int = 0, step: int = 1) -> list[Env]:
    sizes = [s for s in SIZES if s >= least and s % step == 0]
    return [dict(zip(names, combo, strict=True)) for combo in itertools.product(sizes, repeat=len(names))][:48]


def half_plus_one(n: int) -> int:
    """StableHLO fft (C5): ``dim == 0 ? 0 : dim / 2 + 1``."""
    return 0 if n == 0 else n // 2 + 1


DIMS = ("%c0 = arith.constant 0 : index\n%c1 = arith.constant 1 : index\n"
        "%d0 = tensor.dim %x, %c0 : tensor<?x?xf32>\n%d1 = tensor.dim %x, %c1 : tensor<?x?xf32>\n")
REGION = "({\n ^bb0(%p: tensor<f32>, %q: tensor<f32>):\n  %m = stablehlo.add %p, %q : tensor<f32>\n  " \
         "stablehlo.return %m : tensor<f32>\n})"

# Rows: (id, arguments, body, value, symbols, smallest size, oracle(env) -> dims from the spec).
ROWS: list[tuple[str, str, str, str, list[str], int, Callable[[Env], tuple[int, ...]]]] = [
    ("extract_slice mixed", "%x: tensor<?x?xf32>, %o: index, %s: index",
     "%r = tensor.extract_slice %x[%o, 2] [%s, 3] [1, 2] : tensor<?x?xf32> to tensor<?x3xf32>",
     "r", ["s"], 0, lambda e: (e["s"], 3)),
    ("extract_slice size from dims", "%x: tensor<?x?xf32>", DIMS +
     "%n = arith.subi %d0, %c1 : index\n"
     "%r = tensor.extract_slice %x[1, 0] [%n, %d1] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>",
     "r", ["x_d0", "x_d1"], 1, lambda e: (e["x_d0"] - 1, e["x_d1"])),
    ("extract_slice rank-reducing", "%x: tensor<?x?x?xf32>, %s: index",
     "%r = tensor.extract_slice %x[0, 0, 0] [1, %s, 1] [1, 1, 1] : tensor<?x?x?xf32> to tensor<?xf32>",
     "r", ["s"], 0, lambda e: (e["s"],)),
    ("extract_slice generic", "%x: tensor<?x?xf32>, %s: index",
     f'%r = "tensor.extract_slice"(%x, %s) <{{operandSegmentSizes = array<i32: 1, 0, 1, 0>, '
     f"static_offsets = array<i64: 0, 0>, static_sizes = array<i64: 1, {DYN}>, "
     "static_strides = array<i64: 1, 1>}> : (tensor<?x?xf32>, index) -> tensor<?xf32>",
     "r", ["s"], 0, lambda e: (e["s"],)),
    ("insert_slice", "%x: tensor<?x?xf32>, %y: tensor<?xf32>, %o: index",
     "%r = tensor.insert_slice %y into %x[%o, 0] [1, 4] [1, 1] : tensor<?xf32> into tensor<?x?xf32>",
     "r", ["x_d0", "x_d1"], 0, lambda e: (e["x_d0"], e["x_d1"])),
    ("expand_shape output_shape", "%x: tensor<?x?xf32>", DIMS +
     "%r = tensor.expand_shape %x [[0], [1, 2]] output_shape [%d0, 1, %d1] : tensor<?x?xf32> into "
     "tensor<?x1x?xf32>", "r", ["x_d0", "x_d1"], 0, lambda e: (e["x_d0"], 1, e["x_d1"])),
    ("expand_shape solves the unknown", "%x: tensor<?x4xf32>, %t: tensor<index>",
     "%f = tensor.collapse_shape %x [[0, 1]] : tensor<?x4xf32> into tensor<?xf32>\n"
     "%n = tensor.extract %t[] : tensor<index>\n"
     "%r = tensor.expand_shape %f [[0, 1]] output_shape [%n, 4] : tensor<?xf32> into tensor<?x4xf32>",
     "r", ["x_d0"], 0, lambda e: (e["x_d0"], 4)),
    ("pad", "%x: tensor<?x?xf32>, %o: index, %h: index",
     "%z = arith.constant 0.0 : f32\n%r = tensor.pad %x low[1, %o] high[%h, 0] {\n"
     "^bb0(%i: index, %j: index):\n  tensor.yield %z : f32\n} : tensor<?x?xf32> to tensor<?x?xf32>",
     "r", ["x_d0", "x_d1", "o", "h"], 0, lambda e: (e["x_d0"] + 1 + e["h"], e["x_d1"] + e["o"])),
    ("generate", "%a: index, %b: index",
     "%r = tensor.generate %a, %b {\n^bb0(%i: index, %j: index, %k: index):\n  %v = arith.constant 1.0 : f32\n"
     "  tensor.yield %v : f32\n} : tensor<?x3x?xf32>", "r", ["a", "b"], 0, lambda e: (e["a"], 3, e["b"])),
    ("splat", "%x: tensor<?x?xf32>, %v: f32", DIMS + "%r = tensor.splat %v[%d1] : tensor<2x?xf32>",
     "r", ["x_d1"], 0, lambda e: (2, e["x_d1"])),
    ("reshape", "%x: tensor<?x?xf32>", DIMS + "%n = arith.muli %d0, %d1 : index\n"
     "%s = tensor.from_elements %n : tensor<1xindex>\n"
     "%r = tensor.reshape %x(%s) : (tensor<?x?xf32>, tensor<1xindex>) -> tensor<?xf32>",
     "r", ["x_d0", "x_d1"], 0, lambda e: (e["x_d0"] * e["x_d1"],)),
    ("insert", "%t: tensor<?xindex>, %v: index", "%c0 = arith.constant 0 : index\n"
     "%r = tensor.insert %v into %t[%c0] : tensor<?xindex>", "r", ["t_d0"], 1, lambda e: (e["t_d0"],)),
    # ------------------------------------------------------------------ stablehlo / mhlo
    ("batch_norm_inference", "%x: tensor<?x?x?xf32>, %s: tensor<?xf32>",
     '%r = "stablehlo.batch_norm_inference"(%x, %s, %s, %s, %s) {epsilon = 1.0e-05 : f32, feature_index = 1 : i64}'
     " : (tensor<?x?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?x?x?xf32>",
     "r", ["x_d0", "x_d1", "x_d2"], 0, lambda e: (e["x_d0"], e["x_d1"], e["x_d2"])),
    ("batch_norm_training mean", "%x: tensor<?x?xf32>, %s: tensor<?xf32>",
     '%r:3 = "mhlo.batch_norm_training"(%x, %s, %s) {epsilon = 1.0e-05 : f32, feature_index = 1 : i64} : '
     "(tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>) -> (tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>)",
     "r#1", ["x_d1"], 0, lambda e: (e["x_d1"],)),
    ("batch_norm_grad operand", "%x: tensor<?x?xf32>, %s: tensor<?xf32>, %g: tensor<?x?xf32>",
     '%r:3 = "stablehlo.batch_norm_grad"(%x, %s, %s, %s, %g) {epsilon = 1.0e-05 : f32, feature_index = 0 : i64} : '
     "(tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?x?xf32>) -> "
     "(tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>)", "r#0", ["x_d0", "x_d1"], 0, lambda e: (e["x_d0"], e["x_d1"])),
    ("rng", "%x: tensor<?x?xf32>, %a: tensor<f32>", DIMS + "%c3 = arith.constant 3 : index\n"
     "%s = tensor.from_elements %d1, %c3, %d0 : tensor<3xindex>\n"
     '%r = "stablehlo.rng"(%a, %a, %s) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : '
     "(tensor<f32>, tensor<f32>, tensor<3xindex>) -> tensor<?x3x?xf32>",
     "r", ["x_d0", "x_d1"], 0, lambda e: (e["x_d1"], 3, e["x_d0"])),
    ("rng_bit_generator state", "%s: tensor<?xui64>",
     '%r:2 = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm DEFAULT>} : '
     "(tensor<?xui64>) -> (tensor<?xui64>, tensor<4x5xui32>)", "r#0", ["s_d0"], 0, lambda e: (e["s_d0"],)),
    ("select_and_scatter", "%x: tensor<?x?xf32>, %s: tensor<?x?xf32>, %z: tensor<f32>",
     '%r = "stablehlo.select_and_scatter"(%x, %s, %z) ({\n ^bb0(%p: tensor<f32>, %q: tensor<f32>):\n'
     "  %c = stablehlo.compare GE, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
     "  stablehlo.return %c : tensor<i1>\n}, {\n ^bb0(%p: tensor<f32>, %q: tensor<f32>):\n"
     "  %m = stablehlo.add %p, %q : tensor<f32>\n  stablehlo.return %m : tensor<f32>\n}) "
     "{window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 2>} : "
     "(tensor<?x?xf32>, tensor<?x?xf32>, tensor<f32>) -> tensor<?x?xf32>",
     "r", ["x_d0", "x_d1"], 0, lambda e: (e["x_d0"], e["x_d1"])),
    ("cholesky", "%x: tensor<?x?x?xf32>",
     '%r = "stablehlo.cholesky"(%x) {lower = true} : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>',
     "r", ["x_d0", "x_d1"], 0, lambda e: (e["x_d0"], e["x_d1"], e["x_d1"])),
    ("triangular_solve right", "%a: tensor<?x?x?xf32>, %b: tensor<?x?x?xf32>",
     '%r = "stablehlo.triangular_solve"(%a, %b) {left_side = false, lower = true, unit_diagonal = false, '
     "transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> "
     "tensor<?x?x?xf32>", "r", ["a_d0", "a_d1", "b_d1"], 0, lambda e: (e["a_d0"], e["b_d1"], e["a_d1"])),
    ("all_reduce", "%x: tensor<?x5xf32>",
     f'%r = "stablehlo.all_reduce"(%x) {REGION} {{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}} : '
     "(tensor<?x5xf32>) -> tensor<?x5xf32>", "r", ["x_d0"], 0, lambda e: (e["x_d0"], 5)),
    ("all_gather", "%x: tensor<?x?xf32>",
     '%r = "stablehlo.all_gather"(%x) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1, 2], [3, 4, 5]]> : '
     "tensor<2x3xi64>} : (tensor<?x?xf32>) -> tensor<?x?xf32>",
     "r", ["x_d0", "x_d1"], 0, lambda e: (e["x_d0"], 3 * e["x_d1"])),
    ("all_to_all", "%x: tensor<?x?xf32>",
     '%r = "stablehlo.all_to_all"(%x) {split_dimension = 0 : i64, concat_dimension = 1 : i64, split_count = 4 : i64, '
     "replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<?x?xf32>) -> tensor<?x?xf32>",
     "r", ["x_d0", "x_d1"], 0, lambda e: (e["x_d0"] // 4, 4 * e["x_d1"])),
]
for _n in (0, 1, 2, 7, 8):
    ROWS += [
        (f"rfft {_n}", f"%x: tensor<?x3x{_n}xf32>",
         f'%r = "stablehlo.fft"(%x) {{fft_type = #stablehlo<fft_type RFFT>, fft_length = array<i64: 3, {_n}>}} : '
         f"(tensor<?x3x{_n}xf32>) -> tensor<?x3x?xcomplex<f32>>",
         "r", ["x_d0"], 0, lambda e, n=_n: (e["x_d0"], 3, half_plus_one(n))),
        (f"irfft {_n}", "%x: tensor<?x?xcomplex<f32>>",
         f'%r = "stablehlo.fft"(%x) {{fft_type = #stablehlo<fft_type IRFFT>, fft_length = array<i64: {_n}>}} : '
         "(tensor<?x?xcomplex<f32>>) -> tensor<?x?xf32>", "r", ["x_d0"], 0, lambda e, n=_n: (e["x_d0"], n)),
    ]


@pytest.mark.parametrize(("args", "body", "value", "names", "least", "oracle"), [r[1:] for r in ROWS],
                         ids=[r[0] for r in ROWS])
def test_shape_rule_matches_the_spec(args: str, body: str, value: str, names: list[str], least: int,
                                     oracle: Callable[[Env], tuple[int, ...]]) -> None:
    result = analyze_body(args, body)
    assert not result.warnings, result.warnings
    step = 4 if "all_to_all" in body else 1
    for env in envs(names, least, step):
        assert dims_at(result, value, env) == oracle(env), env


# ------------------------------------------------------------------------------- facts


def _sym(result, name: str) -> dict:
    return result.symbols()[name]


def test_batch_norm_vectors_have_the_feature_size() -> None:
    result = analyze_body(
        "%x: tensor<?x?x?xf32>, %s: tensor<?xf32>, %m: tensor<?xf32>",
        '%r = "stablehlo.batch_norm_inference"(%x, %s, %s, %m, %m) {epsilon = 1.0e-05 : f32, feature_index = 2 : i64}'
        " : (tensor<?x?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?x?x?xf32>",
    )
    assert result.same_dim(("@f:%s", 0), ("@f:%x", 2)) is True
    assert result.same_dim(("@f:%m", 0), ("@f:%x", 2)) is True
    assert result.same_dim(("@f:%s", 0), ("@f:%x", 1)) is None


def test_batch_norm_training_feature_mismatch_is_a_contradiction() -> None:
    with pytest.raises(ContradictionError, match="scale"):
        analyze_body(
            "%x: tensor<2x4xf32>, %s: tensor<3xf32>",
            '%r:3 = "stablehlo.batch_norm_training"(%x, %s, %s) {epsilon = 1.0e-05 : f32, feature_index = 1 : i64} '
            ": (tensor<2x4xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>)",
        )


def test_batch_norm_grad_output_has_the_operand_shape() -> None:
    result = analyze_body(
        "%x: tensor<?x?xf32>, %s: tensor<?xf32>, %g: tensor<?x?xf32>",
        '%r:3 = "stablehlo.batch_norm_grad"(%x, %s, %s, %s, %g) {epsilon = 1.0e-05 : f32, feature_index = 0 : i64} : '
        "(tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?x?xf32>) -> "
        "(tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>)",
    )
    assert result.same_shape("@f:%g", "@f:%x") is True
    assert result.same_dim(("@f:%r#2", 0), ("@f:%x", 0)) is True


def test_insert_slice_source_dims_are_the_sizes() -> None:
    result = analyze_body(
        "%x: tensor<?x?x?xf32>, %y: tensor<?x?xf32>, %s: index",
        "%r = tensor.insert_slice %y into %x[0, 0, 1] [%s, 1, 3] [1, 1, 2] : tensor<?x?xf32> into tensor<?x?x?xf32>",
    )
    assert not result.warnings
    assert result.elements("@f:%s") == (result.shape("@f:%y")[0],)  # one symbol now
    assert result.shape("@f:%y")[1] == 3
    assert _sym(result, "x_d2")["range"][0] == 1 + 2 * 2 + 1  # the last element, 5, lies inside dim 2
    assert _sym(result, "x_d1")["range"][0] == 1  # a size-1 slice needs a non-empty dim


def test_extract_slice_of_size_zero_needs_no_room() -> None:
    result = analyze_body(
        "%x: tensor<?xf32>, %s: index",
        "%r = tensor.extract_slice %x[4] [%s] [1] : tensor<?xf32> to tensor<?xf32>\n"
        "%q = tensor.extract_slice %x[4] [0] [1] : tensor<?xf32> to tensor<0xf32>",
    )
    assert _sym(result, "x_d0")["range"][0] == 0  # s may be 0, so offset 4 proves nothing
    proven = analyze_body("%x: tensor<?xf32>",
                          "%r = tensor.extract_slice %x[4] [2] [1] : tensor<?xf32> to tensor<2xf32>")
    assert _sym(proven, "x_d0")["range"][0] == 6


def test_rank_reduction_must_drop_unit_dims_only() -> None:
    with pytest.raises(ModelError, match="rank-reduce"):
        analyze_body("%x: tensor<?x?xf32>",
                     '%r = "tensor.extract_slice"(%x) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, '
                     "static_offsets = array<i64: 0, 0>, static_sizes = array<i64: 2, 3>, "
                     "static_strides = array<i64: 1, 1>}> : (tensor<?x?xf32>) -> tensor<3xf32>")


def test_expand_shape_group_product_is_a_fact() -> None:
    result = analyze_body(
        "%x: tensor<?xf32>, %a: index, %b: index",
        "%r = tensor.expand_shape %x [[0, 1]] output_shape [%a, %b] : tensor<?xf32> into tensor<?x?xf32>",
    )
    assert result.same_numel("@f:%x", "@f:%r") is True
    for env in envs(["a", "b"]):
        assert dims_at(result, "r", env) == (env["a"], env["b"])
    fixed = analyze_body(
        "%x: tensor<?xf32>, %a: index",
        "%r = tensor.expand_shape %x [[0, 1]] output_shape [%a, 3] : tensor<?xf32> into tensor<?x3xf32>",
    )
    for env in envs(["a"]):
        assert dims_at(fixed, "x", env) == (3 * env["a"],)


def test_expand_shape_static_mismatch_is_an_invalid_module() -> None:
    # The module verifier (run before the analysis) rejects it, naming the op.
    with pytest.raises(ModelError, match=r"tensor\.expand_shape .*does not verify.*12"):
        analyze_body("%x: tensor<10xf32>",
                     "%r = tensor.expand_shape %x [[0, 1]] output_shape [3, 4] : tensor<10xf32> into tensor<3x4xf32>")


def test_expand_shape_reassociation_must_cover_the_result() -> None:
    with pytest.raises(ModelError, match="reassociation"):
        analyze_body("%x: tensor<?xf32>",
                     '%r = "tensor.expand_shape"(%x) <{reassociation = [[0, 1]], static_output_shape = '
                     "array<i64: 2, 3, 4>}> : (tensor<?xf32>) -> tensor<2x3x4xf32>")


def test_linalg_facts() -> None:
    result = analyze_body(
        "%x: tensor<?x?x?xf32>, %a: tensor<?x?x?xf32>, %b: tensor<?x?x?xf32>",
        '%c = "stablehlo.cholesky"(%x) {lower = true} : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>\n'
        '%r = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, '
        "transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> "
        "tensor<?x?x?xf32>",
    )
    assert result.same_dim(("@f:%x", 1), ("@f:%x", 2)) is True
    assert result.same_dim(("@f:%a", 0), ("@f:%b", 0)) is True
    assert result.same_dim(("@f:%a", 2), ("@f:%b", 1)) is True  # left side: a's size is b's rows
    assert result.same_dim(("@f:%a", 1), ("@f:%b", 2)) is None
    assert result.same_shape("@f:%r", "@f:%b") is True


def test_fft_real_side_matches_the_length() -> None:
    result = analyze_body(
        "%x: tensor<?x?xf32>, %y: tensor<?x?xcomplex<f32>>",
        '%r = "stablehlo.fft"(%x) {fft_type = #stablehlo<fft_type RFFT>, fft_length = array<i64: 8>} : '
        "(tensor<?x?xf32>) -> tensor<?x?xcomplex<f32>>\n"
        '%i = "stablehlo.fft"(%y) {fft_type = #stablehlo<fft_type IRFFT>, fft_length = array<i64: 8>} : '
        "(tensor<?x?xcomplex<f32>>) -> tensor<?x?xf32>",
    )
    assert result.shape("@f:%x")[1] == 8
    assert result.shape("@f:%y")[1] == 8 // 2 + 1
    assert result.shape("@f:%r")[1] == 8 // 2 + 1


def _collective(attrs: str, op: str = "all_gather", dim: str = "all_gather_dim = 1 : i64") -> tuple:
    result = analyze_body(
        "%x: tensor<?x?xf32>",
        f'%r = "stablehlo.{op}"(%x) {{{dim}, replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>{attrs}}} : '
        "(tensor<?x?xf32>) -> tensor<?x?xf32>",
    )
    return result, result.shape("@f:%r")


def test_all_gather_group_size_only_from_a_known_strategy() -> None:
    env = {"x_d0": 2, "x_d1": 5}
    _, plain = _collective("")
    assert evaluate(plain[1], env) == 15
    _, flattened = _collective(", channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, "
                               "use_global_device_ids")
    assert evaluate(flattened[1], env) == 15
    # cross_replica_and_partition: the group also spans the partitions, unknown here
    result, mixed = _collective(", channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>")
    assert not result.warnings
    assert mixed[0] == result.shape("@f:%x")[0]
    with pytest.raises(KeyError):
        evaluate(mixed[1], env)


def test_reduce_scatter_divides_the_dim() -> None:
    result = analyze_body(
        "%x: tensor<?x?xf32>",
        f'%r = "stablehlo.reduce_scatter"(%x) {REGION} {{scatter_dimension = 0 : i64, replica_groups = '
        "dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : (tensor<?x?xf32>) -> tensor<?x?xf32>",
    )
    assert not result.warnings
    assert _sym(result, "x_d0")["divisor"] == 2
    for env in envs(["x_d0", "x_d1"], 0, 2):
        assert dims_at(result, "r", env) == (env["x_d0"] // 2, env["x_d1"])


def test_all_to_all_split_count_divides() -> None:
    result, _ = _collective(", split_count = 3 : i64", "all_to_all", "split_dimension = 1 : i64, "
                            "concat_dimension = 0 : i64")
    assert _sym(result, "x_d1")["divisor"] == 3
    for env in envs(["x_d0", "x_d1"], 0, 3):
        assert dims_at(result, "r", env) == (3 * env["x_d0"], env["x_d1"] // 3)


# --------------------------------------------------------------------- jax as the oracle


@pytest.mark.needs_jax
@pytest.mark.parametrize(("name", "spec", "dtype"), [
    ("rfft", "b, 8", "float32"), ("rfft2", "b, 4, 6", "float32"), ("irfft", "b, 5", "complex64"),
    ("ifft", "b, 6", "complex64"), ("rfft odd", "b, 7", "float32"),
])
def test_fft_matches_jax(name: str, spec: str, dtype: str) -> None:
    import jax
    import numpy as np
    from jax import export

    fns = {"rfft": lambda x: jax.numpy.fft.rfft(x), "rfft2": lambda x: jax.numpy.fft.rfft2(x),
           "irfft": lambda x: jax.numpy.fft.irfft(x, n=8), "ifft": lambda x: jax.numpy.fft.ifft(x),
           "rfft odd": lambda x: jax.numpy.fft.rfft(x)}
    fn = fns[name]
    arg = jax.ShapeDtypeStruct(export.symbolic_shape(spec), np.dtype(dtype))
    text = export.export(jax.jit(fn))(arg).mlir_module()
    assert "stablehlo.fft" in text
    result = analyze_mlir_text(text)
    assert not result.warnings, result.warnings
    (out,) = [o for o in result.program.outputs if o.startswith("@main:")]
    for b in (1, 2, 5):
        concrete = tuple(b if d.strip() == "b" else int(d) for d in spec.split(","))
        want = jax.eval_shape(fn, jax.ShapeDtypeStruct(concrete, np.dtype(dtype))).shape
        assert tuple(evaluate(d, {"b": b}) for d in result.shape(out)) == want, (name, b)


# ----------------------------------------------------------------------- round trip

MODULE = """func.func @main(%x: tensor<?x?xf32>, %s: tensor<?xf32>, %o: index) -> (tensor<?x?xf32>, tensor<?x3xf32>,
    tensor<?x?xf32>, tensor<?x1x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %n = "stablehlo.batch_norm_inference"(%x, %s, %s, %s, %s) {epsilon = 1.0e-05 : f32, feature_index = 1 : i64} :
    (tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  %e = tensor.extract_slice %n[0, %o] [%d0, 3] [1, 1] : tensor<?x?xf32> to tensor<?x3xf32>
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[1, %o] high[2, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %z : f32
  } : tensor<?x?xf32> to tensor<?x?xf32>
  %q = tensor.collapse_shape %x [[0, 1]] : tensor<?x?xf32> into tensor<?xf32>
  %x4 = tensor.expand_shape %q [[0, 1, 2]] output_shape [%d1, 1, %d0] : tensor<?xf32> into tensor<?x1x?xf32>
  return %n, %e, %p, %x4 : tensor<?x?xf32>, tensor<?x3xf32>, tensor<?x?xf32>, tensor<?x1x?xf32>
}
"""


def test_shape_optimization_round_trips(tmp_path) -> None:
    from symshape.tools.mlir_passes.opt import run_opt

    path = tmp_path / "extra.mlir"
    path.write_text(MODULE)
    once = run_opt(path, ["shape-optimization"])
    again = tmp_path / "once.mlir"
    again.write_text(once)
    assert run_opt(again, ["shape-optimization"]) == once
    assert "tensor.extract_slice" in once and "stablehlo.batch_norm_inference" in once
