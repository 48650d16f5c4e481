"""Run-time checks: does an analysis's every requirement hold at concrete input sizes?

`check_shapes` (input shapes by input name) and `check_symbols` (values by input symbol) evaluate
every binding of the declared input dims, each symbol's range and divisor, each kept predicate,
unsolved equation and user fact, and each listed guard at those sizes. The `CheckResult` lists the
violations (op, condition, numbers, fix) and, when all hold, every graph output's concrete shape.
A symbol's facts keep only their latest origin, so when a ``pin`` is given (`pin_for`, which
`symshape.api` and the command line pass) a failing range or divisor is named by the op that
cannot take the size: the model is analyzed once more with the symbol pinned to it.

Example:
    >>> from symshape.api import analyze_onnx, check_shapes
    >>> result = analyze_onnx("bert.onnx")  # doctest: +SKIP
    >>> print(check_shapes(result, {"input_ids": (2, 600), "attention_mask": (2, 600)}).text())  # doctest: +SKIP
    range seq <= 64: 600 <= 64 (...); give seq (input 'input_ids' dim 1) a size in [1, 64]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from symshape.algebra.expr import Dim, Expr, evaluate
from symshape.engine.userfacts import Fact
from symshape.errors import SymshapeError
from symshape.rules.walker import analyze
from symshape.tools.checking.items import Analysis, Unchecked, Violation, evaluate_items
from symshape.tools.checking.sizes import (
    Assignment,
    Shapes,
    by_input_name,
    from_shapes,
    from_symbols,
    parse_shapes,
    shapes_of_npz,
)

Pin = Callable[[Mapping[str, int]], str]
"""The error message the analysis gives with input symbols pinned to sizes ("" when none)."""

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
        lines = [
            f"at {sizes}: {self.checked} requirements checked, {len(self.violations)} violated"
            + (f", {len(self.unchecked)} not decidable from input sizes" if self.unchecked else "")
        ]
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


def pin_for(analysis: Analysis) -> Pin:
    """A `Pin` for ``analysis``: the error message of its program analyzed with ``name == size``
    for each pinned input symbol ("" when it raises none). User symbols are not pinned."""
    user = {n for n, i in analysis.graph.symbols.items() if i.kind == "user"}

    def pin(env: Mapping[str, int]) -> str:
        facts = [f"{name} == {value}" for name, value in sorted(env.items()) if name not in user]
        try:
            analyze(analysis.program, facts=facts)
        except SymshapeError as err:
            return err.message
        return ""

    return pin


def check_shapes(
    analysis: Analysis, shapes: Shapes, *, facts: Sequence[Fact] = (), pin: Pin | None = None
) -> CheckResult:
    """Check ``analysis`` at the input ``shapes`` (by graph input name). ``facts``: the user facts
    the analysis was given (so the requirements they set are named as theirs). ``pin``: on a
    failure, what the analysis says with the sizes pinned (names the ops that cannot take them)."""
    return _check(analysis, from_shapes(analysis, shapes), facts, pin)


def check_symbols(
    analysis: Analysis, values: Mapping[str, int], *, facts: Sequence[Fact] = (), pin: Pin | None = None
) -> CheckResult:
    """`check_shapes` at the input-symbol ``values`` (every free input symbol needs one)."""
    return _check(analysis, from_symbols(analysis, values), facts, pin)


def output_shapes(analysis: Analysis, env: Mapping[str, int]) -> dict[str, OutputShape]:
    """Every graph output's shape at ``env``."""
    out: dict[str, OutputShape] = {}
    for name in analysis.program.outputs:
        dims = analysis.shape_or_none(name)
        out[name] = None if dims is None else tuple(_concrete(d, env) for d in dims)
    return out


def _check(analysis: Analysis, given: Assignment, facts: Sequence[Fact], pin: Pin | None) -> CheckResult:
    violations, checked, unchecked = evaluate_items(analysis, given.env, given.where, facts)
    violations = given.violations + violations
    ok = not violations
    explanation = ""
    if pin is not None and not ok:
        violations = [_explained(pin, v) for v in violations]
        explanation = pin(given.env)
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


def _explained(pin: Pin, v: Violation) -> Violation:
    """A symbol's range or divisor violation with the op that needs it (the symbol pinned)."""
    if not v.pin:
        return v
    found = pin(dict(v.pin))
    return v if not found else replace(v, origin=where_of(found), detail=found)


def where_of(message: str) -> str:
    """The ``where`` part of an error message (up to the first ``: ``)."""
    return message.split(": ", 1)[0]


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
    "by_input_name",
    "check_shapes",
    "check_symbols",
    "output_shapes",
    "Pin",
    "parse_shapes",
    "shapes_of_npz",
    "where_of",
]
