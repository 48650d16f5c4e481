"""Regenerate the op-form files: ``python tests/op_forms/make_op_forms.py`` (needs ``iree-opt``
from ``iree-base-compiler`` and jaxlib).

For each hand-written snippet (``hlo_snippets.py``, ``std_snippets.py``) a real MLIR tool prints
the module twice, in its pretty form and in the generic form: ``iree-opt`` for StableHLO, func,
arith, tensor and shape, and jaxlib's MLIR (the only maintained MHLO printer that installs from
PyPI) for MHLO. Ops no current tool knows (``HISTORIC``) are written out by hand, in the form
the cited tests printed. symshape's own dialect has no outside printer: its file is hand-written
(``symshape.frontends.mlir``) and not touched here. ``tests/ir/test_op_forms.py`` reads the files.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

from hlo_snippets import MHLO_ONLY, SNIPPETS, STABLEHLO_ONLY  # noqa: E402
from std_snippets import SNIPPETS as STD_SNIPPETS  # noqa: E402

SPLIT = "// -----"
GENERIC = "// generic form"

# The element count of ``%arg0: tensor<?x4xf32>`` as ``%n``, in both forms.
_NUMEL = (
    "  %c0 = arith.constant 0 : index\n  %c4 = arith.constant 4 : index\n"
    "  %d = tensor.dim %arg0, %c0 : tensor<?x4xf32>\n  %n = arith.muli %d, %c4 : index\n",
    '  %c0 = "arith.constant"() <{value = 0 : index}> : () -> index\n'
    '  %c4 = "arith.constant"() <{value = 4 : index}> : () -> index\n'
    '  %d = "tensor.dim"(%arg0, %c0) : (tensor<?x4xf32>, index) -> index\n'
    '  %n = "arith.muli"(%d, %c4) : (index, index) -> index\n',
)


def _historic(key: str, args: str, pretty: str, generic: str, numel: bool = False) -> tuple[str, str, str]:
    """A hand-written chunk: ``func.func @main(args)`` around one line in each form."""
    pre = _NUMEL if numel else ("", "")
    return (
        key,
        f"func.func @main({args}) {{\n{pre[0]}  {pretty}\n  return\n}}\n",
        f'func.func @main({args}) {{\n{pre[1]}  {generic}\n  "func.return"() : () -> ()\n}}\n',
    )


def _reshape_shape(dialect: str, types: str) -> tuple[str, str]:
    """``compute_reshape_shape`` of ``%n`` elements to ``[-1, 4]``, with ``: types``."""
    constant = f"%c = {dialect}.constant dense<[-1, 4]> : tensor<2xi32>\n  "
    generic_constant = (
        f'%c = "{dialect}.constant"() <{{value = dense<[-1, 4]> : tensor<2xi32>}}> : () -> tensor<2xi32>\n  '
    )
    return (
        f"{constant}%0 = {dialect}.compute_reshape_shape %n, %c : {types}",
        f'{generic_constant}%0 = "{dialect}.compute_reshape_shape"(%n, %c) : (index, tensor<2xi32>) -> tensor<2xi32>',
    )


# Ops of older StableHLO/MHLO that current tools no longer know, as the cited tests print them.
HISTORIC: dict[str, list[tuple[str, str, str]]] = {
    # stablehlo/tests/print_stablehlo.mlir before the ops were removed (2023):
    # ``%2 = stablehlo.compute_reshape_shape %arg3, %arg2 : (index, tensor<4xi32>) -> tensor<4xi32>``,
    # ``%7 = stablehlo.cstr_reshapable %arg3, %arg2 : (index, tensor<4xi32>) -> !shape.witness``.
    "stablehlo": [
        _historic("compute_reshape_shape", "%arg0: tensor<?x4xf32>",
                  *_reshape_shape("stablehlo", "(index, tensor<2xi32>) -> tensor<2xi32>"), numel=True),
        _historic("cstr_reshapable", "%arg0: index, %arg1: tensor<2xi32>",
                  "%0 = stablehlo.cstr_reshapable %arg0, %arg1 : (index, tensor<2xi32>) -> !shape.witness",
                  '%0 = "stablehlo.cstr_reshapable"(%arg0, %arg1) : (index, tensor<2xi32>) -> !shape.witness'),
    ],
    # mlir-hlo tests (mhlo/tests/shape_legalize_to_hlo.mlir, symbolic_shape_optimization.mlir) and
    # BladeDISC: ``mhlo.compute_reshape_shape %0, %1 : (index, tensor<2xi32>) -> tensor<2xi32>``,
    # the older ``: index, tensor<2xi32> -> tensor<2xi32>``, ``mhlo.cstr_reshapable %0, %1 : (index,
    # tensor<2xindex>) -> !shape.witness`` and ``: index, tensor<4xi32>``; ``mhlo.unary_einsum`` had
    # no custom form (mhlo/tests/canonicalize.mlir: ``"mhlo.unary_einsum"(%arg0) {einsum_config = ...}``).
    "mhlo": [
        _historic("compute_reshape_shape", "%arg0: tensor<?x4xf32>",
                  *_reshape_shape("mhlo", "(index, tensor<2xi32>) -> tensor<2xi32>"), numel=True),
        _historic("compute_reshape_shape#old", "%arg0: tensor<?x4xf32>",
                  *_reshape_shape("mhlo", "index, tensor<2xi32> -> tensor<2xi32>"), numel=True),
        _historic("cstr_reshapable", "%arg0: index, %arg1: tensor<2xindex>",
                  "%0 = mhlo.cstr_reshapable %arg0, %arg1 : (index, tensor<2xindex>) -> !shape.witness",
                  '%0 = "mhlo.cstr_reshapable"(%arg0, %arg1) : (index, tensor<2xindex>) -> !shape.witness'),
        _historic("cstr_reshapable#old", "%arg0: index, %arg1: tensor<4xi32>",
                  "%0 = mhlo.cstr_reshapable %arg0, %arg1 : index, tensor<4xi32>",
                  '%0 = "mhlo.cstr_reshapable"(%arg0, %arg1) : (index, tensor<4xi32>) -> !shape.witness'),
        _historic("unary_einsum", "%arg0: tensor<?x4xf32>",
                  '%0 = "mhlo.unary_einsum"(%arg0) {einsum_config = "ab->ba"} : (tensor<?x4xf32>) -> tensor<4x?xf32>',
                  '%0 = "mhlo.unary_einsum"(%arg0) {einsum_config = "ab->ba"} : (tensor<?x4xf32>) -> tensor<4x?xf32>'),
    ],
}


def module_text(entry: tuple[str, ...], dialect: str = "D") -> str:
    """``func.func @main(args) { body; return }`` plus any extra functions, for ``dialect``."""
    _, args, body, *extra = entry
    text = f"func.func @main({args}) {{\n  {body}\n  return\n}}\n" + "".join(e + "\n" for e in extra)
    text = text.replace('"D.', f'"{dialect}.').replace("#D", f"#{dialect}").replace("!D.", f"!{dialect}.")
    return _mhlo_attributes(text) if dialect == "mhlo" else text


def _mhlo_attributes(text: str) -> str:
    """MHLO keeps ``dense<[..]> : tensor<Nxi64>`` where StableHLO has ``array<i64: ..>``, and
    spells two enums ``#mhlo.rng_distribution<UNIFORM>``, ``#mhlo.rng_algorithm<DEFAULT>``."""

    def dense(m: re.Match[str]) -> str:
        values = [v.strip() for v in m.group(1).split(",") if v.strip()]
        return f"dense<[{', '.join(values)}]> : tensor<{len(values)}xi64>"

    text = re.sub(r"array<i64:?([^>]*)>", dense, text)
    return re.sub(r"#mhlo<(rng_distribution|rng_algorithm) (\w+)>", r"#mhlo.\1<\2>", text)


