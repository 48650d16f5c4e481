"""The examples in docs/errors.md, produced by running the real command line on real bad inputs.

Each recipe writes its bad input into a fresh temporary directory and runs ``symshape ...`` there
(in a subprocess, with that directory as the working directory, so the paths in the messages are
the short relative ones the command names). The output goes into docs/errors.md between the
markers ``<!-- example: KEY -->`` and ``<!-- /example -->``, which sit in the section of the
class the message names (``symshape explain <code>``); the text around the markers is written by
hand. docs/errors.md is the source; src/symshape/errors.md is its copy shipped in the package (what
``symshape explain`` prints), written by ``--write`` and compared by ``--check``.

Usage:
    python scripts/error_examples.py           # print every example
    python scripts/error_examples.py --check   # exit 1 when docs/errors.md or its copy is not current
    python scripts/error_examples.py --write   # rewrite the example blocks in docs/errors.md, and the copy

tests/errors/test_docs.py runs the ``--check`` comparison.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import onnx
from onnx import TensorProto, helper

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "errors.md"
SHIPPED = ROOT / "src" / "symshape" / "errors.md"  # the copy in the package: symshape explain
F = TensorProto.FLOAT


@dataclass(frozen=True)
class Example:
    """One bad input and the command that trips on it.

    ``make`` writes the input into the directory it is given and returns the arguments of
    ``symshape``; ``error`` is the class whose section the message must link to. A recipe that
    is not ``enabled`` documents a message the tool does not give yet: it must still run cleanly
    (the check fails once it errors, so that it gets enabled).
    """

    key: str
    error: str
    about: str
    make: Callable[[Path], list[str]]
    enabled: bool = True


def _save(model: onnx.ModelProto, path: Path) -> None:
    onnx.save(model, str(path))


def _model(nodes: Sequence[onnx.NodeProto], inputs: Sequence[tuple[str, list[int | str] | None]],
           outputs: Sequence[str], inits: Sequence[onnx.TensorProto] = ()) -> onnx.ModelProto:
    graph = helper.make_graph(
        list(nodes),
        "main",
        [helper.make_tensor_value_info(n, F, dims) for n, dims in inputs],
        [helper.make_tensor_value_info(n, F, None) for n in outputs],
        list(inits),
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _matmul_model(d: Path, hidden: int | str, k: int) -> None:
    """``x [batch, seq, hidden] @ w [k, 64]``, named like a transformer's attention MatMul."""
    node = helper.make_node("MatMul", ["x", "w"], ["y"], name="layer0/attn/MatMul")
    _save(_model([node], [("x", ["batch", "seq", hidden]), ("w", [k, 64])], ["y"]), d / "model.onnx")


def _small_model(d: Path) -> None:
    """``x [batch, seq, 8]`` reshaped to ``[-1, 8]``: two input symbols, nothing wrong."""
    target = helper.make_tensor("target", TensorProto.INT64, [2], [-1, 8])
    node = helper.make_node("Reshape", ["x", "target"], ["y"], name="flat")
    _save(_model([node], [("x", ["batch", "seq", 8])], ["y"], [target]), d / "model.onnx")


def missing_file(d: Path) -> list[str]:
    return ["analyze", "model.onnx"]


def two_minus_ones(d: Path) -> list[str]:
    target = helper.make_tensor("target", TensorProto.INT64, [3], [-1, 4, -1])
    node = helper.make_node("Reshape", ["x", "target"], ["y"], name="reshape")
    _save(_model([node], [("x", ["batch", 16])], ["y"], [target]), d / "model.onnx")
    return ["analyze", "model.onnx"]


def softmax_axis(d: Path) -> list[str]:
    node = helper.make_node("Softmax", ["x"], ["y"], axis=5, name="softmax")
    _save(_model([node], [("x", ["batch", 8])], ["y"]), d / "model.onnx")
    return ["analyze", "model.onnx"]


_ADD = """func.func @main(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<?x4xf32
  return %0 : tensor<?x4xf32>
}
"""


