"""Score `symshape analyze` on the MLIR corpus in tests/mlir_corpus against hand-written expectations.

The expectations (tests/mlir_corpus/expectations.json) were derived from the op semantics, not
from symshape. Each checked dim is compared by evaluating both expressions at sample sizes that
satisfy the program's own requirements ("given" substitutions and "requires" conditions), so
`Max(a, b)` and a piecewise both count when they agree everywhere the program can run.

Per dim: right (equal at every sample), wrong (differs at a sample that no printed guard
excludes), guarded (differs only where a printed guard fails), unresolved (missing, listed as
unresolved, or using symbols that are not the function's argument dims). Forbidden claims
(`forbid`, `not_equal`) count as wrong when made without a guard. A program is right when every
expected dim is right, no forbidden claim is made, and the tool returns without a crash.

Usage: python scripts/mlir_corpus_score.py [--opt] [--subprocess [--jobs N]] [--json OUT] [NAME ...]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sympy

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "mlir_corpus"
EXPECTATIONS = CORPUS / "expectations.json"
FUNCTIONS = {
    name: getattr(sympy, name)
    for name in ("floor", "ceiling", "Min", "Max", "Mod", "Piecewise", "Eq", "Ne", "Or", "And", "Abs")
}
SAMPLE_VALUES = [*range(0, 13), 16, 17, 31, 64, 100]
SAMPLES = 400
IDENT = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


def parse(text: str | int) -> Any:
    """Parse a sympy-syntax expression with every non-function identifier as an integer symbol."""
    if isinstance(text, int):
        return sympy.Integer(text)
    names = {n: sympy.Symbol(n, integer=True) for n in IDENT.findall(text) if n not in FUNCTIONS}
    return sympy.parse_expr(text, local_dict={**names, **FUNCTIONS})


REL = re.compile(r"(==|!=|>=|<=|<|>)")


def parse_condition(text: str) -> Any:
    """Parse a guard condition `lhs OP rhs` (the JSON's form) into a sympy relation."""
    parts = REL.split(text, maxsplit=1)
    if len(parts) != 3:
        return parse(text)
    lhs, op, rhs = parse(parts[0]), parts[1], parse(parts[2])
    build: dict[str, Callable[[Any, Any], Any]] = {
        "==": sympy.Eq,
        "!=": sympy.Ne,
        ">=": sympy.Ge,
        "<=": sympy.Le,
        "<": sympy.Lt,
        ">": sympy.Gt,
    }
    return build[op](lhs, rhs)


@dataclass
class Program:
    """One corpus file's expectation and, after scoring, its outcome."""

    name: str
    spec: dict[str, Any]
    right: int = 0
    wrong: int = 0
    guarded: int = 0
    unresolved: int = 0
    expected: int = 0
    crash: str = ""
    error: str = ""
    opt: str | None = None
    notes: list[str] = field(default_factory=list[str])

    @property
    def ok(self) -> bool:
        """Right: every expected dim exact, no forbidden claim, no crash or error."""
        return not (self.crash or self.error or self.wrong or self.guarded or self.unresolved)


def run_symshape(path: Path, in_process: bool = True) -> tuple[dict[str, Any] | None, str, str]:
    """Run `symshape analyze --format json`; return (json or None, crash text, one-line error text).

    In process (the default, fast) a crash is any exception other than click's exit; as a
    subprocess it is a traceback on stderr.
    """
    if in_process:
        code, out, err, crash = invoke(["analyze", str(path), "--format", "json"])
    else:
        code, out, err, crash = spawn(["analyze", str(path), "--format", "json"])
    if crash:
        return None, crash, ""
    if code != 0:
        return None, "", err.strip()[:300] or f"exit {code}"
    try:
        return json.loads(out), "", ""
    except json.JSONDecodeError as exc:
        return None, f"bad JSON: {exc}", ""


def invoke(argv: list[str]) -> tuple[int, str, str, str]:
    """Run the CLI in this process: (exit code, stdout, stderr, crash text)."""
    from click.testing import CliRunner

    from symshape.app.cli import main as cli_main
    from symshape.errors import SymshapeError

    res = CliRunner().invoke(cli_main, argv)
    exc = res.exception
    if isinstance(exc, SymshapeError):
        return 1, res.stdout, f"error: {exc}", ""
    if exc is not None and not isinstance(exc, SystemExit):
        return 1, "", "", f"{type(exc).__name__}: {exc}"
    return res.exit_code, res.stdout, res.stderr, ""


def spawn(argv: list[str]) -> tuple[int, str, str, str]:
    """Run the CLI as a subprocess: (exit code, stdout, stderr, crash text)."""
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "symshape", *argv],
            capture_output=True,
            text=True,
            timeout=180,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return 1, "", "", "timeout after 180 s"
    if "Traceback" in proc.stderr or "internal error" in proc.stderr:
        return proc.returncode, "", "", proc.stderr.strip().splitlines()[-1]
    return proc.returncode, proc.stdout, proc.stderr, ""


