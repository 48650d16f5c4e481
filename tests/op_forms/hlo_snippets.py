"""Hand-written StableHLO snippets, one or more per op, in generic form (``make_op_forms.py``
prints each through ``iree-opt`` for StableHLO and through jaxlib's MHLO for ``mhlo.*``).

Each entry is ``(key, arguments, body[, more functions])``; the key is the op name, with ``#variant``
when an op has several snippets. ``D`` is the dialect prefix, replaced by ``stablehlo`` or ``mhlo``.
"""

from __future__ import annotations

F = "tensor<?x4xf32>"
I = "tensor<?x4xi32>"  # noqa: E741 - the integer twin of F
C = "tensor<?x4xcomplex<f32>>"
B = "tensor<?x4xi1>"
S = "tensor<f32>"

_REGION = (
    "({{\n  ^bb0(%p: {t}, %q: {t}):\n    %m = \"D.add\"(%p, %q) : ({t}, {t}) -> {t}\n"
    "    \"D.return\"(%m) : ({t}) -> ()\n  }})"
)


def region(t: str = S) -> str:
    """A region that adds its two arguments: the body of reduce, reduce_window, all_reduce..."""
    return _REGION.format(t=t)


def unary(op: str, arg: str = F, res: str = F, attrs: str = "") -> tuple[str, str, str]:
    return (op, f"%a: {arg}", f'%r = "D.{op}"(%a) {attrs}: ({arg}) -> {res}')


def binary(op: str, arg: str = F, res: str = F) -> tuple[str, str, str]:
    return (op, f"%a: {arg}, %b: {arg}", f'%r = "D.{op}"(%a, %b) : ({arg}, {arg}) -> {res}')


FLOAT_UNARY = (
    "abs", "cbrt", "ceil", "cosine", "exponential", "exponential_minus_one", "floor", "log", "log_plus_one",
    "logistic", "negate", "round_nearest_afz", "round_nearest_even", "rsqrt", "sign", "sine", "sqrt", "tan",
    "tanh",
)
MHLO_ONLY_UNARY = ("cosh", "sinh", "erf")  # chlo ops in StableHLO
MHLO_ONLY = frozenset(MHLO_ONLY_UNARY)
STABLEHLO_ONLY = frozenset({"unary_einsum"})  # MHLO dropped it (see make_op_forms.HISTORIC)
INT_UNARY = ("not", "popcnt", "count_leading_zeros")
FLOAT_BINARY = ("add", "atan2", "divide", "maximum", "minimum", "multiply", "power", "remainder", "subtract")
INT_BINARY = ("and", "or", "xor", "shift_left", "shift_right_arithmetic", "shift_right_logical")

