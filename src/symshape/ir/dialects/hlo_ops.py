"""The StableHLO and MHLO ops symshape knows: one table for the dialect definitions and the rules.

Each entry says which dialects define the op, how its pretty form reads, and (for elementwise
ops) its family. `symshape.ir.dialects.stablehlo` makes one op class per entry for each
dialect listed; `symshape.rules.hlo.table.hlo_rule` registers a rule only for ops listed here,
for exactly their dialects, so no rule exists for an op that does not parse. Membership follows
the tools that print these dialects today (``iree-opt`` for StableHLO, jaxlib's MHLO), plus the
ops older versions had (marked *historic*, with the tests that printed them in
``tests/op_forms/make_op_forms.py``). Plain data: importing it pulls in no xDSL.
https://openxla.org/stablehlo/spec and https://github.com/tensorflow/mlir-hlo
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

BOTH = ("stablehlo", "mhlo")
MHLO = ("mhlo",)


@dataclass(frozen=True)
class HloOpSpec:
    """How one op reads, and where it exists.

    ``syntax`` names its pretty-form reader: ``operands`` is the common form (``op %a, %b,
    keyword = value, WORD : types``, see `symshape.ir.dialects.hlo_syntax.HloOp`), any other
    name is the op's own form (`symshape.ir.dialects.hlo_formats.FORMATS`). ``keywords`` maps a
    pretty keyword to its generic attribute (``dims`` -> ``broadcast_dimensions``); ``enums`` maps
    a keyword whose value is a bare enum word to ``(attribute, enum kind)`` (``type = FFT`` ->
    ``fft_type = #stablehlo<fft_type FFT>``). ``result_type`` is the type of a result the pretty
    form does not print. ``family`` is ``unary`` or ``binary`` for elementwise ops.
    """

    syntax: str = "operands"
    keywords: Mapping[str, str] = field(default_factory=dict[str, str])
    enums: Mapping[str, tuple[str, str]] = field(default_factory=dict[str, tuple[str, str]])
    result_type: str | None = None
    family: str = ""
    dialects: tuple[str, ...] = BOTH


UNARY = (
    "abs", "cbrt", "ceil", "convert", "cosine", "count_leading_zeros", "exponential",
    "exponential_minus_one", "floor", "imag", "is_finite", "log", "log_plus_one", "logistic",
    "negate", "not", "popcnt", "real", "round_nearest_afz", "round_nearest_even", "rsqrt", "sign",
    "sine", "sqrt", "tan", "tanh", "bitcast_convert",
)
MHLO_UNARY = ("cosh", "sinh", "erf")  # chlo ops, not StableHLO ones
BINARY = (
    "add", "and", "atan2", "divide", "maximum", "minimum", "multiply", "or", "power",
    "remainder", "shift_left", "shift_right_arithmetic", "shift_right_logical", "subtract", "xor",
)
# Ops whose pretty form is the generic one, or ``operands : types`` with nothing else.
PLAIN = (
    "select", "clamp", "reshape", "dynamic_reshape", "real_dynamic_slice", "dynamic_pad",
    "dynamic_update_slice", "gather", "dynamic_gather", "scatter", "sort", "optimization_barrier",
    "map", "reduce_window", "select_and_scatter", "batch_norm_inference", "batch_norm_training",
    "batch_norm_grad", "after_all", "create_token", "dynamic_conv", "triangular_solve", "case",
    "if", "all_reduce", "all_gather", "reduce_scatter", "all_to_all", "collective_permute",
    "collective_broadcast", "cross-replica-sum", "dot", "dot_general",
    "compute_reshape_shape",  # historic in both dialects
)
DIM = {"dim": "dimension"}
BROADCAST_DIMS = {"dims": "broadcast_dimensions"}
IOTA = {"dim": "iota_dimension"}
EINSUM = {"config": "einsum_config"}

HLO_OPS: dict[str, HloOpSpec] = {
    **{name: HloOpSpec(family="unary") for name in UNARY},
    **{name: HloOpSpec(family="unary", dialects=MHLO) for name in MHLO_UNARY},
    "reduce_precision": HloOpSpec(syntax="reduce_precision", family="unary"),
    **{name: HloOpSpec(family="binary") for name in BINARY},
    "complex": HloOpSpec(syntax="complex", family="binary"),
    **{name: HloOpSpec() for name in PLAIN},
    "cstr_reshapable": HloOpSpec(result_type="!shape.witness"),  # historic in both dialects
    "compare": HloOpSpec(syntax="compare"),
    "constant": HloOpSpec(syntax="constant"),
    "iota": HloOpSpec(keywords=IOTA),
    "dynamic_iota": HloOpSpec(keywords=IOTA),
    "broadcast_in_dim": HloOpSpec(keywords=BROADCAST_DIMS),
    "dynamic_broadcast_in_dim": HloOpSpec(keywords=BROADCAST_DIMS),
    "broadcast": HloOpSpec(keywords={"sizes": "broadcast_sizes"}),
    "transpose": HloOpSpec(keywords={"dims": "permutation"}),
    "reverse": HloOpSpec(keywords={"dims": "dimensions"}),
    "concatenate": HloOpSpec(keywords=DIM),
    "get_dimension_size": HloOpSpec(keywords=DIM),
    "set_dimension_size": HloOpSpec(keywords=DIM),
    "slice": HloOpSpec(),  # ``%x [0:2, 1:4:2]``: every operand may take such ranges
    "dynamic_slice": HloOpSpec(keywords={"sizes": "slice_sizes"}),
    "pad": HloOpSpec(keywords={"low": "edge_padding_low", "high": "edge_padding_high", "interior": "interior_padding"}),
    "einsum": HloOpSpec(keywords=EINSUM),
    "unary_einsum": HloOpSpec(keywords=EINSUM),  # historic in MHLO
    "rng": HloOpSpec(enums={"distribution": ("rng_distribution", "rng_distribution")}),
    "rng_bit_generator": HloOpSpec(enums={"algorithm": ("rng_algorithm", "rng_algorithm")}),
    "fft": HloOpSpec(keywords={"length": "fft_length"}, enums={"type": ("fft_type", "fft_type")}),
    "cholesky": HloOpSpec(),  # ``cholesky %a, lower = true : T``
    "tuple": HloOpSpec(syntax="tuple"),
    "get_tuple_element": HloOpSpec(syntax="get_tuple_element"),
    "reduce": HloOpSpec(syntax="reduce"),
    "convolution": HloOpSpec(syntax="convolution"),
    "custom_call": HloOpSpec(syntax="custom_call"),
    "composite": HloOpSpec(syntax="composite"),
    "while": HloOpSpec(syntax="while"),
    "return": HloOpSpec(syntax="return"),
}


def hlo_family(family: str) -> tuple[str, ...]:
    """The ops of an elementwise family (``unary`` or ``binary``), in table order."""
    return tuple(name for name, spec in HLO_OPS.items() if spec.family == family)


def dialect_ops(dialect: str) -> tuple[str, ...]:
    """The mnemonics ``dialect`` (``stablehlo`` or ``mhlo``) defines, in table order."""
    return tuple(name for name, spec in HLO_OPS.items() if dialect in spec.dialects)


# CHLO's implicitly broadcasting binary ops, ``chlo.broadcast_<name>`` (and ``broadcast_select``):
# the pretty form is the common one (`symshape.ir.dialects.chlo`, `symshape.rules.hlo.chlo`).
CHLO_BINARY = (
    "add", "atan2", "divide", "maximum", "minimum", "multiply", "next_after", "polygamma", "power",
    "remainder", "shift_left", "shift_right_arithmetic", "shift_right_logical", "subtract", "zeta",
    "and", "or", "xor", "complex", "compare",
)
