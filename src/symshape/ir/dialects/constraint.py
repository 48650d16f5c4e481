"""The ``symshape`` constraint dialect: seed 000's shape constraint IR, written the xDSL way.

Symbolic dims are module-level symbol ops carrying their facts::

    symshape.symbolic_dim @S0 {divisor = 8 : i64, hi = 4096 : i64, known_non_negative, lo = 0 : i64}
    symshape.symbolic_dim @C10 {value = 10 : i64}

Tensor types name the symbol of each dim in their encoding, ``tensor<?x10xf32, [@S0, @C10]>``
(an ``ArrayAttr`` of ``SymbolRefAttr``; static dims use constant symbols ``@C<n>``).

The predicates between symbols live in a separate function, ``@shape_constraint_graph``, so the
data IR never has to know about them::

    func.func @shape_constraint_graph() {
      %0 = symshape.dim @S0 : index
      %1 = symshape.dim @S1 : index
      %2 = symshape.dim @S2 : index
      symshape.tie_predicate_mul_eq %2, %0, %1        // S2 == S0 * S1
      symshape.tie_predicate_divisible %0, %c8        // S0 % 8 == 0
      func.return
    }

A predicate op with the unit attribute ``guard`` is an assumption the analysis made (it must be
checked at run time), not a fact; ``reason`` and ``origin`` say why and where.
"""

from __future__ import annotations

import functools
from typing import ClassVar

