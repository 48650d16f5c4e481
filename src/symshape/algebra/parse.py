# pyright: strict
"""Parse sympy-syntax dimension strings (``batch*seq``, ``floor(h/2) + 1``, ``Max(a, b)``).

Other tools write these into ONNX ``dim_param`` fields (onnxruntime's symbolic shape inference,
torch's exporters) and users write them in ``--assume``. True division is only legal where the
result is an integer: inside ``floor``/``ceiling``, or when the quotient is exact.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NoReturn

from symshape.algebra.expr import Dim, Expr, add, ceildiv, exact_div, floordiv, mod, mul, smax, smin, sym
from symshape.errors import ExpressionSyntaxError

_TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_][A-Za-z0-9_.]*)|(\*\*|//|[-+*/%(),]))")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*\Z")
_MAX_POWER = 64
MAX_DIGITS = 1000  # Python refuses int() of over 4300 digits; no size needs a tenth of that
_MAX_TERMS = 4096  # a product of sums expands: (a1+b1)*...*(a30+b30) would have 2**30 terms
_FIX = "write it in sympy syntax, e.g. 'batch*seq', 'floor(h/2) + 1', 'Max(a, b)', 'Mod(n, 8)'"
_CHARACTERS = "names, integers, + - * / // % ** , and parentheses"
_FUNCTIONS = "floor(x), ceiling(x), Max(a, ...), Min(a, ...) or Mod(a, b)"


@dataclass(frozen=True)
class _Frac:
    """An intermediate ``num / den`` that is only meaningful under floor/ceiling."""

    num: Dim
    den: Dim


_Val = Dim | _Frac


def is_identifier(text: str) -> bool:
    """True when ``text`` can be a symbol name in an expression."""
    return bool(_IDENT.match(text))


def where_expression(text: str) -> str:
    """A dimension expression on its own: ``dimension expression 'floor(h/2'`` (the place of a
    syntax error when the caller names no better one, e.g. the user fact holding it)."""
    return f"dimension expression '{text}'"


def parse_dim(text: str) -> Dim:
    """Parse ``text`` into a canonical `Dim`; raise `ExpressionSyntaxError` when it is not one.

    The error's place is the expression (`where_expression`); a caller that knows a better one
    builds the error again with its own place and the same found/expected/fix parts.
    """
    parser = _Parser(text)
    try:
        return parser.parse()
    except RecursionError:  # the descent recurses per nesting level: hostile depth is bad syntax
        parser.fail("it is nested too deeply", "an expression of moderate depth (write a flatter one)")


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens: list[str] = []
        self.kinds: list[str] = []
        pos = 0
        stripped = text.rstrip()
        while pos < len(stripped):
            m = _TOKEN.match(stripped, pos)
            if not m or m.end() == pos:
                pos += len(stripped[pos:]) - len(stripped[pos:].lstrip())
                self.fail(f"unexpected character {stripped[pos : pos + 1]!r} at {pos}", _CHARACTERS)
            num, name, op = m.groups()
            if num and len(num) > MAX_DIGITS:
                self.fail(f"the integer at {m.start(1)} has {len(num)} digits", f"at most {MAX_DIGITS} digits")
            self.tokens.append(num or name or op)
            self.kinds.append("num" if num else "name" if name else "op")
            pos = m.end()
        self.i = 0

    def fail(self, found: str, expected: str) -> NoReturn:
        raise ExpressionSyntaxError(where=where_expression(self.text), found=found, expected=expected, fix=_FIX)

    def _peek(self) -> str | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def _take(self, expected: str | None = None) -> str:
        tok = self._peek()
        if tok is None or (expected is not None and tok != expected):
            self.fail(f"found {tok or 'end of input'!r}", repr(expected or "more input"))
        self.i += 1
        return tok

    def _nonzero(self, v: _Val) -> _Val:
        if isinstance(v, _Frac) and v.num == 0 or v == 0:
            self.fail("division by zero", "a divisor that is not zero")
        return v

    def _small_product(self, a: _Val, b: _Val) -> None:
        """Fail before a product whose expansion could exceed `_MAX_TERMS` terms (it would hang)."""
        if _size(a) * _size(b) > _MAX_TERMS:
            self.fail(
                f"the product expands to more than {_MAX_TERMS} terms",
                "an expression with fewer products of sums (a product of sums is multiplied out)",
            )

    def parse(self) -> Dim:
        if not self.tokens:
            self.fail("it is empty", "an expression")
        value = self._sum()
        if self._peek() is not None:
            self.fail(f"unexpected {self._peek()!r}", "an operator or the end of the expression")
        return self._whole(value)

    def _whole(self, v: _Val) -> Dim:
        if isinstance(v, _Frac):
            q = exact_div(v.num, v.den)
            if q is None:
                self.fail(
                    f"'{v.num}/{v.den}' is not an integer",
                    "it wrapped in floor() or ceiling() (a true division must give an integer)",
                )
            return q
        return v

    def _sum(self) -> _Val:
        left = self._term()
        while self._peek() in ("+", "-"):
            sign = 1 if self._take() == "+" else -1
            left = _combine_add(left, self._term(), sign)
        return left

    def _term(self) -> _Val:
        left = self._unary()
        while self._peek() in ("*", "/", "//", "%"):
            op = self._take()
            right = self._unary()
            if op == "*":
                self._small_product(left, right)
                left = _combine_mul(left, right)
            elif op == "/":
                left = _combine_div(left, self._nonzero(right))
            elif op == "//":
                left = floordiv(self._whole(left), self._whole(self._nonzero(right)))
            else:
                left = mod(self._whole(left), self._whole(self._nonzero(right)))
        return left

    def _unary(self) -> _Val:
        if self._peek() == "-":
            self._take()
            return _combine_mul(self._unary(), -1)
        if self._peek() == "+":
            self._take()
            return self._unary()
        return self._power()

    def _power(self) -> _Val:
        base = self._atom()
        if self._peek() == "**":
            self._take()
            exp_tok = self._take()
            if not exp_tok.isdigit():
                self.fail(f"the power {exp_tok!r} is not an integer", "a non-negative integer power such as 'h**2'")
            if int(exp_tok) > _MAX_POWER:
                self.fail(f"the power {exp_tok} is larger than {_MAX_POWER}", f"a power of at most {_MAX_POWER}")
            result: Dim = 1
            b = self._whole(base)
            for _ in range(int(exp_tok)):
                self._small_product(result, b)
                result = mul(result, b)
            return result
        return base

    def _atom(self) -> _Val:
        kind = self.kinds[self.i] if self.i < len(self.kinds) else None
        tok = self._take()
        if kind == "num":
            return int(tok)
        if tok == "(":
            inner = self._sum()
            self._take(")")
            return inner
        if kind == "name":
            if self._peek() == "(":
                return self._call(tok)
            return sym(tok)
        self.fail(f"unexpected {tok!r}", "a number, a name or '('")

    def _call(self, fn: str) -> Dim:
        self._take("(")
        args = [self._sum()]
        while self._peek() == ",":
            self._take()
            args.append(self._sum())
        self._take(")")
        if fn in ("floor", "ceiling", "ceil") and len(args) == 1:
            v = args[0]
            if isinstance(v, _Frac):
                return floordiv(v.num, v.den) if fn == "floor" else ceildiv(v.num, v.den)
            return v
        whole = [self._whole(a) for a in args]
        if fn in ("Max", "max") and whole:
            return smax(*whole)
        if fn in ("Min", "min") and whole:
            return smin(*whole)
        if fn == "Mod" and len(whole) == 2:
            self._nonzero(whole[1])
            return mod(whole[0], whole[1])
        self.fail(f"unknown function {fn}() with {len(args)} argument(s)", _FUNCTIONS)


def _size(v: _Val) -> int:
    """Terms of ``v`` once multiplied out (of numerator times denominator for a fraction)."""
    if isinstance(v, _Frac):
        return _size(v.num) * _size(v.den)
    return len(v.terms) if isinstance(v, Expr) else 1


def _combine_add(a: _Val, b: _Val, sign: int) -> _Val:
    if isinstance(b, _Frac):
        b = _Frac(mul(b.num, sign), b.den)
    else:
        b = mul(b, sign)
    if isinstance(a, _Frac) or isinstance(b, _Frac):
        fa = a if isinstance(a, _Frac) else _Frac(a, 1)
        fb = b if isinstance(b, _Frac) else _Frac(b, 1)
        if fa.den is fb.den or fa.den == fb.den:
            return _Frac(add(fa.num, fb.num), fa.den)
        return _Frac(add(mul(fa.num, fb.den), mul(fb.num, fa.den)), mul(fa.den, fb.den))
    return add(a, b)


def _combine_mul(a: _Val, b: _Val) -> _Val:
    if isinstance(a, _Frac) or isinstance(b, _Frac):
        fa = a if isinstance(a, _Frac) else _Frac(a, 1)
        fb = b if isinstance(b, _Frac) else _Frac(b, 1)
        return _reduce(_Frac(mul(fa.num, fb.num), mul(fa.den, fb.den)))
    return mul(a, b)


def _combine_div(a: _Val, b: _Val) -> _Val:
    fa = a if isinstance(a, _Frac) else _Frac(a, 1)
    fb = b if isinstance(b, _Frac) else _Frac(b, 1)
    return _reduce(_Frac(mul(fa.num, fb.den), mul(fa.den, fb.num)))


def _reduce(f: _Frac) -> _Val:
    if isinstance(f.den, int) and f.den < 0:
        f = _Frac(mul(f.num, -1), -f.den)
    if f.den == 1:
        return f.num
    if not isinstance(f.den, int):  # floor(d/d) stays as written: only facts may cancel d
        return f
    q = exact_div(f.num, f.den)
    return q if q is not None else f