def mlir_syntax(d: Path) -> list[str]:
    (d / "model.mlir").write_text(_ADD)
    return ["analyze", "model.mlir"]


def matmul_768_512(d: Path) -> list[str]:
    _matmul_model(d, 768, 512)
    return ["analyze", "model.onnx"]


def fact_against_model(d: Path) -> list[str]:
    _matmul_model(d, "hidden", 768)
    return ["analyze", "model.onnx", "--assume", "hidden == 700"]


def unknown_symbol(d: Path) -> list[str]:
    _small_model(d)
    return ["analyze", "model.onnx", "--assume", "sequence <= 4096"]


def empty_range(d: Path) -> list[str]:
    _small_model(d)
    return ["analyze", "model.onnx", "--dim", "seq=5..2"]


def bad_expression(d: Path) -> list[str]:
    _small_model(d)
    return ["analyze", "model.onnx", "--assume", "batch + == 3"]


def unwritable_json(d: Path) -> list[str]:
    _small_model(d)
    (d / "reports").write_text("a file, not a directory\n")
    return ["analyze", "model.onnx", "--json", "reports/model.json"]


def overwrite_input(d: Path) -> list[str]:
    _small_model(d)
    return ["annotate", "model.onnx", "-o", "./model.onnx"]


def no_rank_to_feed(d: Path) -> list[str]:
    node = helper.make_node("Relu", ["x"], ["y"], name="relu")
    _save(_model([node], [("x", None)], ["y"]), d / "model.onnx")
    return ["verify", "model.onnx"]


EXAMPLES: tuple[Example, ...] = (
    Example("model-missing-file", "ModelError", "a path that does not exist", missing_file),
    Example("model-reshape-two-minus-ones", "ModelError", "a Reshape whose target is [-1, 4, -1]", two_minus_ones),
    Example("model-softmax-axis", "ModelError", "a Softmax with axis=5 on a rank-2 input", softmax_axis,
            enabled=True),
    Example("model-mlir-syntax", "ModelError", "an MLIR type without its closing '>'", mlir_syntax),
    Example("contradiction-matmul", "ContradictionError", "x [batch, seq, 768] @ w [512, 64]", matmul_768_512),
    Example("contradiction-user-fact", "ContradictionError",
            "x [batch, seq, hidden] @ w [768, 64], with a fact that contradicts it", fact_against_model),
    Example("userfact-unknown-symbol", "UserFactError", "a fact over a name the model does not have", unknown_symbol),
    Example("userfact-empty-range", "UserFactError", "an empty --dim range", empty_range),
    Example("expression-syntax", "ExpressionSyntaxError", "a fact that is not an expression", bad_expression),
    Example("output-unwritable", "OutputError", "--json under a path that is a file", unwritable_json),
    Example("output-overwrite-input", "OutputError", "an output path that names the input", overwrite_input),
    Example("oracle-no-rank", "OracleError", "a graph input without a declared shape", no_rank_to_feed),
)


@dataclass(frozen=True)
class Run:
    """What one recipe gave: the command as a user types it, the exit status and stderr."""

    example: Example
    command: str
    status: int
    stderr: str

    def block(self) -> str:
        """The text between the markers in docs/errors.md."""
        return f"```console\n# {self.example.about}\n$ {self.command}\n{self.stderr.rstrip()}\n```"