from xdsl.dialects.builtin import (
    I64,
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    NoneAttr,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
    i64,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    opt_attr_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import Pure, SymbolOpInterface
from xdsl.utils.exceptions import VerifyException

from symshape.memory import OfKind

GRAPH_FUNCTION = "shape_constraint_graph"
"""The name of the function that holds the predicates."""


_is_array = OfKind(ArrayAttr)
_is_symbol = OfKind(SymbolRefAttr)


def symbol_encoding(attr: Attribute) -> tuple[str, ...] | None:
    """The symbol names of a ``[@S0, @C10]`` tensor encoding, or None for another encoding."""
    if not _is_array(attr):
        return None
    names: list[str] = []
    for item in attr.data:
        if not _is_symbol(item) or item.nested_references.data:
            return None
        names.append(item.root_reference.data)
    return tuple(names)


def foreign_encoding(attr: Attribute) -> bool:
    """Whether a tensor type's encoding is another dialect's (``#stablehlo.bounds<16>``): such a
    type keeps its encoding and its dims, which the verifier and the compiler read."""
    return not isinstance(attr, NoneAttr) and symbol_encoding(attr) is None


@functools.cache
def make_encoding(names: tuple[str, ...]) -> ArrayAttr[SymbolRefAttr]:
    """The ``[@S0, @C10]`` encoding for ``names`` (attributes are immutable: cached)."""
    return ArrayAttr([SymbolRefAttr(n) for n in names])


# ------------------------------------------------------------------ symbols


def _int(attr: IntegerAttr | None) -> int | None:
    return None if attr is None else attr.value.data


@irdl_op_definition
class SymbolicDimOp(IRDLOperation):
    """A symbolic dimension and its facts (seed 000's ``SymbolDim``).

    ``value`` marks a constant symbol (``@C10``). A symbolic dim is the size of a tensor dim, so
    ``lo`` defaults to 0 (``known_non_negative`` always holds); ``hi`` absent means unbounded.
    ``divisor`` divides the dim, ``likely`` lists likely sizes. The ``known_non_zero`` and
    ``known_not_one`` flags restate what the range and divisor imply, in the seed's vocabulary.
    """

    name = "symshape.symbolic_dim"

    sym_name = prop_def(SymbolNameConstraint())
    value = opt_attr_def(IntegerAttr[I64])
    lo = opt_attr_def(IntegerAttr[I64])
    hi = opt_attr_def(IntegerAttr[I64])
    divisor = opt_attr_def(IntegerAttr[I64])
    likely = opt_attr_def(DenseArrayBase[IntegerType])
    known_non_negative = opt_attr_def(UnitAttr)
    known_non_zero = opt_attr_def(UnitAttr)
    known_not_one = opt_attr_def(UnitAttr)

    traits = traits_def(SymbolOpInterface())
    assembly_format = "$sym_name attr-dict"

    def bounds(self) -> tuple[int | None, int | None]:
        """``(lo, hi)`` with the ``known_*`` flags and a constant ``value`` folded in."""
        value = _int(self.value)
        if value is not None:
            return value, value
        lo, hi = _int(self.lo) or 0, _int(self.hi)
        if self.known_non_zero is not None and lo == 0:
            lo = 1
        if self.known_not_one is not None and lo == 1:
            lo = 2
        return lo, hi

    def likely_values(self) -> tuple[int, ...]:
        """The likely sizes (empty when none are recorded)."""
        if self.likely is None:
            return ()
        return tuple(int(v) for v in self.likely.get_values())

    def verify_(self) -> None:
        value, lo, hi = _int(self.value), _int(self.lo), _int(self.hi)
        divisor = _int(self.divisor)
        if value is not None and (lo is not None or hi is not None or self.likely is not None):
            raise VerifyException("a constant symbolic dim takes no range or likely values")
        if lo is not None and lo < 0:
            raise VerifyException(f"a symbolic dim is a size: lo must be at least 0, got {lo}")
        if lo is not None and hi is not None and lo > hi:
            raise VerifyException(f"empty range: lo = {lo} is greater than hi = {hi}")
        if divisor is not None and divisor < 1:
            raise VerifyException(f"divisor must be at least 1, got {divisor}")
        if self.likely is not None and self.likely.elt_type != i64:
            raise VerifyException("likely values must be an array<i64: ...>")
        self._verify_flags(value if value is not None else (lo or 0), value if value is not None else hi)
        blo, bhi = self.bounds()
        for v in self.likely_values():
            if (blo is not None and v < blo) or (bhi is not None and v > bhi) or (divisor and v % divisor):
                raise VerifyException(f"likely value {v} contradicts the range or divisor")

    def _verify_flags(self, lo: int | None, hi: int | None) -> None:
        if self.known_non_negative is not None and hi is not None and hi < 0:
            raise VerifyException(f"known_non_negative contradicts hi = {hi}")
        if self.known_non_zero is not None and lo == 0 and hi == 0:
            raise VerifyException("known_non_zero contradicts the range [0, 0]")
        if self.known_not_one is not None and lo == 1 and hi == 1:
            raise VerifyException("known_not_one contradicts the range [1, 1]")


@irdl_op_definition
class DimOp(IRDLOperation):
    """Bind symbol ``@S0`` to an SSA value inside the constraint-graph function."""

    name = "symshape.dim"

    sym = prop_def(SymbolRefAttr)
    result = result_def(IndexType)

    traits = traits_def(Pure())
    assembly_format = "$sym attr-dict `:` type($result)"

    def __init__(self, symbol: str) -> None:
        super().__init__(properties={"sym": SymbolRefAttr(symbol)}, result_types=[IndexType()])

    def verify_(self) -> None:
        if self.sym.nested_references.data:
            raise VerifyException("symshape.dim takes a flat symbol reference like @S0")


@irdl_op_definition
class TieShapeOp(IRDLOperation):
    """``%t2 = symshape.tie_shape %t, %d0, %d1``: the dims of ``%t`` are ``%d0, %d1``.

    One index operand per dim (an ``arith.constant`` for a static one). The op asserts the
    equality, as IREE's ``tie_shape`` does: a precondition the analysis takes as a fact and a
    lowering may check at run time. ``expand-function-dynamic-dims`` ties a function's tensor
    arguments and results to its explicit index arguments and results with it.
    """

    name = "symshape.tie_shape"

    T: ClassVar = VarConstraint("T", base(TensorType))
    value = operand_def(T)
    dims = var_operand_def(IndexType)
    result = result_def(T)

    # Not Pure on purpose: the op states a fact, so canonicalization must not drop it when its
    # result is unused (shape-optimization removes it itself once the types carry the fact).
    assembly_format = "$value (`,` $dims^)? attr-dict `:` type($value)"

    def verify_(self) -> None:
        value_type = self.value.type
        assert isinstance(value_type, TensorType)
        rank = value_type.get_num_dims()
        if len(self.dims) != rank:
            raise VerifyException(f"expected {rank} dim operands (one per dim), got {len(self.dims)}")


# --------------------------------------------------------------- predicates


class BinaryPredicate(IRDLOperation):
    """Base of the two-operand predicates: ``lhs rel rhs`` on index values."""

    lhs = operand_def(IndexType)
    rhs = operand_def(IndexType)

    assembly_format = "$lhs `,` $rhs attr-dict"

    def __init__(
        self, lhs: SSAValue | Operation, rhs: SSAValue | Operation, attributes: dict[str, Attribute] | None = None
    ) -> None:
        super().__init__(operands=[lhs, rhs], attributes=attributes or {})


@irdl_op_definition
class TiePredicateEqOp(BinaryPredicate):
    """``lhs == rhs``."""

    name = "symshape.tie_predicate_eq"


@irdl_op_definition
class TiePredicateNeOp(BinaryPredicate):
    """``lhs != rhs`` (only guards need it, e.g. a squeezed dim assumed not to be 1)."""

    name = "symshape.tie_predicate_ne"


@irdl_op_definition
class TiePredicateLtOp(BinaryPredicate):
    """``lhs < rhs``."""

    name = "symshape.tie_predicate_lt"


@irdl_op_definition
class TiePredicateLeOp(BinaryPredicate):
    """``lhs <= rhs``."""

    name = "symshape.tie_predicate_le"


@irdl_op_definition
class TiePredicateDivisibleOp(BinaryPredicate):
    """``lhs % rhs == 0``."""

    name = "symshape.tie_predicate_divisible"


@irdl_op_definition
class TiePredicateMulEqOp(IRDLOperation):
    """``lhs == factors[0] * factors[1] * ...``."""

    name = "symshape.tie_predicate_mul_eq"

    lhs = operand_def(IndexType)
    factors = var_operand_def(IndexType)

    assembly_format = "$lhs `,` $factors attr-dict"

    def verify_(self) -> None:
        if len(self.factors) < 2:
            raise VerifyException(f"expected at least 2 factors, got {len(self.factors)}")


@irdl_op_definition
class TiePredicateGroupMulEqOp(IRDLOperation):
    """``product(lhs) == product(rhs)``, e.g. a reshape ``[a, b, c, d] -> [a*b, c*d]``."""

    name = "symshape.tie_predicate_group_mul_eq"

    lhs = var_operand_def(IndexType)
    rhs = var_operand_def(IndexType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = "` ` `[` $lhs `]` `,` `[` $rhs `]` attr-dict"

    def verify_(self) -> None:
        if not self.lhs or not self.rhs:
            raise VerifyException("both operand groups must be non-empty")


@irdl_op_definition
class TiePredicateAffineEqOp(IRDLOperation):
    """``lhs == map(operands)`` for a one-result affine map without symbols."""

    name = "symshape.tie_predicate_affine_eq"

    lhs = operand_def(IndexType)
    operands_ = var_operand_def(IndexType)
    map = prop_def(AffineMapAttr)

    assembly_format = "$lhs `,` $map `(` $operands_ `)` attr-dict"

    def verify_(self) -> None:
        amap = self.map.data
        if len(amap.results) != 1:
            raise VerifyException(f"the affine map must have 1 result, got {len(amap.results)}")
        if amap.num_symbols:
            raise VerifyException("the affine map must not have symbols; pass every dim as an operand")
        if amap.num_dims != len(self.operands_):
            raise VerifyException(
                f"the affine map takes {amap.num_dims} dims but {len(self.operands_)} operands were given"
            )


# ------------------------------------------------------------------ dialect

PREDICATES = (
    TiePredicateEqOp,
    TiePredicateNeOp,
    TiePredicateLtOp,
    TiePredicateLeOp,
    TiePredicateDivisibleOp,
    TiePredicateMulEqOp,
    TiePredicateGroupMulEqOp,
    TiePredicateAffineEqOp,
)

SymShape = Dialect(
    "symshape",
    [
        # symbols and bindings
        SymbolicDimOp,
        DimOp,
        TieShapeOp,
        # predicates
        *PREDICATES,
    ],
    [],
)

__all__ = ["GRAPH_FUNCTION", "PREDICATES", "SymShape", "make_encoding", "symbol_encoding", "StringAttr"]