SNIPPETS: list[tuple[str, ...]] = [
    *(unary(op) for op in (*FLOAT_UNARY, *MHLO_ONLY_UNARY)),
    *(unary(op, I, I) for op in INT_UNARY),
    ("abs#int", f"%a: {I}", f'%r = "D.abs"(%a) : ({I}) -> {I}'),
    unary("convert", F, I),
    unary("imag", C, F),
    unary("real", C, F),
    unary("is_finite", F, B),
    unary("bitcast_convert", F, I),
    unary("reduce_precision", F, F, "{exponent_bits = 5 : i32, mantissa_bits = 10 : i32} "),
    *(binary(op) for op in FLOAT_BINARY),
    *(binary(op, I, I) for op in INT_BINARY),
    ("add#int", f"%a: {I}, %b: {I}", f'%r = "D.add"(%a, %b) : ({I}, {I}) -> {I}'),
    binary("complex", F, C),
    ("compare", f"%a: {I}, %b: {I}",
     f'%r = "D.compare"(%a, %b) {{comparison_direction = #D<comparison_direction GE>, '
     f"compare_type = #D<comparison_type SIGNED>}} : ({I}, {I}) -> {B}"),
    ("compare#no_type", f"%a: {F}, %b: {F}",
     f'%r = "D.compare"(%a, %b) {{comparison_direction = #D<comparison_direction LT>}} : ({F}, {F}) -> {B}'),
    ("select", f"%c: {B}, %a: {F}, %b: {F}", f'%r = "D.select"(%c, %a, %b) : ({B}, {F}, {F}) -> {F}'),
    ("select#scalar", f"%c: tensor<i1>, %a: {F}, %b: {F}",
     f'%r = "D.select"(%c, %a, %b) : (tensor<i1>, {F}, {F}) -> {F}'),
    ("clamp", f"%lo: {S}, %a: {F}, %hi: {S}", f'%r = "D.clamp"(%lo, %a, %hi) : ({S}, {F}, {S}) -> {F}'),
    ("constant", "", '%r = "D.constant"() {value = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<2xi32>'),
    ("iota", "", '%r = "D.iota"() {iota_dimension = 0 : i64} : () -> tensor<4x3xi32>'),
    ("dynamic_iota", "%s: tensor<2xi32>",
     '%r = "D.dynamic_iota"(%s) {iota_dimension = 1 : i64} : (tensor<2xi32>) -> tensor<?x?xi32>'),
    ("broadcast_in_dim", "%a: tensor<1x4xf32>",
     '%r = "D.broadcast_in_dim"(%a) {broadcast_dimensions = array<i64: 1, 2>} : '
     "(tensor<1x4xf32>) -> tensor<3x5x4xf32>"),
    ("dynamic_broadcast_in_dim", f"%a: {F}, %s: tensor<3xindex>",
     f'%r = "D.dynamic_broadcast_in_dim"(%a, %s) {{broadcast_dimensions = array<i64: 1, 2>}} : '
     f"({F}, tensor<3xindex>) -> tensor<?x?x4xf32>"),
    ("broadcast", f"%a: {F}",
     f'%r = "D.broadcast"(%a) {{broadcast_sizes = array<i64: 2, 3>}} : ({F}) -> tensor<2x3x?x4xf32>'),
    ("reshape", "%a: tensor<2x6xf32>", '%r = "D.reshape"(%a) : (tensor<2x6xf32>) -> tensor<3x4xf32>'),
    ("dynamic_reshape", f"%a: {F}, %s: tensor<2xi32>",
     f'%r = "D.dynamic_reshape"(%a, %s) : ({F}, tensor<2xi32>) -> tensor<?x?xf32>'),
    ("transpose", f"%a: {F}",
     f'%r = "D.transpose"(%a) {{permutation = array<i64: 1, 0>}} : ({F}) -> tensor<4x?xf32>'),
    ("reverse", f"%a: {F}", f'%r = "D.reverse"(%a) {{dimensions = array<i64: 0>}} : ({F}) -> {F}'),
    ("optimization_barrier", f"%a: {F}, %b: {I}",
     f'%r:2 = "D.optimization_barrier"(%a, %b) : ({F}, {I}) -> ({F}, {I})'),
    ("concatenate", f"%a: {F}, %b: {F}",
     f'%r = "D.concatenate"(%a, %b, %a) {{dimension = 0 : i64}} : ({F}, {F}, {F}) -> {F}'),
    ("get_dimension_size", f"%a: {F}",
     f'%r = "D.get_dimension_size"(%a) {{dimension = 0 : i64}} : ({F}) -> tensor<i32>'),
    ("set_dimension_size", f"%a: {F}, %n: tensor<i32>",
     f'%r = "D.set_dimension_size"(%a, %n) {{dimension = 0 : i64}} : ({F}, tensor<i32>) -> {F}'),
    ("slice", f"%a: {F}",
     f'%r = "D.slice"(%a) {{start_indices = array<i64: 0, 1>, limit_indices = array<i64: 2, 4>, '
     f"strides = array<i64: 1, 2>}} : ({F}) -> tensor<2x2xf32>"),
    ("real_dynamic_slice", f"%a: {F}, %s: tensor<2xindex>, %l: tensor<2xindex>, %k: tensor<2xindex>",
     f'%r = "D.real_dynamic_slice"(%a, %s, %l, %k) : ({F}, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) '
     "-> tensor<?x?xf32>"),
    ("dynamic_slice", f"%a: {F}, %i: tensor<i32>",
     f'%r = "D.dynamic_slice"(%a, %i, %i) {{slice_sizes = array<i64: 1, 2>}} : '
     f"({F}, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>"),
    ("dynamic_update_slice", f"%a: {F}, %u: tensor<1x2xf32>, %i: tensor<i32>",
     f'%r = "D.dynamic_update_slice"(%a, %u, %i, %i) : ({F}, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> {F}'),
    ("pad", f"%a: {F}, %z: {S}",
     f'%r = "D.pad"(%a, %z) {{edge_padding_low = array<i64: 1, 0>, edge_padding_high = array<i64: 0, 2>, '
     f"interior_padding = array<i64: 0, 1>}} : ({F}, {S}) -> tensor<?x9xf32>"),
    ("dynamic_pad", f"%a: {F}, %z: {S}, %lo: tensor<2xindex>, %hi: tensor<2xindex>, %in: tensor<2xindex>",
     f'%r = "D.dynamic_pad"(%a, %z, %lo, %hi, %in) : ({F}, {S}, tensor<2xindex>, tensor<2xindex>, '
     "tensor<2xindex>) -> tensor<?x?xf32>"),
    ("dot", f"%a: {F}, %b: tensor<4x5xf32>", f'%r = "D.dot"(%a, %b) : ({F}, tensor<4x5xf32>) -> tensor<?x5xf32>'),
    ("dot#precision", f"%a: {F}, %b: tensor<4x5xf32>",
     f'%r = "D.dot"(%a, %b) {{precision_config = [#D<precision DEFAULT>, #D<precision HIGHEST>]}} : '
     f"({F}, tensor<4x5xf32>) -> tensor<?x5xf32>"),
    ("dot_general", "%a: tensor<?x?x4xf32>, %b: tensor<?x4x6xf32>",
     '%r = "D.dot_general"(%a, %b) {dot_dimension_numbers = #D.dot<lhs_batching_dimensions = [0], '
     "rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>} : "
     "(tensor<?x?x4xf32>, tensor<?x4x6xf32>) -> tensor<?x?x6xf32>"),
    ("dot_general#contracting_only", f"%a: {F}, %b: tensor<4x6xf32>",
     '%r = "D.dot_general"(%a, %b) {dot_dimension_numbers = #D.dot<lhs_contracting_dimensions = [1], '
     f"rhs_contracting_dimensions = [0]>}} : ({F}, tensor<4x6xf32>) -> tensor<?x6xf32>"),
    ("einsum", f"%a: {F}, %b: tensor<4x?xf32>",
     f'%r = "D.einsum"(%a, %b) {{einsum_config = "ab,bc->ca"}} : ({F}, tensor<4x?xf32>) -> tensor<?x?xf32>'),
    ("unary_einsum", f"%a: {F}",
     f'%r = "D.unary_einsum"(%a) {{einsum_config = "ab->ba"}} : ({F}) -> tensor<4x?xf32>'),
    ("reduce", f"%a: {F}, %z: {S}",
     f'%r = "D.reduce"(%a, %z) {region()} {{dimensions = array<i64: 1>}} : ({F}, {S}) -> tensor<?xf32>'),
    ("reduce#reducer", f"%a: {F}, %z: {S}",
     f'%r = "D.reduce"(%a, %z) ({{\n  ^bb0(%p: {S}, %q: {S}):\n    %m = "D.add"(%p, %q) : ({S}, {S}) -> {S}\n'
     f'    %n = "D.multiply"(%m, %q) : ({S}, {S}) -> {S}\n    "D.return"(%n) : ({S}) -> ()\n  }}) '
     f"{{dimensions = array<i64: 0>}} : ({F}, {S}) -> tensor<4xf32>"),
    ("convolution", "%x: tensor<?x3x?x?xf32>, %w: tensor<8x3x3x3xf32>",
     '%r = "D.convolution"(%x, %w) {dimension_numbers = #D.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, '
     "window_strides = array<i64: 2, 1>, padding = dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>, "
     "rhs_dilation = array<i64: 1, 2>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : "
     "(tensor<?x3x?x?xf32>, tensor<8x3x3x3xf32>) -> tensor<?x8x?x?xf32>"),
    ("dynamic_conv", "%x: tensor<?x3x?x?xf32>, %w: tensor<8x3x3x3xf32>",
     '%p = "D.constant"() {value = dense<[[1, 1], [0, 0]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>\n  '
     '%r = "D.dynamic_conv"(%x, %w, %p) {dimension_numbers = #D.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, '
     "window_strides = array<i64: 1, 1>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : "
     "(tensor<?x3x?x?xf32>, tensor<8x3x3x3xf32>, tensor<2x2xi32>) -> tensor<?x8x?x?xf32>"),
    ("reduce_window", f"%a: {F}, %z: {S}",
     f'%r = "D.reduce_window"(%a, %z) {region()} {{window_dimensions = array<i64: 2, 1>, '
     f"window_strides = array<i64: 1, 1>}} : ({F}, {S}) -> tensor<?x4xf32>"),
    ("gather", f"%a: {F}, %i: tensor<?x1xi32>",
     '%r = "D.gather"(%a, %i) {dimension_numbers = #D.gather<offset_dims = [1], collapsed_slice_dims = [0], '
     "start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>} : "
     f"({F}, tensor<?x1xi32>) -> tensor<?x4xf32>"),
    ("dynamic_gather", f"%a: {F}, %i: tensor<?x1xi32>",
     '%s = "D.constant"() {value = dense<[1, 4]> : tensor<2xi32>} : () -> tensor<2xi32>\n  '
     '%r = "D.dynamic_gather"(%a, %i, %s) {dimension_numbers = #D.gather<offset_dims = [1], '
     "collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>} : "
     f"({F}, tensor<?x1xi32>, tensor<2xi32>) -> tensor<?x4xf32>"),
    ("scatter", f"%a: {F}, %i: tensor<?x1xi32>, %u: {F}",
     f'%r = "D.scatter"(%a, %i, %u) {region()} {{scatter_dimension_numbers = #D.scatter<'
     "update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], "
     f"index_vector_dim = 1>}} : ({F}, tensor<?x1xi32>, {F}) -> {F}"),
    ("custom_call", f"%a: {F}",
     f'%r = "D.custom_call"(%a) {{call_target_name = "foo"}} : ({F}) -> {F}'),
    ("custom_call#shape_assertion", f"%a: {F}",
     f'%d = "D.get_dimension_size"(%a) {{dimension = 0 : i64}} : ({F}) -> tensor<i32>\n  '
     '%c = "D.constant"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>\n  '
     '%ok = "D.compare"(%d, %c) {comparison_direction = #D<comparison_direction GE>} : '
     "(tensor<i32>, tensor<i32>) -> tensor<i1>\n  "
     '"D.custom_call"(%ok, %d) {call_target_name = "shape_assertion", error_message = "a.shape[0] >= 2", '
     "has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()"),
    ("while", f"%a: {F}, %n: tensor<i32>",
     f'%r:2 = "D.while"(%a, %n) ({{\n  ^bb0(%x: {F}, %i: tensor<i32>):\n'
     '    %c = "D.compare"(%i, %i) {comparison_direction = #D<comparison_direction LT>} : '
     "(tensor<i32>, tensor<i32>) -> tensor<i1>\n"
     '    "D.return"(%c) : (tensor<i1>) -> ()\n  }, {\n'
     f'  ^bb0(%x: {F}, %i: tensor<i32>):\n    %y = "D.add"(%x, %x) : ({F}, {F}) -> {F}\n'
     f'    "D.return"(%y, %i) : ({F}, tensor<i32>) -> ()\n  }}) : ({F}, tensor<i32>) -> ({F}, tensor<i32>)'),
    ("sort", f"%a: {F}",
     f'%r = "D.sort"(%a) ({{\n  ^bb0(%p: {S}, %q: {S}):\n'
     '    %c = "D.compare"(%p, %q) {comparison_direction = #D<comparison_direction GT>} : '
     f'({S}, {S}) -> tensor<i1>\n    "D.return"(%c) : (tensor<i1>) -> ()\n  }}) '
     f"{{dimension = 1 : i64, is_stable = true}} : ({F}) -> {F}"),
    ("case", f"%k: tensor<i32>, %a: {F}, %b: {F}",
     f'%r = "D.case"(%k) ({{\n    "D.return"(%a) : ({F}) -> ()\n  }}, {{\n'
     f'    "D.return"(%b) : ({F}) -> ()\n  }}) : (tensor<i32>) -> {F}'),
    ("if", f"%c: tensor<i1>, %a: {F}, %b: {F}",
     f'%r = "D.if"(%c) ({{\n    "D.return"(%a) : ({F}) -> ()\n  }}, {{\n'
     f'    "D.return"(%b) : ({F}) -> ()\n  }}) : (tensor<i1>) -> {F}'),
    ("batch_norm_inference", "%x: tensor<?x?x3xf32>, %s: tensor<3xf32>",
     '%r = "D.batch_norm_inference"(%x, %s, %s, %s, %s) {epsilon = 1.0e-05 : f32, feature_index = 2 : i64} : '
     "(tensor<?x?x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<?x?x3xf32>"),
    ("batch_norm_training", "%x: tensor<?x?x3xf32>, %s: tensor<3xf32>",
     '%r:3 = "D.batch_norm_training"(%x, %s, %s) {epsilon = 1.0e-05 : f32, feature_index = 2 : i64} : '
     "(tensor<?x?x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<?x?x3xf32>, tensor<3xf32>, tensor<3xf32>)"),
    ("batch_norm_grad", "%x: tensor<?x?x3xf32>, %s: tensor<3xf32>",
     '%r:3 = "D.batch_norm_grad"(%x, %s, %s, %s, %x) {epsilon = 1.0e-05 : f32, feature_index = 2 : i64} : '
     "(tensor<?x?x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<?x?x3xf32>) -> "
     "(tensor<?x?x3xf32>, tensor<3xf32>, tensor<3xf32>)"),
    ("rng", f"%lo: {S}, %hi: {S}, %s: tensor<2xi64>",
     f'%r = "D.rng"(%lo, %hi, %s) {{rng_distribution = #D<rng_distribution UNIFORM>}} : '
     f"({S}, {S}, tensor<2xi64>) -> tensor<?x?xf32>"),
    ("rng_bit_generator", "%s: tensor<2xui64>",
     '%r:2 = "D.rng_bit_generator"(%s) {rng_algorithm = #D<rng_algorithm DEFAULT>} : '
     "(tensor<2xui64>) -> (tensor<2xui64>, tensor<4x5xui32>)"),
    ("fft", f"%a: {C}",
     f'%r = "D.fft"(%a) {{fft_type = #D<fft_type FFT>, fft_length = array<i64: 4>}} : ({C}) -> {C}'),
    ("cholesky", "%a: tensor<?x3x3xf32>",
     '%r = "D.cholesky"(%a) {lower = true} : (tensor<?x3x3xf32>) -> tensor<?x3x3xf32>'),
    ("triangular_solve", "%a: tensor<?x3x3xf32>, %b: tensor<?x3x5xf32>",
     '%r = "D.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, '
     "transpose_a = #D<transpose NO_TRANSPOSE>} : (tensor<?x3x3xf32>, tensor<?x3x5xf32>) -> tensor<?x3x5xf32>"),
    ("select_and_scatter", f"%a: {F}, %s: tensor<?x2xf32>, %z: {S}",
     f'%r = "D.select_and_scatter"(%a, %s, %z) ({{\n  ^bb0(%p: {S}, %q: {S}):\n'
     '    %c = "D.compare"(%p, %q) {comparison_direction = #D<comparison_direction GE>} : '
     f'({S}, {S}) -> tensor<i1>\n    "D.return"(%c) : (tensor<i1>) -> ()\n  }}, '
     f"{region()[1:-1]}) {{window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 2>}} : "
     f"({F}, tensor<?x2xf32>, {S}) -> {F}"),
    ("all_reduce", f"%a: {F}",
     f'%r = "D.all_reduce"(%a) {region()} {{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}} : ({F}) -> {F}'),
    ("all_gather", f"%a: {F}",
     f'%r = "D.all_gather"(%a) {{all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}} : '
     f"({F}) -> tensor<?x8xf32>"),
    ("reduce_scatter", f"%a: {F}",
     f'%r = "D.reduce_scatter"(%a) {region()} {{scatter_dimension = 1 : i64, '
     f"replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}} : ({F}) -> tensor<?x2xf32>"),
    ("all_to_all", "%a: tensor<?x2xf32>",
     '%r = "D.all_to_all"(%a) {split_dimension = 0 : i64, concat_dimension = 1 : i64, split_count = 2 : i64, '
     "replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<?x2xf32>) -> tensor<?x4xf32>"),
    ("collective_permute", f"%a: {F}",
     f'%r = "D.collective_permute"(%a) {{source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}} : ({F}) -> {F}'),
    ("collective_broadcast", f"%a: {F}",
     f'%r = "D.collective_broadcast"(%a) {{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}} : ({F}) -> {F}'),
    ("cross-replica-sum", f"%a: {F}",
     f'%r = "D.cross-replica-sum"(%a) {{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}} : ({F}) -> {F}'),
    ("tuple", f"%a: {F}, %b: {I}", f'%r = "D.tuple"(%a, %b) : ({F}, {I}) -> tuple<{F}, {I}>'),
    ("get_tuple_element", f"%t: tuple<{F}, {I}>",
     f'%r = "D.get_tuple_element"(%t) {{index = 1 : i32}} : (tuple<{F}, {I}>) -> {I}'),
    ("after_all", "%t: !D.token", '%r = "D.after_all"(%t, %t) : (!D.token, !D.token) -> !D.token'),
    ("create_token", "", '%r = "D.create_token"() : () -> !D.token'),
    ("map", f"%a: {F}, %b: {F}",
     f'%r = "D.map"(%a, %b) {region()} {{dimensions = array<i64: 0, 1>}} : ({F}, {F}) -> {F}'),
    ("composite", f"%a: {F}",
     f'%r = "D.composite"(%a) {{name = "my.op", decomposition = @impl}} : ({F}) -> {F}',
     f"func.func private @impl(%x: {F}) -> {F} {{\n  return %x : {F}\n}}"),
]
