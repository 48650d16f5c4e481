"""Differential value fidelity of ``symshape opt``: every attribute and constant of every op that
no pass of the pipeline claims to rewrite comes out exactly as it went in (issue 21).

Both sides are printed by ``iree-opt --allow-unregistered-dialect --mlir-print-op-generic
--mlir-print-local-scope``, so they are compared in one canonical text: the generic form puts
every inherent attribute (property) and discardable attribute of an op in braces, local scope
inlines the aliases (``#map``, ``#loc``) that would otherwise hide a value, and the same printer
prints a float the same way on both sides. From that text `parse_generic` takes, per op, its
name, the function it is in and the text of each attribute (properties and attributes in one
dictionary: a printer may move an inherent attribute between the two and that is no change).

`compare` then checks, op name by op name, that the multiset of (name, attributes) of the input
equals that of the output, except for op names that a pass of the pipeline declares in its
``REWRITES`` (`symshape.tools.mlir_passes.pipeline.rewritten_ops`): those may be created, erased or changed.
Types are not compared (a pass may refine them and gives them symshape's ``[@S0, ...]``
encodings), and the encodings are removed from types that appear inside attributes
(``function_type``). Ops inside functions that only the output has (the constraint graph, the
auxiliary shape functions) are the pass's own; they are counted, not compared.

`run_symshape` runs ``symshape opt`` in a worker process over many modules (a crash ends only
the worker, a hang is stopped by a timeout), `iree_generic` runs one ``iree-opt`` over many
modules joined by ``// -----``. The pytest test (tests/tools/mlir_passes/test_fidelity.py) and the upstream
corpus benchmark (benchmarks/mlir_upstream_corpus.py) use both.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import typing
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path

SPLIT = "// -----"
IREE_OPT = shutil.which("iree-opt") or str(Path(sys.executable).with_name("iree-opt"))
"""iree-opt on the PATH, or beside this Python (a virtualenv's bin not on the PATH)."""
IREE_FLAGS = (
    "--allow-unregistered-dialect",
    "--mlir-print-op-generic",
    "--mlir-print-local-scope",
    "--split-input-file",
)
CONSTANT_ATTRS = frozenset({"value"})
"""The attribute that holds a constant op's value (``stablehlo.constant``, ``arith.constant``,
``mhlo.constant``, ``tosa.const``, ...)."""

_ENCODING = re.compile(r", \[(?:@[\w$.]+|\?|-?\d+)(?:, (?:@[\w$.]+|\?|-?\d+))*\]>")


# --------------------------------------------------------------------------------------------
# Generic-form reader


@dataclass(frozen=True)
class OpRecord:
    """One op of a generically printed module: its name, enclosing function, attributes."""

    name: str
    function: str
    """The ``sym_name`` of the innermost enclosing ``func.func`` ('' outside functions)."""
    attrs: tuple[tuple[str, str], ...]
    """(name, text) of each property and attribute, sorted by name; encodings stripped."""
    results: tuple[str, ...] = ()
    """The SSA names of the results (``%0``, ``%c_1``; ``%0:2`` counts as ``%0``)."""
    operands: tuple[str, ...] = ()
    """The SSA names the op reads (operands and successor operands)."""
    parent: int = -1
    """The index of the enclosing op in the list `parse_generic` returns (-1 at the top)."""

    @property
    def key(self) -> tuple[str, tuple[tuple[str, str], ...]]:
        """What is compared: the op name and its attributes."""
        return (self.name, self.attrs)

    @property
    def symbol(self) -> str:
        """The op's ``sym_name`` ('' when it has none)."""
        text = dict(self.attrs).get("sym_name", '""')
        return str(json.loads(text)) if text.startswith('"') else text

    @property
    def defines(self) -> str:
        """The name of the function a ``func.func`` defines ('' for other ops)."""
        return self.symbol if self.name == "func.func" else ""

    def is_constant(self) -> bool:
        """Whether the op holds a constant value (a ``value`` attribute)."""
        return any(k in CONSTANT_ATTRS for k, _ in self.attrs)

    def show(self) -> str:
        """``name {a = ..., b = ...}`` (in function ``@f``)."""
        body = ", ".join(f"{k} = {v}" if v else k for k, v in self.attrs)
        where = f" in @{self.function}" if self.function else ""
        return f"{self.name} {{{_clip(body)}}}{where}"


class GenericFormError(ValueError):
    """The text is not in the generic form iree-opt prints."""


class _Reader:
    """A recursive reader of iree-opt's generic form (one op per line, regions in ``({ })``)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.ops: list[OpRecord] = []
        self.parents: list[int] = []

    def fail(self, what: str) -> GenericFormError:
        line = self.text.count("\n", 0, self.pos) + 1
        return GenericFormError(f"line {line}: expected {what}: {self.text[self.pos : self.pos + 60]!r}")

    def skip_space(self) -> None:
        n = len(self.text)
        while self.pos < n:
            c = self.text[self.pos]
            if c in " \t\r\n":
                self.pos += 1
            elif self.text.startswith("//", self.pos):
                end = self.text.find("\n", self.pos)
                self.pos = n if end < 0 else end
            else:
                return

    def peek(self, s: str) -> bool:
        self.skip_space()
        return self.text.startswith(s, self.pos)

    def balanced(self) -> str:
        """The text of the bracketed group at ``pos`` (brackets, strings and ``->`` aware)."""
        start = self.pos
        self.pos = skip_group(self.text, self.pos)
        return self.text[start : self.pos]

    def ops_until(self, closer: str, function: str) -> None:
        while True:
            self.skip_space()
            if self.pos >= len(self.text):
                if closer:
                    raise self.fail(closer)
                return
            if closer and self.text.startswith(closer, self.pos):
                return
            if self.text.startswith("^", self.pos):
                self.block_label()
            else:
                self.op(function)

    def block_label(self) -> None:
        m = re.compile(r"\^[\w$.-]+").match(self.text, self.pos)
        if m is None:
            raise self.fail("a block label")
        self.pos = m.end()
        if self.peek("("):
            self.balanced()
        if not self.peek(":"):
            raise self.fail("':' after a block label")
        self.pos += 1

    def op(self, function: str) -> None:
        m = re.compile(r"(%[\w$.-]+(:\d+)?(\s*,\s*%[\w$.-]+(:\d+)?)*\s*=\s*)?\"").match(self.text, self.pos)
        if m is None:
            raise self.fail("an op")
        results = tuple(re.findall(r"%[\w$.-]+", m.group(1) or ""))
        self.pos = m.end() - 1
        name = json.loads(self.balanced())
        if not self.peek("("):
            raise self.fail("the operands")
        operands = re.findall(r"%[\w$.-]+", self.balanced())
        if self.peek("["):
            operands += re.findall(r"%[\w$.-]+", self.balanced())
        attrs: dict[str, str] = {}
        if self.peek("<{"):
            attrs.update(split_dict(self.balanced()[1:-1]))
        index = len(self.ops)
        parent = self.parents[-1] if self.parents else -1
        self.ops.append(OpRecord(name, function, ()))  # placeholder: the op precedes its nested ops
        if self.peek("("):
            self.parents.append(index)
            self.regions(name, attrs, function)
            self.parents.pop()
        if self.peek("{"):
            attrs.update(split_dict(self.balanced()))
        if not self.peek(":"):
            raise self.fail("':' and the op's type")
        self.pos = skip_type(self.text, self.pos + 1)
        clean = tuple(sorted((k, fold_space(strip_encodings(v))) for k, v in attrs.items()))
        self.ops[index] = OpRecord(name, function, clean, results, tuple(operands), parent)

    def regions(self, name: str, props: dict[str, str], function: str) -> None:
        self.pos += 1  # (
        inner = function
        if name == "func.func" and "sym_name" in props:
            inner = json.loads(props["sym_name"])
        while True:
            if self.peek(")"):
                self.pos += 1
                return
            if not self.peek("{"):
                raise self.fail("a region")
            self.pos += 1
            self.ops_until("}", inner)
            self.pos += 1
            if self.peek(","):
                self.pos += 1


def skip_group(text: str, pos: int) -> int:
    """The position after the bracketed group or string that starts at ``pos``."""
    pairs = {"(": ")", "[": "]", "{": "}", "<": ">"}
    stack: list[str] = []
    n = len(text)
    i = pos
    while i < n:
        c = text[i]
        if c == '"':
            i = _skip_string(text, i)
            if not stack:
                return i
            continue
        if c in pairs:
            stack.append(pairs[c])
        elif c == ">" and (text[i - 1] == "-" or text.startswith(">=", i)):
            pass  # '->' of a function type or affine map, '>=' of an integer set
        elif c in ")]}>":
            if not stack or stack[-1] != c:
                raise GenericFormError(f"unbalanced {c!r} at offset {i}: {text[max(0, i - 40) : i + 20]!r}")
            stack.pop()
            if not stack:
                return i + 1
        elif not stack:
            raise GenericFormError(f"expected a bracket at offset {i}")
        i += 1
    raise GenericFormError("unterminated group")


def skip_type(text: str, pos: int) -> int:
    """The end of the function type that starts at ``pos``: the end of its line, or later when
    a bracket is open there (a multi-line sparse tensor encoding)."""
    return next((i for i, c, depth in _scan(text, pos) if c == "\n" and depth <= 0), len(text))


def _scan(text: str, pos: int = 0) -> Iterator[tuple[int, str, int]]:
    """Each character of ``text`` from ``pos`` outside strings, with the bracket depth it is at
    (an opening bracket counts itself; ``->`` and ``>=`` are no brackets)."""
    depth = 0
    i = pos
    n = len(text)
    while i < n:
        c = text[i]
        if c == '"':
            i = _skip_string(text, i)
            continue
        if c in "([{<":
            depth += 1
        elif c in ")]}>" and not (c == ">" and (text[i - 1] == "-" or text.startswith(">=", i))):
            depth -= 1
        yield i, c, depth
        i += 1


def _skip_string(text: str, i: int) -> int:
    i += 1
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == '"':
            return i + 1
        i += 1
    raise GenericFormError("unterminated string")


def split_dict(body: str) -> dict[str, str]:
    """``{a = 1, "b.c" = [x, y], unit}`` -> {"a": "1", "b.c": "[x, y]", "unit": ""}."""
    inner = body.strip()
    if inner.startswith("{") and inner.endswith("}"):
        inner = inner[1:-1]
    out: dict[str, str] = {}
    for entry in _top_level_split(inner):
        name, eq, value = _split_entry(entry)
        out[name] = value if eq else ""
    return out


def _split_entry(entry: str) -> tuple[str, bool, str]:
    entry = entry.strip()
    if entry.startswith('"'):
        end = _skip_string(entry, 0)
        name, rest = json.loads(entry[:end]), entry[end:]
    else:
        m = re.compile(r"[\w$.-]+").match(entry)
        if m is None:
            raise GenericFormError(f"not an attribute entry: {entry[:60]!r}")
        name, rest = m.group(0), entry[m.end() :]
    rest = rest.strip()
    if not rest:
        return name, False, ""
    if not rest.startswith("="):
        raise GenericFormError(f"not an attribute entry: {entry[:60]!r}")
    return name, True, rest[1:].strip()


def _top_level_split(text: str) -> list[str]:
    parts: list[str] = []
    start = 0
    for i, c, depth in _scan(text):
        if c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    if text[start:].strip():
        parts.append(text[start:])
    return [p for p in parts if p.strip()]


def strip_encodings(text: str) -> str:
    """``tensor<?xf32, [@S0]>`` -> ``tensor<?xf32>`` (symshape's encodings inside attributes)."""
    return _ENCODING.sub(">", text)


def fold_space(text: str) -> str:
    """``#mhlo.dot<\n  lhs = [0],\n  rhs = [1]\n>`` -> ``#mhlo.dot<lhs = [0], rhs = [1]>``: the
    whitespace between tokens, outside string literals, is no part of a value (iree-opt keeps the
    text of an attribute of a dialect it does not have as it was written)."""
    if not re.search(r"\s[\s>)\]},]|[<(\[{]\s", text):
        return text
    parts: list[str] = []
    i = start = 0
    while i < len(text):
        if text[i] == '"':
            parts.append(_fold(text[start:i]))
            end = _skip_string(text, i)
            parts.append(text[i:end])
            i = start = end
            continue
        i += 1
    parts.append(_fold(text[start:]))
    return "".join(parts)


def _fold(text: str) -> str:
    text = re.sub(r"\s+", " ", text)
    return re.sub(r"(?<=[<(\[{]) | (?=[>)\]},])", "", text)


def parse_generic(text: str) -> list[OpRecord]:
    """Every op of a generically printed module, outer ops before nested ones."""
    reader = _Reader(text)
    reader.ops_until("", "")
    return reader.ops


def _clip(text: str, limit: int = 400) -> str:
    return text if len(text) <= limit else f"{text[:limit]}...({len(text)} chars)"


# --------------------------------------------------------------------------------------------
# iree-opt


@dataclass(frozen=True)
class Printed:
    """iree-opt's generic print of one module, or its error."""

    text: str | None
    error: str = ""


def iree_generic(modules: Sequence[str], *, timeout: float = 300.0) -> list[Printed]:
    """Each of ``modules`` printed generically by one iree-opt process (``--split-input-file``)."""
    if not modules:
        return []
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "modules.mlir"
        starts: list[int] = []
        line = 1
        parts: list[str] = []
        for m in modules:
            body = m if m.endswith("\n") else m + "\n"
            starts.append(line)
            parts.append(body)
            line += body.count("\n") + 1
        src.write_text(f"{SPLIT}\n".join(parts))
        proc = subprocess.run(
            [IREE_OPT, *IREE_FLAGS, str(src)], capture_output=True, text=True, timeout=timeout, check=False
        )
    chunks = re.split(r"^// -----\n?", proc.stdout, flags=re.MULTILINE)
    errors = _errors_by_module(proc.stderr, starts)
    if len(chunks) != len(modules):
        if len(modules) == 1:
            return [Printed(None, errors.get(0, proc.stderr.strip()[:300] or "no output"))]
        half = len(modules) // 2  # a crash of iree-opt: find the module by halving
        return iree_generic(modules[:half], timeout=timeout) + iree_generic(modules[half:], timeout=timeout)
    out: list[Printed] = []
    for i, chunk in enumerate(chunks):
        if i in errors or not chunk.strip():
            out.append(Printed(None, errors.get(i, "iree-opt printed nothing")))
        else:
            out.append(Printed(chunk))
    return out


def _errors_by_module(stderr: str, starts: list[int]) -> dict[int, str]:
    import bisect

    out: dict[int, str] = {}
    for m in re.finditer(r"^[^\n:]*:(\d+):\d+: error: (.*)$", stderr, flags=re.MULTILINE):
        i = bisect.bisect_right(starts, int(m.group(1))) - 1
        out.setdefault(max(i, 0), m.group(2).strip())
    return out


# --------------------------------------------------------------------------------------------
# symshape opt, in a worker process


@dataclass(frozen=True)
class OptResult:
    """What ``symshape opt`` did with one module: ``ok`` with the output text, or a failure."""

    status: str
    """'ok', 'refused' (a one-line SymshapeError), 'internal' (an unexpected exception),
    'crash' (the process died) or 'hang' (over the timeout)."""
    text: str = ""
    """The output (``ok``) or the message."""


_WORKER = r"""
import contextlib, io, json, signal, sys, tempfile, traceback
from pathlib import Path
from symshape.errors import SymshapeError
from symshape.tools.mlir_passes.opt import run_opt

class Timeout(BaseException):
    pass

def on_alarm(signum, frame):
    raise Timeout()

signal.signal(signal.SIGALRM, on_alarm)
tmp = Path(tempfile.mkdtemp())
for line in sys.stdin:
    job = json.loads(line)
    src = tmp / "module.mlir"
    src.write_text(job["text"])
    signal.alarm(int(job["timeout"]))
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # passes that print a report
            text = run_opt(src, job["pipeline"])
        out = {"status": "ok", "text": text}
    except Timeout:
        out = {"status": "hang", "text": f"over {job['timeout']} s"}
    except SymshapeError as err:
        out = {"status": "refused", "text": str(err).splitlines()[0] if str(err) else type(err).__name__}
    except Exception as err:
        tb = traceback.extract_tb(err.__traceback__)[-1]
        where = f" at {Path(tb.filename).name}:{tb.lineno}"
        out = {"status": "internal", "text": f"internal error: {type(err).__name__}: {err}{where}"}
    finally:
        signal.alarm(0)
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
"""


def run_symshape(
    modules: Sequence[str], pipeline: str, *, timeout: float = 60.0, python: str = sys.executable
) -> list[OptResult]:
    """``symshape opt -p pipeline`` on each of ``modules``, in one worker process (restarted
    after a crash or a hang)."""
    results: list[OptResult] = []
    env = {**os.environ, "PYTHONFAULTHANDLER": "1"}
    worker: subprocess.Popen[str] | None = None
    log = tempfile.TemporaryFile("w+")  # the worker's stderr: read after a crash, never blocks it
    try:
        for text in modules:
            if worker is None:
                log.seek(0)
                log.truncate()
                worker = subprocess.Popen(
                    [python, "-c", _WORKER],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=log,
                    text=True,
                    env=env,
                )
            result, alive = _one(worker, text, pipeline, timeout, log)
            results.append(result)
            if not alive:
                worker.kill()
                worker.wait()
                worker = None
    finally:
        if worker is not None and worker.stdin is not None:
            worker.stdin.close()
            worker.wait(timeout=30)
        log.close()
    return results


def _one(
    worker: subprocess.Popen[str], text: str, pipeline: str, timeout: float, log: typing.IO[str]
) -> tuple[OptResult, bool]:
    import selectors

    assert worker.stdin is not None and worker.stdout is not None
    worker.stdin.write(json.dumps({"text": text, "pipeline": pipeline, "timeout": max(1, int(timeout))}) + "\n")
    worker.stdin.flush()
    sel = selectors.DefaultSelector()
    sel.register(worker.stdout, selectors.EVENT_READ)
    ready = sel.select(timeout + 30)  # the worker's own alarm fires first unless C code hangs
    sel.close()
    if not ready:
        return OptResult("hang", f"over {timeout} s (no answer)"), False
    line = worker.stdout.readline()
    if not line:
        worker.wait()
        log.seek(0)
        lines = [ln for ln in log.read().splitlines() if ln.strip()]
        first = next((ln for ln in lines if "Fatal" in ln or "Error" in ln or "error" in ln), lines[0] if lines else "")
        return OptResult("crash", f"exit {worker.returncode}: {first}"[:300]), False
    data = json.loads(line)
    status = str(data["status"])
    return OptResult(status, str(data["text"])), status != "hang"


# --------------------------------------------------------------------------------------------
# The comparison


@dataclass(frozen=True)
class Claims:
    """What the passes of a pipeline declare they rewrite (`symshape.tools.mlir_passes.pipeline.declared_rewrites`)."""

    ops: frozenset[str] = frozenset()
    """Op-name patterns (``fnmatch``: ``arith.*``): ops the passes may create, erase or change."""
    eliminates: frozenset[str] = frozenset()
    """``dead``: pure ops whose results nothing uses may be erased (canonicalization);
    ``duplicates``: identical ops may become one (CSE)."""
    annotates: frozenset[str] = frozenset()
    """Discardable attributes the passes may add to any op (they are not compared)."""

    def without_annotations(self, op: OpRecord) -> OpRecord:
        """``op`` without the attributes the passes may add."""
        if not self.annotates:
            return op
        kept = tuple((k, v) for k, v in op.attrs if not any(fnmatchcase(k, p) for p in self.annotates))
        return dataclasses.replace(op, attrs=kept)

    def claims(self, op: OpRecord) -> bool:
        """Whether ``op`` is claimed: a pattern matches its name, or ``name @symbol`` its name and
        its ``sym_name`` (``func.func @shape_constraint_graph``)."""
        for pattern in self.ops:
            name, _, symbol = pattern.partition(" @")
            if fnmatchcase(op.name, name) and (not symbol or fnmatchcase(op.symbol, symbol)):
                return True
        return False


@dataclass
class Comparison:
    """The differential check of one module under one pipeline."""

    ops: int = 0
    """Input ops compared (not claimed by a pass)."""
    constants: int = 0
    """Input constant ops compared (claimed ones too: their values are checked)."""
    attributes: int = 0
    """Attributes of the compared input ops."""
    claimed: int = 0
    """Input ops whose name a pass of the pipeline claims (not compared)."""
    eliminated: int = 0
    """Unclaimed input ops erased as dead or merged as duplicates, as the passes declare."""
    created: int = 0
    """Output ops in functions that only the output has (the pass's own functions)."""
    mismatches: list[str] = field(default_factory=list)
    """One line per op key whose count differs between input and output."""


FLOAT_TYPE = re.compile(r":\s*(?:tensor<(?:[?\d]+x)*)?(?:bf16|f\d+\w*|tf32|complex<)")
"""A constant of a float or complex element type (a shape pass never creates one)."""
ZERO = re.compile(r"(dense<)?0\.0+e\+00>? : ")
"""The one float a pass may create: +0.0, the initial sum and the padding of a convolution lowered
to ``linalg`` (for-iree); any other new float constant is a changed value."""


def compare(before: Sequence[OpRecord], after: Sequence[OpRecord], claims: Claims | None = None) -> Comparison:
    """Check that ``after`` has exactly the ops (name and attributes) of ``before``, except for
    ops ``claims`` covers: claimed names, and dead or duplicate ops when the passes eliminate
    them. A float or complex constant that only the output has is a mismatch even when its op
    is claimed: the passes rewrite shape computations, never data."""
    claims = claims or Claims()
    before = [claims.without_annotations(op) for op in before]
    after = [claims.without_annotations(op) for op in after]
    functions = {op.function for op in before} | {op.defines for op in before}
    out = [op for op in after if op.function in functions and op.defines in functions]
    result = Comparison(created=len(after) - len(out))
    dead = dead_ops(before)
    for op in before:
        result.constants += op.is_constant()
        if claims.claims(op):
            result.claimed += 1
            continue
        result.ops += 1
        result.attributes += len(op.attrs)
    want = Counter(op.key for op in before if not claims.claims(op))
    got = Counter(op.key for op in out if not claims.claims(op))
    n_dead = Counter(op.key for i, op in enumerate(before) if i in dead and not claims.claims(op))
    examples = {op.key: op for op in [*out, *before]}
    surplus = [op for op in out if got[op.key] > want[op.key]]
    short = {key[0] for key in want if want[key] > got[key]}
    for key in sorted(want.keys() | got.keys()):
        n_in, n_out = want[key], got[key]
        op = examples[key]
        if n_in > n_out:
            missing = n_in - n_out
            if "duplicates" in claims.eliminates and n_out >= 1:
                result.eliminated += missing
                continue
            if "dead" in claims.eliminates and n_dead[key] >= missing:
                result.eliminated += missing
                continue
            near = _nearest(op, [o for o in surplus if o.name == op.name])
            hint = f"; the output has instead: {_diff(op, near)}" if near is not None else ""
            result.mismatches.append(f"lost {missing} of {n_in}: {op.show()}{hint}")
        elif n_out > n_in and op.name not in short:
            result.mismatches.append(f"added {n_out - n_in}: {op.show()}")  # a change is reported as lost
    values = {v for op in before for k, v in op.attrs if k in CONSTANT_ATTRS}
    for op in out:
        if claims.claims(op):
            result.mismatches.extend(
                f"new float constant: {op.show()}"
                for k, v in op.attrs
                if k in CONSTANT_ATTRS and v not in values and FLOAT_TYPE.search(v) and not ZERO.match(v)
            )
    return result


def dead_ops(ops: Sequence[OpRecord]) -> set[int]:
    """The indices of ops whose results are used by nothing but dead ops (and of the ops nested
    in them): what dead-code elimination may erase."""
    users: dict[tuple[str, str], list[int]] = {}
    for i, op in enumerate(ops):
        for name in op.operands:
            users.setdefault((op.function, name), []).append(i)
    dead: set[int] = set()
    changed = True
    while changed:
        changed = False
        for i in reversed(range(len(ops))):
            op = ops[i]
            if i in dead:
                continue
            nested_in_dead = op.parent in dead
            unused = bool(op.results) and all(
                u in dead or _inside(ops, u, i) for r in op.results for u in users.get((op.function, r), [])
            )
            if nested_in_dead or unused:
                dead.add(i)
                changed = True
    return dead


def _inside(ops: Sequence[OpRecord], i: int, ancestor: int) -> bool:
    while i >= 0:
        if i == ancestor:
            return True
        i = ops[i].parent
    return False


def _nearest(op: OpRecord, candidates: list[OpRecord]) -> OpRecord | None:
    mine = dict(op.attrs)

    def distance(other: OpRecord) -> int:
        theirs = dict(other.attrs)
        return sum(1 for k in mine.keys() | theirs.keys() if mine.get(k) != theirs.get(k))

    return min(candidates, key=distance, default=None)


def _diff(op: OpRecord, other: OpRecord) -> str:
    mine, theirs = dict(op.attrs), dict(other.attrs)
    parts = [
        f"{k}: {_clip(mine.get(k, '<none>'), 120)} -> {_clip(theirs.get(k, '<none>'), 120)}"
        for k in sorted(mine.keys() | theirs.keys())
        if mine.get(k) != theirs.get(k)
    ]
    return "; ".join(parts)


def claims_of(pipeline: str) -> Claims:
    """What the passes of ``pipeline`` declare they rewrite (their ``REWRITES`` and ``ELIMINATES``)."""
    if not pipeline.strip():
        return Claims()
    from symshape.tools.mlir_passes.pipeline import declared_rewrites, parse_pipeline

    declared = declared_rewrites([spec.name for spec in parse_pipeline(pipeline)])
    return Claims(declared.ops, declared.eliminates, declared.annotates)


# --------------------------------------------------------------------------------------------
# A whole run: modules -> symshape -> iree-opt -> comparison


@dataclass
class ModuleReport:
    """The outcome of one module under one pipeline."""

    name: str
    pipeline: str
    status: str
    """'ok', 'mismatch', 'refused', 'internal', 'crash', 'hang', 'output-rejected' (iree-opt
    cannot read symshape's output), 'unreadable-input' (iree-opt cannot read the input) or
    'reader-error' (this module cannot read iree-opt's print: a bug of the check)."""
    detail: str = ""
    comparison: Comparison | None = None
    baseline: str = "input"
    """What the output was compared with: 'input' (iree-opt's print of it) or 'symshape round
    trip' (iree-opt cannot read the input)."""


def check_modules(named: Sequence[tuple[str, str]], pipeline: str, *, timeout: float = 60.0) -> list[ModuleReport]:
    """Run the differential check of ``pipeline`` over (name, text) modules.

    The baseline is the input as iree-opt prints it. For an input iree-opt cannot read (a
    dialect it has only in generic form, such as mhlo or symshape's own, written in pretty
    form) a pipeline with passes is compared against symshape's own round trip instead, so the
    passes are still checked; the round trip of such an input is reported as
    'unreadable-input'."""
    texts = [t for _, t in named]
    before = iree_generic(texts)
    results = run_symshape(texts, pipeline, timeout=timeout)
    fallback = [i for i, b in enumerate(before) if b.text is None and pipeline.strip()]
    if fallback:
        trips = run_symshape([texts[i] for i in fallback], "", timeout=timeout)
        good = [(i, t.text) for i, t in zip(fallback, trips, strict=True) if t.status == "ok"]
        for (i, _), printed in zip(good, iree_generic([t for _, t in good]), strict=True):
            if printed.text is not None:
                before[i] = Printed(printed.text, "symshape round trip")
    ok = [i for i, r in enumerate(results) if r.status == "ok"]
    after: dict[int, Printed] = dict(zip(ok, iree_generic([results[i].text for i in ok]), strict=True))
    claims = claims_of(pipeline)
    reports: list[ModuleReport] = []
    for i, (name, _) in enumerate(named):
        res = results[i]
        printed = after.get(i)
        baseline = before[i].text
        if baseline is None:
            reports.append(ModuleReport(name, pipeline, "unreadable-input", before[i].error))
        elif res.status != "ok":
            reports.append(ModuleReport(name, pipeline, res.status, res.text))
        elif printed is None or printed.text is None:
            reports.append(ModuleReport(name, pipeline, "output-rejected", printed.error if printed else ""))
        else:
            report = _compare_texts(name, pipeline, baseline, printed.text, claims)
            report.baseline = before[i].error or "input"
            reports.append(report)
    return reports


def _compare_texts(name: str, pipeline: str, before: str, after: str, claims: Claims) -> ModuleReport:
    try:
        comparison = compare(parse_generic(before), parse_generic(after), claims)
    except GenericFormError as err:
        return ModuleReport(name, pipeline, "reader-error", f"the fidelity reader failed: {err}")
    status = "mismatch" if comparison.mismatches else "ok"
    detail = comparison.mismatches[0] if comparison.mismatches else ""
    return ModuleReport(name, pipeline, status, detail, comparison)


def split_modules(text: str) -> list[str]:
    """The ``// -----``-separated modules of a file (one module when it has no separator)."""
    return [c for c in re.split(r"^// -----[^\n]*\n?", text, flags=re.MULTILINE) if c.strip()]