def opt_output_parses(path: Path, in_process: bool = True) -> str:
    """'' when `symshape opt -p shape-optimization` output parses in iree-opt, else why not."""
    argv = ["opt", str(path), "-p", "shape-optimization"]
    code, out, err, crash = invoke(argv) if in_process else spawn(argv)
    if crash:
        return f"opt crashed: {crash}"
    if code != 0:
        return f"opt failed: {err.strip()[:200]}"
    iree = shutil.which("iree-opt")
    if iree is None:
        return ""
    proc = subprocess.run(
        [iree, "--allow-unregistered-dialect", "-"],
        input=out,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if proc.returncode == 0:
        return ""
    first = next((ln for ln in proc.stderr.splitlines() if "error" in ln), proc.stderr[:200])
    return f"iree-opt rejects opt output: {first.strip()[:200]}"


def return_names(text: str, func: str) -> list[str]:
    """The SSA names a function returns (`return %a, %b : ...`), for `@f:return#i` keys."""
    start = re.search(rf"func\.func\s+(?:public\s+|private\s+)?@{re.escape(func)}\(", text)
    if start is None:
        return []
    body = text[start.end() :]
    nxt = re.search(r"\n\s*func\.func\s", body)
    body = body[: nxt.start()] if nxt else body
    rets = re.findall(r"^\s*(?:func\.)?return\s+([^:\n]*):", body, re.M)
    return [v.strip() for v in rets[-1].split(",")] if rets else []


def resolve(key: str, text: str) -> str:
    """Map `@f:return#i` to the value name symshape uses (`@f:%name`)."""
    m = re.fullmatch(r"@([\w.$-]+):return#(\d+)", key)
    if not m:
        return key
    names = return_names(text, m.group(1))
    idx = int(m.group(2))
    return f"@{m.group(1)}:{names[idx]}" if idx < len(names) else key


def expectation_symbols(spec: dict[str, Any]) -> set[Any]:
    """Every symbol the expectation mentions (its dims, requirements, givens and `symbols`)."""
    found: set[Any] = {parse(extra) for extra in spec.get("symbols", [])}
    for dims in spec.get("dims", {}).values():
        for d in dims:
            if d is not None:
                found |= parse(d).free_symbols
    for text in [*spec.get("requires", []), *spec.get("given", {}).values(), *spec.get("given", {})]:
        found |= parse(text).free_symbols
    return found


class Sampler:
    """Sample points over the argument dims that satisfy the program's requirements."""

    def __init__(self, spec: dict[str, Any], seed: int) -> None:
        self.given = {parse(k): parse(v) for k, v in spec.get("given", {}).items()}
        self.requires = [parse(r) for r in spec.get("requires", [])]
        self.universe = expectation_symbols(spec)
        self.free = sorted(self.universe - set(self.given), key=str)
        rng = random.Random(seed)
        self.points: list[dict[Any, int]] = []
        for _ in range(SAMPLES * 10):
            if len(self.points) >= SAMPLES // 4:
                break
            point = {s: rng.choice(SAMPLE_VALUES) for s in self.free}
            for sym, val in self.given.items():
                point[sym] = int(val.subs(point))
            if all(bool(r.subs(point)) for r in self.requires):
                self.points.append(point)

    def value(self, expr: Any, point: dict[Any, int]) -> Any:
        """Evaluate at a point; sympy's nan/zoo or a leftover symbol counts as 'no value'."""
        try:
            out = expr.subs(point)
        except (TypeError, ValueError, ZeroDivisionError):
            return None
        return out if out.is_number and out.is_finite else None


ORIGIN = re.compile(r"input '@([\w.$-]+):%([\w.$-]+)' \(dim (\d+)\)")


def canonical_names(symbols: dict[str, Any]) -> dict[Any, Any]:
    """Map each argument-dim symbol to the expectation's name for it, read from its origin.

    The expectations name the dim of argument `%A` axis K `A_dK`, or `F_A_dK` when two
    functions have an argument `%A`; symshape's own spelling may differ (or change) as long as
    its JSON says which argument dim a symbol is.
    """
    found: list[tuple[str, str, str, str]] = []
    for name, info in symbols.items():
        m = ORIGIN.fullmatch(str(info.get("origin", "")))
        if m and name.isidentifier():
            found.append((name, m.group(1), m.group(2), m.group(3)))
    owners: dict[str, set[str]] = {}
    for _, func, arg, _ in found:
        owners.setdefault(arg, set()).add(func)
    rename: dict[Any, Any] = {}
    for name, func, arg, axis in found:
        want = f"{arg}_d{axis}" if len(owners[arg]) == 1 else f"{func}_{arg}_d{axis}"
        if want != name:
            rename[parse(name)] = parse(want)
    return rename


class Scorer:
    """Judge one program's claims (symshape's JSON) against its expectation."""

    def __init__(self, prog: Program, data: dict[str, Any], text: str, seed: int) -> None:
        self.prog, self.text = prog, text
        self.sampler = Sampler(prog.spec, seed)
        self.values: dict[str, Any] = data.get("values", {})
        self.unresolved = {(u[0], u[1]) for u in data.get("unresolved", [])}
        self.guards = [parse_condition(g["condition"]) for g in data.get("guards", [])]
        self.classes = [{(m[0], m[1]) for m in cls} for cls in data.get("classes", [])]
        known = self.sampler.universe
        self.rename = {k: v for k, v in canonical_names(data.get("symbols", {})).items() if k not in known}
        bad = [n for n in data.get("symbols", {}) if not n.isidentifier()]
        if bad:
            prog.notes.append(f"symbols that are not identifiers: {bad[:5]}")
            prog.unresolved += 1

    def actual(self, name: str, axis: int) -> Any:
        """The claimed dim as a sympy expression, or None when unresolved."""
        dims = self.values.get(name, {}).get("dims")
        if dims is None or axis >= len(dims) or (name, axis) in self.unresolved:
            return None
        try:
            got = parse(dims[axis]).subs(self.rename)
        except (SyntaxError, TypeError, ValueError, sympy.SympifyError):
            self.prog.notes.append(f"unparseable dim {name}[{axis}]: {dims[axis]!r}")
            return None
        return None if got.free_symbols - self.sampler.universe else got

    def excluded(self, point: dict[Any, int]) -> bool:
        """A printed guard fails at this point (so a claim there is covered)."""
        return any(g.subs(point) == sympy.false for g in self.guards)

    def compare(self, got: Any, want: Any) -> str:
        """right, guarded or wrong over the valid sample points."""
        val = self.sampler.value
        bad = [p for p in self.sampler.points if val(got, p) != val(want, p)]
        if not bad:
            return "right"
        return "guarded" if all(self.excluded(p) for p in bad) else "wrong"

    def count(self, verdict: str, note: str) -> None:
        """Add one verdict (and a note unless it is right)."""
        setattr(self.prog, verdict, getattr(self.prog, verdict) + 1)
        if verdict != "right":
            self.prog.notes.append(note)

    def dims(self) -> None:
        """Every expected dim."""
        for key, dims in self.prog.spec.get("dims", {}).items():
            name = resolve(key, self.text)
            for axis, want in enumerate(dims):
                if want is None:
                    continue
                self.prog.expected += 1
                got = self.actual(name, axis)
                if got is None:
                    self.count("unresolved", f"unresolved {key}[{axis}] (want {want})")
                    continue
                verdict = self.compare(got, parse(want))
                self.count(verdict, f"{verdict} {key}[{axis}]: got {got}, want {want}")

    def forbidden(self) -> None:
        """Claims that must not be made: a value for a dim, or two dims equal."""
        kind = "guarded" if self.guards else "wrong"
        for key, axis, expr in self.prog.spec.get("forbid", []):
            got = self.actual(resolve(key, self.text), axis)
            if got is not None and self.compare(got, parse(expr)) == "right":
                self.count(kind, f"forbidden claim {key}[{axis}] == {expr} ({kind})")
        for (k1, a1), (k2, a2) in self.prog.spec.get("not_equal", []):
            n1, n2 = resolve(k1, self.text), resolve(k2, self.text)
            g1, g2 = self.actual(n1, a1), self.actual(n2, a2)
            same = g1 is not None and g2 is not None and sympy.simplify(g1 - g2) == 0
            if same or any((n1, a1) in cls and (n2, a2) in cls for cls in self.classes):
                self.count(kind, f"forbidden claim {k1}[{a1}] == {k2}[{a2}] ({kind})")

    def guards_required(self) -> None:
        """A guard must be something the program itself requires: false at a valid size, it
        rejects a program that runs (counted as guarded, so the program is not right)."""
        for guard in self.guards:
            if guard.free_symbols - self.sampler.universe:
                continue
            if any(guard.subs(self.rename).subs(p) == sympy.false for p in self.sampler.points):
                self.count("guarded", f"guard '{guard}' fails at sizes the program accepts")


def score(prog: Program, data: dict[str, Any], text: str, seed: int = 0) -> None:
    """Fill the counters of one program from symshape's JSON."""
    scorer = Scorer(prog, data, text, seed)
    if not scorer.sampler.points:
        prog.error = "expectation has no valid sample point"
        return
    scorer.dims()
    scorer.forbidden()
    scorer.guards_required()


def evaluate(name: str, spec: dict[str, Any], in_process: bool = True, opt: bool = False) -> Program:
    """Run and score one corpus program (and, with opt, check the printed IR in iree-opt)."""
    prog = Program(name, spec)
    path = CORPUS / name
    data, crash, error = run_symshape(path, in_process)
    if opt:
        prog.opt = opt_output_parses(path, in_process)
    if data is None:
        prog.crash, prog.error = crash, error
        return prog
    score(prog, data, path.read_text())
    return prog


def load() -> dict[str, dict[str, Any]]:
    """The expectations, keyed by file name (keys starting with '_' are comments)."""
    raw: dict[str, dict[str, Any]] = json.loads(EXPECTATIONS.read_text())
    return {k: v for k, v in raw.items() if not k.startswith("_")}


def run_all(names: Sequence[str] = (), jobs: int = 2, in_process: bool = True, opt: bool = False) -> list[Program]:
    """Score the named programs (all when empty); subprocess runs go `jobs` at a time."""
    specs = load()
    chosen = list(names) or sorted(specs)
    if in_process:
        return [evaluate(n, specs[n], True, opt) for n in chosen]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(lambda n: evaluate(n, specs[n], False, opt), chosen))


