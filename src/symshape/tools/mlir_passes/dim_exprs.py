"""Dims (`symshape.algebra.expr`) to and from MLIR: ``arith`` ops on ``index`` values and affine maps.

`ArithBuilder` writes a dim as ``arith`` ops over leaf values (``symshape.dim @S0`` in the
constraint-graph function, ``tensor.dim %arg0, %c0`` at a function's entry); `ArithReader`
reads such ops back into a dim. The encodings are exact for every integer: ``floor(n/d)`` is
``arith.floordivsi``, ``Mod(n, d)`` is ``n - d * floor(n/d)``, ``Max``/``Min`` are
``arith.maxsi``/``arith.minsi``.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
)

from symshape.algebra.expr import (
    Atom,
    Dim,
    Expr,
    FloorDiv,
    MaxAtom,
    MinAtom,
    ModAtom,
    Sym,
    add,
    ceildiv,
    floordiv,
    mod,
    mul,
    smax,
    smin,
    sym,
)
from symshape.ir.dialects.upstream import IndexCastOp


class ArithBuilder:
    """Write dims as ``arith`` index ops; ``leaf(name)`` gives the value of a symbol (or None).

    Built values are memoized per dim, so a dim is computed once.
    """

    def __init__(
        self,
        leaf: Callable[[str], SSAValue | None],
        insert: Callable[[Operation], None],
        constants: dict[int, SSAValue] | None = None,
    ) -> None:
        self.leaf = leaf
        self.insert = insert
        self.memo: dict[Expr, SSAValue] = {}
        self.constants = {} if constants is None else constants

    def _op(self, op: Operation, hint: str | None = None) -> SSAValue:
        self.insert(op)
        value = op.results[0]
        if hint is not None:
            value.name_hint = hint
        return value

    def constant(self, k: int) -> SSAValue:
        """``arith.constant k : index``."""
        if k not in self.constants:
            hint = f"c{k}" if k >= 0 else f"c_m{-k}"
            self.constants[k] = self._op(arith.ConstantOp(IntegerAttr(k, IndexType())), hint)
        return self.constants[k]

    def build(self, d: Dim) -> SSAValue | None:
        """The value of ``d``, or None when a symbol has no leaf value."""
        if isinstance(d, int):
            return self.constant(d)
        done = self.memo.get(d)
        if done is not None:
            return done
        acc: SSAValue | None = None
        for mono, coeff in d.terms:
            term = self._monomial(mono, abs(coeff))
            if term is None:
                return None
            if acc is None:
                acc = term if coeff > 0 else self._bin(arith.SubiOp, self.constant(0), term)
            else:
                acc = self._bin(arith.AddiOp if coeff > 0 else arith.SubiOp, acc, term)
        assert acc is not None
        self.memo[d] = acc
        return acc

    def _monomial(self, mono: tuple[Atom, ...], coeff: int) -> SSAValue | None:
        acc: SSAValue | None = None
        for atom in mono:
            v = self._atom(atom)
            if v is None:
                return None
            acc = v if acc is None else self._bin(arith.MuliOp, acc, v)
        if acc is None:
            return self.constant(coeff)
        return acc if coeff == 1 else self._bin(arith.MuliOp, acc, self.constant(coeff))

    def _atom(self, atom: Atom) -> SSAValue | None:
        if isinstance(atom, Sym):
            return self.leaf(atom.name)
        if isinstance(atom, (FloorDiv, ModAtom)):
            num, den = self.build(atom.num), self.build(atom.den)
            if num is None or den is None:
                return None
            quotient = self._bin(arith.FloorDivSIOp, num, den)
            if isinstance(atom, FloorDiv):
                return quotient
            return self._bin(arith.SubiOp, num, self._bin(arith.MuliOp, den, quotient))
        assert isinstance(atom, (MaxAtom, MinAtom))
        kind = arith.MaxSIOp if isinstance(atom, MaxAtom) else arith.MinSIOp
        args = [self.build(a) for a in atom.args]
        built = [a for a in args if a is not None]
        if len(built) != len(args):
            return None
        acc = built[0]
        for a in built[1:]:
            acc = self._bin(kind, acc, a)
        return acc

    def _bin(self, kind: type[arith.SignlessIntegerBinaryOperation], a: SSAValue, b: SSAValue) -> SSAValue:
        return self._op(kind(a, b))


_READERS: dict[type[Operation], Callable[[Dim, Dim], Dim]] = {
    arith.AddiOp: add,
    arith.SubiOp: lambda a, b: add(a, mul(b, -1)),
    arith.MuliOp: mul,
    arith.FloorDivSIOp: floordiv,
    arith.CeilDivSIOp: ceildiv,
    arith.MaxSIOp: smax,
    arith.MinSIOp: smin,
}


class ArithReader:
    """Read index values computed by ``arith`` ops back into dims.

    ``leaf(value)`` answers for values the reader does not compute itself (``symshape.dim``,
    ``tensor.dim``); ``None`` means unknown. Division and remainder that round toward zero
    (``divsi``, ``remsi``) are read only when ``nonneg(dim)`` says both operands are >= 0.
    """

    def __init__(self, leaf: Callable[[SSAValue], Dim | None], nonneg: Callable[[Dim], bool] | None = None) -> None:
        self.leaf = leaf
        self.nonneg: Callable[[Dim], bool] = nonneg or (lambda d: isinstance(d, int) and d >= 0)
        self.memo: dict[SSAValue, Dim | None] = {}

    def read(self, value: SSAValue) -> Dim | None:
        """The dim ``value`` holds, or None."""
        if value in self.memo:
            return self.memo[value]
        out = self._read(value)
        self.memo[value] = out
        return out

    def _read(self, value: SSAValue) -> Dim | None:
        op = value.owner
        if isinstance(op, arith.ConstantOp):
            return op.value.value.data if isinstance(op.value, IntegerAttr) else None
        if isinstance(op, (arith.IndexCastOp, IndexCastOp)):
            return self.read(op.input)
        if isinstance(op, arith.SubiOp) and (rem := _mod_pattern(op)) is not None:
            n, d = (self.read(v) for v in rem)
            return None if n is None or d is None else mod(n, d)
        fn = _READERS.get(type(op)) if isinstance(op, Operation) else None
        if fn is not None and isinstance(op, Operation) and len(op.operands) == 2:
            a, b = (self.read(x) for x in op.operands)
            return None if a is None or b is None else fn(a, b)
        if isinstance(op, (arith.DivSIOp, arith.RemSIOp)):
            a, b = self.read(op.lhs), self.read(op.rhs)
            if a is None or b is None or not (self.nonneg(a) and self.nonneg(add(b, -1))):
                return None
            return floordiv(a, b) if isinstance(op, arith.DivSIOp) else mod(a, b)
        return self.leaf(value)


def _mod_pattern(op: arith.SubiOp) -> tuple[SSAValue, SSAValue] | None:
    """``n - d * floor(n/d)`` (how `ArithBuilder` writes ``Mod(n, d)``) -> ``(n, d)``."""
    prod = op.rhs.owner
    if not isinstance(prod, arith.MuliOp):
        return None
    quotient = prod.rhs.owner
    if isinstance(quotient, arith.FloorDivSIOp) and quotient.lhs is op.lhs and quotient.rhs is prod.lhs:
        return op.lhs, prod.lhs
    return None


# ---------------------------------------------------------------------- affine


def to_affine(d: Dim, position: dict[str, int]) -> AffineExpr | None:
    """``d`` as an affine expression over dims ``d<position[name]>``; None if not affine."""
    if isinstance(d, int):
        return AffineExpr.constant(d)
    acc: AffineExpr = AffineExpr.constant(0)
    for mono, coeff in d.terms:
        if not mono:
            acc = acc + coeff
            continue
        if len(mono) != 1:
            return None
        term = _affine_atom(mono[0], position)
        if term is None:
            return None
        acc = acc + term * coeff
    return acc


def _affine_atom(atom: Atom, position: dict[str, int]) -> AffineExpr | None:
    if isinstance(atom, Sym):
        return AffineExpr.dimension(position[atom.name]) if atom.name in position else None
    if isinstance(atom, (FloorDiv, ModAtom)) and isinstance(atom.den, int) and atom.den > 0:
        num = to_affine(atom.num, position)
        if num is None:
            return None
        return num // atom.den if isinstance(atom, FloorDiv) else num % atom.den
    return None


def is_affine(d: Dim) -> bool:
    """Whether ``d`` is affine in its symbols (floor/mod only by positive constants)."""
    return to_affine(d, {name: 0 for name in d.free} if isinstance(d, Expr) else {}) is not None


def from_affine(e: AffineExpr, operands: list[Dim]) -> Dim:
    """Evaluate affine expression ``e`` on dims ``operands``."""
    if isinstance(e, AffineConstantExpr):
        return e.value
    if isinstance(e, AffineDimExpr):
        return operands[e.position]
    assert isinstance(e, AffineBinaryOpExpr)
    lhs, rhs = from_affine(e.lhs, operands), from_affine(e.rhs, operands)
    match e.kind:
        case AffineBinaryOpKind.Add:
            return add(lhs, rhs)
        case AffineBinaryOpKind.Mul:
            return mul(lhs, rhs)
        case AffineBinaryOpKind.FloorDiv:
            return floordiv(lhs, rhs)
        case AffineBinaryOpKind.CeilDiv:
            return ceildiv(lhs, rhs)
        case AffineBinaryOpKind.Mod:
            return mod(lhs, rhs)


__all__ = ["ArithBuilder", "ArithReader", "from_affine", "is_affine", "sym", "to_affine"]
