"""The preconditions of a function, read off its analysis: what a shape function must check.

The analysis states each requirement of the program once, in the constraint graph: a binding
``rhs_d0 := lhs_d1`` is an equality the program forced (dot_general's contraction), with the
`Origin` naming the op and rule; a residual is an equality it could not solve; a kept predicate
or a range narrowed on a symbol is an inequality or divisibility the program needs; a guard is an
assumption the analysis made. CHLO's implicit broadcasts are read from the ops: the graph keeps a
broadcast only per pair of dims that may be 1, in canonical form (for `symshape.tools.checking`),
while a shape function checks each op's whole operand shapes over the argument dims.

Every check is stated over the symbols of the argument dims, *before* substitution: the analysis
itself has already substituted ``rhs_d0 := lhs_d1`` everywhere, so a check written in its
canonical form would compare ``lhs_d1`` with itself. Together the checks are exactly the
conditions under which the analysis's shapes hold; each is an equality of two index values
(``a >= b`` is ``max(a, b) == a``, ``k | a`` is ``a mod k == 0``), except ``!=`` guards and
broadcasts.
"""

from __future__ import annotations

from dataclasses import dataclass

from symshape.algebra.expr import Dim, Expr, add, mod, smax, sym
from symshape.engine.program import Program
from symshape.engine.provenance import Origin
from symshape.engine.result import Analysis

PHRASES = {
    "contraction": "inner dimensions required to match",
    "batch": "batch dimensions required to match",
    "batch dim": "batch dimensions required to match",
    "elementwise operands": "operand shapes required to match",
    "reshape element count": "element counts required to match",
    "broadcast": "operands required to be broadcastable",
    "declared result type": "result required to have its declared type",
    "concatenate non-axis dim": "non-concatenated dimensions required to match",
    "concat non-axis dim": "non-concatenated dimensions required to match",
}
"""The seed 003 wording of a rule's requirement (``inner dimensions required to match``)."""

_FLIP = {"<=": ">=", "<": ">"}


@dataclass(frozen=True)
class Check:
    """One precondition: ``eq`` (the two dims are equal), ``ne`` (they differ) or
    ``broadcastable`` (the shapes broadcast, numpy style), with the message a failure shows."""

    kind: str
    shapes: tuple[tuple[Dim, ...], ...]
    message: str
    op_name: str = ""

    @property
    def free(self) -> frozenset[str]:
        """The symbols the check reads."""
        out: set[str] = set()
        for shape in self.shapes:
            for d in shape:
                if isinstance(d, Expr):
                    out |= d.free
        return frozenset(out)


def phrase(rule: str) -> str:
    """What ``rule`` requires, in seed 003's words when it has some."""
    return PHRASES.get(rule, f"{rule} required" if rule else "required")


def relation(lhs: Dim, rel: str, rhs: Dim, message: str, op_name: str = "") -> Check:
    """``lhs rel rhs`` as a check (``>=`` as ``max(lhs, rhs) == lhs``, ``>`` as ``lhs - 1 >= rhs``)."""
    if rel in _FLIP:
        lhs, rhs, rel = rhs, lhs, _FLIP[rel]
    if rel == ">":
        lhs, rel = add(lhs, -1), ">="
    if rel == ">=":
        return Check("eq", ((smax(lhs, rhs),), (lhs,)), message, op_name)
    return Check("ne" if rel == "!=" else "eq", ((lhs,), (rhs,)), message, op_name)


