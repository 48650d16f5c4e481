"""Run-time checks: does an analysis's every requirement hold at concrete input sizes?

`check_shapes` (input shapes by input name) and `check_symbols` (values by input symbol) evaluate
every binding of the declared input dims, each symbol's range and divisor, each kept predicate,
unsolved equation and user fact, and each listed guard at those sizes. The `CheckResult` lists the
violations (op, condition, numbers, fix) and, when all hold, every graph output's concrete shape.
When something fails, the model is analyzed once more with the sizes pinned: the op that cannot
take them names itself (`CheckResult.explanation`).

Example:
    >>> from symshape.api import analyze_onnx
    >>> result = analyze_onnx("bert.onnx")  # doctest: +SKIP
    >>> print(result.check_shapes({"input_ids": (2, 600), "attention_mask": (2, 600)}).text())  # doctest: +SKIP
    range seq <= 64: 600 <= 64 (...); give seq (input 'input_ids' dim 1) a size in [1, 64]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from symshape.checking.items import Unchecked, Violation, evaluate_items
from symshape.checking.sizes import Assignment, Shapes, from_shapes, from_symbols, parse_shapes, shapes_of_npz
from symshape.errors import SymshapeError
from symshape.expr import Dim, Expr, evaluate
from symshape.userfacts import Fact, as_facts

if TYPE_CHECKING:
    from symshape.result import Analysis

OutputShape = tuple[int | str, ...] | None
"""A graph output's shape at the sizes: an int per dim the analysis computes, the expression (a
string) for a dim over data-dependent or fresh symbols; None when the analysis has no shape."""


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one check: the assignment, the violations, how many items were checked,
    the items the sizes cannot decide, the output shapes (empty when something fails) and, on a
    failure, what the analysis says when the sizes are pinned ("" when it says nothing more)."""

    env: dict[str, int]
    violations: tuple[Violation, ...]
    checked: int
    unchecked: tuple[Unchecked, ...]
    outputs: dict[str, OutputShape]
    explanation: str = ""

    @property
    def ok(self) -> bool:
        """Whether every requirement holds."""
        return not self.violations

    def text(self) -> str:
        """What ``symshape check`` prints."""
        sizes = ", ".join(f"{k}={v}" for k, v in sorted(self.env.items())) or "(static)"
        lines = [f"at {sizes}: {self.checked} requirements checked, {len(self.violations)} violated"
                 + (f", {len(self.unchecked)} not decidable from input sizes" if self.unchecked else "")]
        lines += [f"  FAIL {v.line()}" for v in self.violations]
        if self.explanation:
            lines.append(f"  with these sizes pinned, the analysis stops at: {self.explanation}")
        for u in self.unchecked:
            lines.append(f"  not decidable: {u.kind} {u.condition} ({u.origin}) mentions {', '.join(u.symbols)}")
        if self.ok:
            lines.append("outputs:")
            lines += [f"  {name}: {_shape_text(shape)}" for name, shape in self.outputs.items()]
        return "\n".join(lines)

    def document(self) -> dict[str, Any]:
        """The result as plain data (``symshape check --format json``)."""
        return {
            "format": "symshape.check/1",
            "ok": self.ok,
            "sizes": dict(sorted(self.env.items())),
            "checked": self.checked,
            "violations": [
                {"kind": v.kind, "origin": v.origin, "condition": v.condition, "numbers": v.numbers, "fix": v.fix}
                for v in self.violations
            ],
            "explanation": self.explanation,
            "unchecked": [
                {"kind": u.kind, "origin": u.origin, "condition": u.condition, "symbols": list(u.symbols)}
                for u in self.unchecked
            ],
            "outputs": {k: None if v is None else list(v) for k, v in self.outputs.items()},
        }


def check_shapes(
    analysis: Analysis, shapes: Shapes, *, facts: Sequence[Fact | str] = (), explain: bool = True
) -> CheckResult:
    """Check ``analysis`` at the input ``shapes`` (by graph input name). ``facts``: the user facts
    the analysis was given (so the requirements they set are named as theirs). ``explain``: on a
    failure, analyze again with the sizes pinned to find the ops that cannot take them."""
    return _check(analysis, from_shapes(analysis, shapes), as_facts(facts), explain)


def check_symbols(
    analysis: Analysis, values: Mapping[str, int], *, facts: Sequence[Fact | str] = (), explain: bool = True
) -> CheckResult:
    """`check_shapes` at the input-symbol ``values`` (every free input symbol needs one)."""
    return _check(analysis, from_symbols(analysis, values), as_facts(facts), explain)


def output_shapes(analysis: Analysis, env: Mapping[str, int]) -> dict[str, OutputShape]:
    """Every graph output's shape at ``env``."""
    out: dict[str, OutputShape] = {}
    for name in analysis.program.outputs:
        dims = analysis.shape(name)
        out[name] = None if dims is None else tuple(_concrete(d, env) for d in dims)
    return out


def _check(analysis: Analysis, given: Assignment, facts: Sequence[Fact], explain: bool) -> CheckResult:
    violations, checked, unchecked = evaluate_items(analysis, given.env, given.where, facts)
    violations = given.violations + violations
    ok = not violations
    explanation = ""
    if explain and not ok:
        violations = [_explained(analysis, v) for v in violations]
        explanation = pinned(analysis, given.env)
        if any(explanation == v.detail for v in violations):
            explanation = ""
    return CheckResult(
        env=dict(given.env),
        violations=tuple(violations),
        checked=given.checked + checked,
        unchecked=tuple(unchecked),
        outputs=output_shapes(analysis, given.env) if ok else {},
        explanation=explanation,
    )


def _explained(analysis: Analysis, v: Violation) -> Violation:
    """A symbol's range or divisor violation with the op that needs it: the symbol's facts keep
    only the latest origin, so the analysis is run with the symbol pinned to the size given."""
    if not v.pin:
        return v
    found = pinned(analysis, dict(v.pin))
    return v if not found else replace(v, origin=where_of(found), detail=found)


def where_of(message: str) -> str:
    """The ``where`` part of an error message (up to the first ``: ``)."""
    return message.split(": ", 1)[0]


def pinned(analysis: Analysis, env: Mapping[str, int]) -> str:
    """The error the analysis raises with every input symbol pinned to its size ("" if none):
    a contradiction there names the op that cannot take these sizes."""
    from symshape.analysis import analyze

    user = [n for n, i in analysis.graph.symbols.items() if i.kind == "user"]
    pins = [f"{name} == {value}" for name, value in sorted(env.items()) if name not in user]
    try:
        analyze(analysis.program, facts=pins)
    except SymshapeError as err:
        return err.message
    return ""


def _concrete(d: Dim, env: Mapping[str, int]) -> int | str:
    if isinstance(d, Expr) and d.free - env.keys():
        return str(d)
    try:
        return evaluate(d, env)
    except ZeroDivisionError:
        return str(d)


def _shape_text(shape: OutputShape) -> str:
    if shape is None:
        return "unknown (the analysis has no shape for it)"
    return "[" + ", ".join(str(d) if isinstance(d, int) else f"? ({d})" for d in shape) + "]"


__all__ = [
    "CheckResult",
    "OutputShape",
    "Unchecked",
    "Violation",
    "check_shapes",
    "check_symbols",
    "output_shapes",
    "parse_shapes",
    "pinned",
    "shapes_of_npz",
    "where_of",
]