def report(progs: Sequence[Program]) -> str:
    """A table per program, then totals per class and overall."""
    lines = [f"{'program':45} {'class':10} exp right wrong grd unres crash"]
    for p in progs:
        flag = "crash" if p.crash else ("error" if p.error else "")
        lines.append(
            f"{p.name:45} {p.spec.get('class', ''):10} {p.expected:3} {p.right:5} {p.wrong:5} "
            f"{p.guarded:3} {p.unresolved:5} {flag:5} {'OK' if p.ok else 'FAIL'}"
        )
        lines.extend(f"    {n}" for n in p.notes)
        if p.opt:
            lines.append(f"    {p.opt}")
        if p.crash or p.error:
            lines.append(f"    {p.crash or p.error}")
    by_class: dict[str, list[Program]] = {}
    for p in progs:
        by_class.setdefault(p.spec.get("class", "?"), []).append(p)
    lines.append("")
    for cls, group in sorted(by_class.items()):
        lines.append(f"class {cls:12} right {sum(p.ok for p in group)}/{len(group)}")
    lines.append(
        f"TOTAL right programs {sum(p.ok for p in progs)}/{len(progs)}; dims right "
        f"{sum(p.right for p in progs)}/{sum(p.expected for p in progs)}, wrong claims "
        f"{sum(p.wrong for p in progs)}, guarded {sum(p.guarded for p in progs)}, unresolved "
        f"{sum(p.unresolved for p in progs)}, crashes {sum(bool(p.crash) for p in progs)}, "
        f"errors {sum(bool(p.error) for p in progs)}"
    )
    if any(p.opt is not None for p in progs):
        lines.append(f"opt output parses in iree-opt: {sum(p.opt == '' for p in progs)}/{len(progs)}")
    return "\n".join(lines)


def main() -> None:
    """Command line entry."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", help="write per-program results here")
    ap.add_argument("--subprocess", action="store_true", help="run the CLI as a subprocess per file")
    ap.add_argument("--opt", action="store_true", help="also check `opt -p shape-optimization` in iree-opt")
    args = ap.parse_args()
    progs = run_all(args.names, args.jobs, not args.subprocess, args.opt)
    print(report(progs))
    if args.json:
        out = {
            p.name: {
                "ok": p.ok,
                "right": p.right,
                "wrong": p.wrong,
                "guarded": p.guarded,
                "unresolved": p.unresolved,
                "crash": p.crash,
                "error": p.error,
                "opt": p.opt,
                "notes": p.notes,
            }
            for p in progs
        }
        Path(args.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
