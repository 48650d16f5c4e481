# pyright: strict
"""The error families symshape raises, all under `SymshapeError`, and the one message format.

Two kinds stay apart (onnx-shape-inference's habit): malformed input (the model or text is
wrong: always raised) and facts that could not be proven (never raised: recorded as guards or
warnings in the analysis). Each class has a code (its ``anchor``, the class name in lower case):
every message ends with the command that prints the section of the error guide explaining it,
``symshape explain <code>``. The guide ships inside the package (``symshape/errors.md``, a copy of
the site's ``docs/errors.md``), so the command works for a pip install too.

An error is built from four parts, by keyword, so every message says the same four things in
the same order (`FORMAT`)::

    raise ModelError(where=op_where("", "Softmax", "sm"), found="axis 5 is out of range for rank 2",
                     expected="an axis in [-2, 1]", fix="fix the axis attribute")

reads ``Softmax (node 'sm'): axis 5 is out of range for rank 2, expected an axis in [-2, 1]; fix
the axis attribute (run `symshape explain modelerror`)``. The parts stay on the error as attributes
(``err.where``, ``err.found``, ``err.expected``, ``err.fix``) for callers that show them apart.
The ``where_*`` helpers below spell each kind of place one way.
"""

from __future__ import annotations

from os import PathLike

GUIDE = "errors.md"  # the error guide, package data of symshape (docs/errors.md on the site)
EXPLAIN = "symshape explain"  # the command that prints a class's section of it
FORMAT = "{where}: {found}, expected {expected}; {fix}"
FIX_MODEL = "fix the model or re-export it"  # the usual advice for a malformed model


def compose(where: str, found: str, expected: str, fix: str) -> str:
    """The message text of the four parts (`FORMAT`), without the docs link."""
    return FORMAT.format(where=where, found=found, expected=expected, fix=fix)


def one_line(text: str) -> str:
    """``text`` with every character that would break the line or the terminal (newlines, tabs,
    other control characters) written as an escape, so an error quoting hostile input (a fact or
    a file name with a newline) stays one line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else _escape(c) for c in text)


def _escape(c: str) -> str:
    code = ord(c)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


class SymshapeError(Exception):
    """Root of every error symshape raises on purpose.

    Built by keyword only (``where=``, ``found=``, ``expected=``, ``fix=``), so every message
    says the same four things in the same order.
    """

    anchor = "symshapeerror"  # the code: `symshape explain symshapeerror`, and docs/errors.md#symshapeerror

    def __init__(self, /, *, where: str, found: str, expected: str, fix: str) -> None:
        self.message = one_line(compose(where, found, expected, fix))
        super().__init__(self.message)
        self.where = where
        self.found = found
        self.expected = expected
        self.fix = fix

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle by the four parts (errors cross process boundaries: pytest-xdist, pools)."""
        return (_rebuild, (type(self), self.where, self.found, self.expected, self.fix))

    @property
    def docs(self) -> str:
        """The command that prints the section of the error guide explaining this error:
        ``symshape explain modelerror`` (the same section is ``docs/errors.md#modelerror``)."""
        return f"{EXPLAIN} {self.anchor}"

    def __str__(self) -> str:
        return f"{self.message} (run `{self.docs}`)"


def _rebuild(cls: type[SymshapeError], where: str, found: str, expected: str, fix: str) -> SymshapeError:
    return cls(where=where, found=found, expected=expected, fix=fix)


class ExpressionSyntaxError(SymshapeError):
    """A dimension expression (dim_param, --assume, --dim) is not valid sympy-style syntax."""

    anchor = "expressionsyntaxerror"


class ContradictionError(SymshapeError):
    """Two constraints cannot both hold; the message names both origins."""

    anchor = "contradictionerror"


class ModelError(SymshapeError):
    """The input program is malformed: a missing input, a bad attribute, an unreadable file."""

    anchor = "modelerror"


class UserFactError(SymshapeError):
    """A fact given on the command line or through the API cannot be used."""

    anchor = "userfacterror"


class OutputError(SymshapeError):
    """An output file cannot be written, or would overwrite an input file."""

    anchor = "outputerror"


# ------------------------------------------------------------------ where: one spelling per kind


def where_op(dialect: str, op_type: str, name: str) -> str:
    """An op: ``Softmax (node 'sm')`` or ``com.microsoft::Attention (node 'a')`` for ONNX (its
    domain, empty for ai.onnx, then the op type), ``stablehlo.add (op '@main:%3')`` for MLIR.

    ONNX domains are empty or dotted (``com.microsoft``); an MLIR dialect name never has a dot
    (the op name is ``dialect.op``), so the dialect tells the two apart.
    """
    kind = "node" if not dialect or "." in dialect else "op"
    return f"{op_kind(dialect, op_type)} ({kind} '{name}')"


def op_kind(dialect: str, op_type: str) -> str:
    """An op type as `where_op` spells it: ``Softmax``, ``com.microsoft::Attention``,
    ``stablehlo.add``."""
    if not dialect or "." in dialect:
        return f"{dialect}::{op_type}" if dialect else op_type
    return f"{dialect}.{op_type}"


def where_file(path: str | PathLike[str]) -> str:
    """An input file: ``file 'model.onnx'`` (the path as given)."""
    return f"file '{path}'"


def where_output(path: str | PathLike[str]) -> str:
    """An output file: ``output 'out.json'`` (the path as given)."""
    return f"output '{path}'"


def where_input(name: str, part: str = "") -> str:
    """A program input, or a part of it: ``input 'x'``, ``input 'x' (dim 1)``."""
    return f"input '{name}' ({part})" if part else f"input '{name}'"


def where_symbol(name: str) -> str:
    """A dimension symbol: ``symbol 'seq'``."""
    return f"symbol '{name}'"


def where_fact(text: str) -> str:
    """A user fact as written: ``user fact 'seq <= 4096'``."""
    return f"user fact '{text}'"


def where_graph(name: str) -> str:
    """An ONNX graph (the main graph or a subgraph, by name or path): ``graph 'main'``."""
    return f"graph '{name}'"


def where_initializer(name: str) -> str:
    """An ONNX initializer: ``initializer 'w'``."""
    return f"initializer '{name}'"


def where_option(option: str, value: str) -> str:
    """A command-line value: ``--size 'batch=x'``, ``--format 'xml'``."""
    return f"{option} '{value}'"