class CheckCollector:
    """The checks of one analysed function, in the order the graph recorded them."""

    def __init__(self, analysis: Analysis, program: Program) -> None:
        self.analysis = analysis
        self.graph = analysis.graph
        self.program = program

    def checks(self) -> list[Check]:
        """Every check that is not true by its form, in the order of the ops that need them."""
        out = [*self._ranges(), *self._bindings(), *self._residuals(), *self._predicates()]
        out += [*self._guards(), *self._broadcasts()]
        position = {op.name: i for i, op in enumerate(self.program.ops)}
        unique: dict[tuple[str, tuple[tuple[Dim, ...], ...]], Check] = {}
        for c in out:  # one check per condition, named by an op when some op states it
            key = (c.kind, c.shapes)
            if key not in unique or (unique[key].op_name not in position and c.op_name in position):
                unique[key] = c
        kept = sorted(unique.values(), key=lambda c: position.get(c.op_name, -1))
        return [c for c in kept if not _trivial(c)]

    # ------------------------------------------------------------ wording
    def describe(self, d: Dim) -> str:
        """``dim 1 of %lhs`` for an argument dim's own symbol, else the expression."""
        name = str(d)
        info = self.graph.symbols.get(name)
        if info is not None and info.origin.op_type == "input" and info.origin.rule.startswith("dim "):
            return f"{info.origin.rule} of {_short(info.origin.op_name)}"
        if info is not None and info.kind in ("derived", "data"):
            return f"{name} ({info.origin.rule} of {info.origin.op_type} {_short(info.origin.op_name)})"
        return name

    def message(self, origin: Origin, text: str) -> str:
        op = f"{origin.op_type} {_short(origin.op_name)}".strip()
        return self.analysis.public_text(f"{phrase(origin.rule)}: {op} needs {text}")

    # ------------------------------------------------------------ sources
    def _bindings(self) -> list[Check]:
        out: list[Check] = []
        for name, value, origin in self.graph.bindings():
            text = f"{self.describe(sym(name))} == {self.describe(value)}"
            out.append(Check("eq", ((sym(name),), (value,)), self.message(origin, text), origin.op_name))
        return out

    def _residuals(self) -> list[Check]:
        out: list[Check] = []
        for r in self.graph.residuals:
            lhs, rhs = r.ctx()[:2]
            text = f"{self.describe(lhs)} == {self.describe(rhs)}"
            out.append(Check("eq", ((lhs,), (rhs,)), self.message(r.origin, text), r.origin.op_name))
        return out

    def _predicates(self) -> list[Check]:
        out: list[Check] = []
        for p in self.graph.predicates:
            if p.rel == "divisible":
                text = f"{p.rhs} divides {self.describe(p.lhs)}"
                check = Check("eq", ((mod(p.lhs, p.rhs),), (0,)), self.message(p.origin, text), p.origin.op_name)
                out.append(check)
            else:
                text = f"{self.describe(p.lhs)} {p.rel} {self.describe(p.rhs)}"
                out.append(relation(p.lhs, p.rel, p.rhs, self.message(p.origin, text), p.origin.op_name))
        return out

    def _ranges(self) -> list[Check]:
        """The range and divisor of every unbound symbol, where narrower than a dim's ``>= 0``."""
        out: list[Check] = []
        bound = {n for n, _, _ in self.graph.bindings()}
        for name in self.graph.symbols:
            if name in bound:
                continue
            f = self.graph.facts.get(name)
            origin = self.graph.fact_origin(name) or Origin("input", name)
            s, what = sym(name), self.describe(sym(name))
            if f.lo is not None and f.lo > 0:
                out.append(relation(s, ">=", f.lo, self.message(origin, f"{what} >= {f.lo}")))
            if f.hi is not None:
                out.append(relation(s, "<=", f.hi, self.message(origin, f"{what} <= {f.hi}")))
            if f.divisor > 1:
                text = f"{f.divisor} divides {what}"
                out.append(Check("eq", ((mod(s, f.divisor),), (0,)), self.message(origin, text)))
        return out

    def _guards(self) -> list[Check]:
        out: list[Check] = []
        for g in self.graph.guards:
            text = f"{self.describe(g.lhs)} {g.rel} {self.describe(g.rhs)}"
            if g.reason:
                text += f" ({g.reason})"
            out.append(relation(g.lhs, g.rel, g.rhs, self.message(g.origin, text), g.origin.op_name))
        return out

    def _broadcasts(self) -> list[Check]:
        out: list[Check] = []
        for op in self.program.ops:
            if op.dialect != "chlo" or not op.op_type.startswith("broadcast_"):
                continue
            shapes = [self.analysis.shape_or_none(v) for v in op.inputs]
            known = [tuple(self.analysis.private(d) for d in s) for s in shapes if s is not None]
            if len(known) >= 2:
                text = " and ".join(f"[{', '.join(self.describe(d) for d in s)}]" for s in known)
                origin = Origin(op.op_type, op.name, "broadcast")
                out.append(Check("broadcastable", tuple(known), self.message(origin, text), op.name))
        return out


def _trivial(check: Check) -> bool:
    """True by its form alone: the same dims, or dims that broadcast whatever the symbols are."""
    if check.kind == "eq":
        return check.shapes[0][0] is check.shapes[1][0] or check.shapes[0][0] == check.shapes[1][0]
    if check.kind == "ne":
        return False
    rank = max(len(s) for s in check.shapes)
    for axis in range(1, rank + 1):
        dims = {d for s in check.shapes if len(s) >= axis for d in [s[-axis]] if not (isinstance(d, int) and d == 1)}
        if len(dims) > 1:
            return False
    return True


def _short(op_name: str) -> str:
    """``@matmul:%0`` -> ``%0`` (the function is the shape function's own)."""
    return op_name.split(":", 1)[-1]
