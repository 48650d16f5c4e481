"""Serialized ``jax.export.Exported`` files (issue 10, item 2): every jax function the MLIR-text
tests export (the jax oracle tables listed in ``TABLES``, under tests/rules/hlo/ and elsewhere, and
the whole programs of tests/frontends/mlir/test_jax_export_models.py) is serialized, written to a
file and analyzed from it; the JSON must equal the analysis of the same export's ``mlir_module()``
text, the symbols must be jax's own dimension variables (``exported.in_avals``), and `symshape.api.analyze_jax` of the
object gives the same. jax is imported inside the tests only (CI's no-jax venv collects this file).
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from symshape.api import analyze_file, analyze_jax
from symshape.errors import ModelError
from symshape.frontends.jax.exported import input_dim_names
from symshape.frontends.mlir.frontend import analyze_mlir_text
from symshape.tools.outputs import render

# the test id's prefix -> (module of tests/, its tables of subjects); rows are pytest.param(Subject, ...), or a
# dict of them. The prefixes are the modules' names before tests/ had a folder per room, kept as the tests' ids.
TABLES = {
    "jax_oracle_control": ("rules.hlo.test_control_jax", ["CONTROL", "PYTREES"]),
    "jax_oracle_conv": ("rules.hlo.test_conv_jax", ["LARGE_INPUTS", "OTHER"]),
    "jax_oracle_elementwise": (
        "rules.hlo.test_elementwise_jax",
        ["ELEMENTWISE", "REDUCTIONS", "IOTA", "CUMULATIVE", "SORTING", "NORMALIZATION"],
    ),
    "jax_oracle_guards": ("frontends.mlir.test_guards_jax", ["CONSTRAINED"]),
    "jax_oracle_linalg": ("rules.hlo.test_contract_jax", ["CONTRACTIONS", "ATTENTION", "VMAPPED"]),
    "jax_oracle_models": ("e2e.test_blocks_jax", ["MODELS"]),
    "jax_oracle_shapes": (
        "rules.hlo.test_data_movement_jax",
        ["RESHAPES", "CONCATS", "SLICES", "PADS", "TRANSPOSES", "GATHERS", "SCATTERS"],
    ),
    "jax_exports_models": ("frontends.mlir.test_jax_export_models", ["SUBJECTS"]),
}
GROUPS = [(module, table) for module, tables in TABLES.values() for table in tables]
IDS = [f"{prefix}.{table}" for prefix, (_, tables) in TABLES.items() for table in tables]


def subjects(module: str, table: str) -> dict[str, Any]:
    """The table's subjects by row id (jax is imported here, by the test modules)."""
    rows = getattr(importlib.import_module(f"tests.{module}"), table)
    if isinstance(rows, dict):
        return dict(rows)
    return {row.id: row.values[0] for row in rows}


def exported_file(exported: Any, path: Path) -> Path:
    path.write_bytes(exported.serialize())
    return path


@pytest.mark.needs_jax
@pytest.mark.parametrize(("module", "table"), GROUPS, ids=IDS)
def test_serialized_exports_match_the_mlir_text(module: str, table: str, tmp_path: Path) -> None:
    found = subjects(module, table)
    assert found, f"{module}.{table} has no subjects"
    for name, subject in found.items():
        path = exported_file(subject.exported, tmp_path / f"{name}.jaxexp")
        from_file = analyze_file(path)
        from_text = analyze_mlir_text(subject.exported.mlir_module(), source=str(path))
        assert render(from_file, "json") == render(from_text, "json"), name
        jax_names = input_dim_names(subject.exported)
        assert jax_names, name
        assert set(jax_names) <= set(from_file.symbols()), (name, jax_names, list(from_file.symbols()))


@pytest.mark.needs_jax
def test_the_file_is_read_back_not_reexported(tmp_path: Path) -> None:
    """The analysis comes from the bytes: the file alone, in a fresh process, gives the JSON."""
    from tests.frontends.mlir.test_jax_export_models import SUBJECTS

    subject = SUBJECTS["llama_rope_gqa_kv_cache"]
    path = exported_file(subject.exported, tmp_path / "llama.bin")
    out = subprocess.run([sys.executable, "-m", "symshape", "analyze", str(path), "--format", "json"],
                         capture_output=True, text=True, check=True).stdout
    want = render(analyze_mlir_text(subject.exported.mlir_module(), source=str(path)), "json")
    assert out.strip() == want.strip()
    assert {"b", "s", "p"} <= set(analyze_file(path).symbols())


@pytest.mark.needs_jax
def test_analyze_jax_takes_the_exported_object() -> None:
    import jax
    import jax.numpy as jnp
    from jax import export

    def f(x: jax.Array, y: jax.Array) -> jax.Array:
        return jnp.concatenate([x, y], axis=1).sum(0)

    b, s, t = export.symbolic_shape("b, s, t")
    exported = export.export(jax.jit(f))(jax.ShapeDtypeStruct((b, s), jnp.float32),
                                         jax.ShapeDtypeStruct((b, t), jnp.float32))
    result = analyze_jax(exported, facts=["s <= 10"])
    assert input_dim_names(exported) == ["b", "s", "t"]
    (out,) = [o for o in result.program.outputs if o.startswith("@main:")]
    assert [str(d) for d in result.shape(out) or ()] == ["s + t"]
    assert tuple(result.symbols()["s"]["range"]) == (1, 10)


@pytest.mark.needs_jax
@pytest.mark.parametrize("suffix", [".jaxexp", ".bin"])
def test_a_file_that_is_not_an_export_is_one_line_error(tmp_path: Path, models_dir: Path, suffix: str) -> None:
    path = tmp_path / f"model{suffix}"
    path.write_bytes((models_dir / "bert_ts.onnx").read_bytes())
    with pytest.raises(ModelError, match=r"model\.(jaxexp|bin)': it is not a serialized jax\.export\.Exported .*"
                       r"Exported\.serialize\(\)"):
        analyze_file(path)
    done = subprocess.run([sys.executable, "-m", "symshape", "analyze", str(path)], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "not a serialized jax.export.Exported" in done.stderr
    assert "jax's reader fails with " in done.stderr and "(error)" not in done.stderr


@pytest.mark.needs_jax
def test_an_empty_export_says_the_file_is_empty(tmp_path: Path) -> None:
    """What a serialize() that failed after open(..., "wb") leaves behind."""
    path = tmp_path / "model.jaxexp"
    path.write_bytes(b"")
    with pytest.raises(ModelError, match=r"model\.jaxexp': the file is empty, expected the bytes of"):
        analyze_file(path)


def test_without_jax_the_error_says_how_to_install_it(tmp_path: Path) -> None:
    path = tmp_path / "model.jaxexp"
    path.write_bytes(b"anything")
    hide_jax = ("import sys; sys.modules['jax'] = None; sys.modules['jax.export'] = None; "
                f"sys.argv = ['symshape', 'analyze', {str(path)!r}]; from symshape.app.cli import run; run()")
    done = subprocess.run([sys.executable, "-c", hide_jax], capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1, done.stderr
    assert "needs jax, which is not installed" in done.stderr and "pip install 'symshape[jax]'" in done.stderr


def test_without_flatbuffers_the_error_names_the_missing_module(tmp_path: Path) -> None:
    path = tmp_path / "model.jaxexp"
    path.write_bytes(b"anything")
    script = ("import sys; sys.modules['flatbuffers'] = None; "
              f"sys.argv = ['symshape', 'analyze', {str(path)!r}]; from symshape.app.cli import run; run()")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "needs the module 'flatbuffers'" in done.stderr and "pip install 'symshape[jax]'" in done.stderr
