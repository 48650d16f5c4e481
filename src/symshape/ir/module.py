"""A whole MLIR module: parsed from a file or text with every dialect symshape knows (unknown
ops stay unregistered), and verified with an error that names the op, its function and its line."""

from __future__ import annotations

from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from symshape.errors import FIX_MODEL, ModelError, where_file, where_op


def parse_file(path: Path) -> tuple[Context, ModuleOp]:
    """Parse ``path`` with every dialect symshape knows (unknown ops stay unregistered)."""
    from symshape.ir.mlir_file import read_mlir_text

    return parse_text(read_mlir_text(path), str(path))


def parse_text(text: str, source: str = "<string>") -> tuple[Context, ModuleOp]:
    """Parse MLIR ``text`` into a module (see `parse_file`)."""
    from symshape.ir.parse import make_context, parse_module

    ctx = make_context()
    return ctx, parse_module(text, ctx, source=source)


def first_line(err: Exception) -> str:
    """The first non-blank line of an error's message (its type when it has none)."""
    lines = [ln.strip() for ln in str(err).splitlines() if ln.strip()]
    return lines[0] if lines else type(err).__name__


def verify(module: ModuleOp, source: str, *, after: str = "") -> None:
    """Verify ``module``; ModelError naming the op (as the analysis spells it, ``stablehlo.add
    (op '@main:%0')``), its line in ``source`` and the reason when it is invalid."""
    try:
        module.verify()
    except Exception as err:  # noqa: BLE001 - xDSL verifiers raise VerifyException, some ValueError
        op = _failing_op(module)
        when = f" after the passes '{after}'" if after else ""
        line = _line_of(op)
        at = f" (file '{source}', line {line})" if line is not None else ""
        raise ModelError(
            where=_where(op) if op is not None else where_file(source),
            found=f"the module does not verify{when}: {first_line(err)}{at}",
            expected="ops with the operands, types and attributes their dialect requires",
            fix=FIX_MODEL if not after else "this is a symshape bug; please report it with the input",
        ) from None


def _failing_op(module: ModuleOp) -> Operation | None:
    """The first op (outermost first) whose own verifier fails."""
    for op in module.walk():
        if op is module:
            continue
        try:
            op.verify(verify_nested_ops=False)
        except Exception:  # noqa: BLE001 - any failure names the op
            return op
    return None


def _where(op: Operation) -> str:
    """``stablehlo.add (op '@main:%0')``: the op, its function and first result, as the analysis
    names them (the op alone when it has no result or is outside a function)."""
    from xdsl.dialects.func import FuncOp

    from symshape.ir.parse import source_names

    module = _module_of(op)
    names = source_names(module) if module is not None else {}
    fn = op.parent_op()
    while fn is not None and not isinstance(fn, FuncOp):
        fn = fn.parent_op()
    dialect, _, short = op.name.partition(".")
    if fn is None:
        return where_op(dialect, short, op.name)
    if not op.results:
        return where_op(dialect, short, f"@{fn.sym_name.data}")
    first = op.results[0]
    return where_op(dialect, short, f"@{fn.sym_name.data}:%{names.get(first, first.name_hint or '?')}")


def _line_of(op: Operation | None) -> int | None:
    from symshape.ir.parse import source_line

    module = _module_of(op) if op is not None else None
    return source_line(module, op) if module is not None and op is not None else None


def _module_of(op: Operation) -> ModuleOp | None:
    cur: Operation | None = op
    while cur is not None and not isinstance(cur, ModuleOp):
        cur = cur.parent_op()
    return cur
