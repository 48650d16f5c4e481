# pyright: strict
"""The error families symshape raises, all under `SymshapeError`.

Two kinds stay apart (onnx-shape-inference's habit): malformed input (the model or text is
wrong: always raised) and facts that could not be proven (never raised: recorded as guards or
warnings in the analysis). Each class links the section of ``docs/errors.md`` that explains it.
"""

from __future__ import annotations

DOCS = "docs/errors.md"


class SymshapeError(Exception):
    """Root of every error symshape raises on purpose."""

    anchor = "symshapeerror"

    def __str__(self) -> str:
        return f"{super().__str__()} (see {DOCS}#{self.anchor})"


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