def iree_opt(text: str, *, generic: bool) -> str:
    """``text`` printed by ``iree-opt`` (pretty, or generic with ``--mlir-print-op-generic``)."""
    args = ["iree-opt", "-", *(["--mlir-print-op-generic"] if generic else [])]
    done = subprocess.run(args, input=text, capture_output=True, text=True, check=False, timeout=60)
    if done.returncode:
        raise RuntimeError(f"iree-opt rejects:\n{text}\n{done.stderr}")
    return done.stdout


def jaxlib_mhlo(text: str, *, generic: bool) -> str:
    """``text`` printed by jaxlib's MLIR, which registers the MHLO dialect."""
    import io

    from jax._src.interpreters import mlir
    from jax._src.lib.mlir import ir

    module = ir.Module.parse(text, context=mlir.make_ir_context())
    stream = io.StringIO()
    module.operation.print(file=stream, print_generic_op_form=generic, enable_debug_info=False)
    return stream.getvalue()


def chunk(key: str, pretty: str, generic: str) -> str:
    """``// key``, the pretty text, ``// generic form``, the generic text."""
    return f"// {key}\n{pretty.strip()}\n{GENERIC}\n{generic.strip()}\n"


def write(name: str, chunks: list[str]) -> None:
    (HERE / f"{name}.mlir").write_text(f"\n{SPLIT}\n".join(chunks))


def main() -> None:
    for dialect, skip, printer in (("stablehlo", MHLO_ONLY, iree_opt), ("mhlo", STABLEHLO_ONLY, jaxlib_mhlo)):
        chunks = []
        for entry in SNIPPETS:
            if entry[0].split("#")[0] in skip:
                continue
            text = module_text(entry, dialect)
            chunks.append(chunk(f"{dialect}.{entry[0]}", printer(text, generic=False), printer(text, generic=True)))
        chunks += [chunk(f"{dialect}.{key} historic", pretty, generic) for key, pretty, generic in HISTORIC[dialect]]
        write(dialect, chunks)
    by_dialect: dict[str, list[str]] = {}
    for entry in STD_SNIPPETS:
        text = module_text(entry)
        pretty, generic = iree_opt(text, generic=False), iree_opt(text, generic=True)
        by_dialect.setdefault(entry[0].split(".")[0], []).append(chunk(entry[0], pretty, generic))
    for dialect, chunks in by_dialect.items():
        write(dialect, chunks)


if __name__ == "__main__":
    main()