def run(example: Example) -> Run:
    """Build the bad input in a fresh directory and run the command line there."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    env.pop("SYMSHAPE_DEBUG", None)
    env["NO_COLOR"] = "1"
    with tempfile.TemporaryDirectory(prefix="symshape-error-") as tmp:
        d = Path(tmp)
        args = example.make(d)
        proc = subprocess.run([sys.executable, "-m", "symshape", *args], cwd=d, env=env, capture_output=True,
                              text=True, timeout=300, check=False)
        stderr = proc.stderr.replace(str(d.resolve()), "<tmp>").replace(str(d), "<tmp>")
    return Run(example, shlex.join(["symshape", *args]), proc.returncode, stderr)


def run_all(examples: Sequence[Example] = EXAMPLES) -> list[Run]:
    """Every recipe, in parallel (each is a separate process)."""
    with ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 2)) as pool:
        return list(pool.map(run, examples))


def problems(r: Run) -> list[str]:
    """Why a run cannot go into the docs (empty when it can)."""
    key = r.example.key
    if not r.example.enabled:
        if r.status != 0:
            return [f"{key}: the command now fails ({r.stderr.strip()}); enable the recipe and run --write"]
        return []
    out: list[str] = []
    lines = r.stderr.strip().splitlines()
    if r.status != 2 or len(lines) != 1 or not lines[0].startswith("error: "):
        out.append(f"{key}: expected exit status 2 and one 'error:' line, got {r.status}: {r.stderr!r}")
    elif not lines[0].endswith(f"(run `symshape explain {r.example.error.lower()}`)"):
        out.append(f"{key}: the message does not name the {r.example.error} code: {lines[0]}")
    return out


_BLOCK = re.compile(r"(<!-- example: (?P<key>[\w-]+) -->\n)(?P<body>(?:(?!<!-- ).)*?)(<!-- /example -->)", re.DOTALL)


def documented(text: str) -> dict[str, str]:
    """The example blocks in ``text``: key -> body (without its last newline)."""
    return {m["key"]: m["body"].removesuffix("\n") for m in _BLOCK.finditer(text)}


def section_of(text: str, key: str) -> str | None:
    """The ``## Heading`` the marker of ``key`` sits under."""
    at = text.find(f"<!-- example: {key} -->")
    if at < 0:
        return None
    heads = re.findall(r"^## (\S+)", text[:at], re.MULTILINE)
    return heads[-1] if heads else None


def rewrite(text: str, runs: Sequence[Run]) -> str:
    """``text`` with each enabled example's block replaced by its current output."""
    blocks = {r.example.key: r.block() + "\n" for r in runs if r.example.enabled}
    return _BLOCK.sub(lambda m: m[1] + blocks.get(m["key"], m["body"]) + m[4], text)


def check(text: str, runs: Sequence[Run]) -> list[str]:
    """Everything that keeps ``text`` from matching the runs."""
    out = [p for r in runs for p in problems(r)]
    have = documented(text)
    for r in runs:
        key = r.example.key
        if not r.example.enabled:
            continue
        if key not in have:
            out.append(f"{key}: add '<!-- example: {key} -->' and '<!-- /example -->' to the {r.example.error} section")
        elif section_of(text, key) != r.example.error:
            out.append(f"{key}: the block sits under '## {section_of(text, key)}', not '## {r.example.error}'")
        elif have[key] != r.block():
            out.append(f"{key}: docs/errors.md is not current; run python scripts/error_examples.py --write")
    known = {r.example.key for r in runs if r.example.enabled}
    out += [f"{k}: docs/errors.md has a block no enabled recipe makes" for k in have if k not in known]
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="exit 1 when docs/errors.md or its copy is not current")
    mode.add_argument("--write", action="store_true", help="rewrite the example blocks in docs/errors.md, and the copy")
    args = parser.parse_args(argv)
    runs = run_all()
    text = DOC.read_text()
    if args.write:
        text = rewrite(text, runs)
    if args.check or args.write:
        issues = check(text, runs)
        if args.check and SHIPPED.read_text() != text:
            issues.append(f"{SHIPPED.relative_to(ROOT)} differs from docs/errors.md; run --write to copy it")
        if issues:
            print("\n".join(issues), file=sys.stderr)
            return 1
        if args.write:
            DOC.write_text(text)
            SHIPPED.write_text(text)
        print("docs/errors.md and its copy in the package are current")
        return 0
    for r in runs:
        print(f"<!-- example: {r.example.key} ({r.example.error}{'' if r.example.enabled else ', not enabled'}) -->")
        print(r.block())
    return 0


if __name__ == "__main__":
    sys.exit(main())
