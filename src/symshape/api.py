"""The Python entry points: analyze an ONNX model (path or ModelProto) or a `Program`.

Example:
    >>> from symshape.api import analyze_onnx
    >>> from symshape.engine.userfacts import Range
    >>> result = analyze_onnx("model.onnx", facts=[Range("batch", 1), "seq <= 4096"])  # doctest: +SKIP
    >>> result.shape_or_none("logits")  # doctest: +SKIP
    (batch, seq, 30522)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from symshape.engine.result import Analysis
from symshape.engine.userfacts import Fact
from symshape.frontends.onnx.frontend import analyze_onnx
from symshape.rules.walker import ProgressFn
from symshape.tools.checking import CheckResult

if TYPE_CHECKING:
    import jax.export
    import onnx
    import torch.export

    from symshape.tools.fusion.groups import FusionPlan
    from symshape.tools.optimize import Summary

__all__ = [
    "Analysis",
    "CheckResult",
    "analyze_file",
    "analyze_jax",
    "analyze_onnx",
    "analyze_torch",
    "check_shapes",
    "check_symbols",
    "example_path",
    "fusion_groups",
    "optimize_onnx",
]


def analyze_file(
    path: str | Path, *, facts: Sequence[Fact | str] = (), progress: ProgressFn | None = None
) -> Analysis:
    """Analyze an ``.onnx`` model, an ``.mlir`` module, a serialized ``jax.export.Exported``
    (``.jaxexp``, ``.bin``) or a saved ``torch.export`` program (``.pt2``), by the file's suffix
    (`symshape.frontends`)."""
    from symshape.frontends import analyze_path

    return analyze_path(path, facts, progress)


def analyze_jax(
    exported: jax.export.Exported, *, facts: Sequence[Fact | str] = (), progress: ProgressFn | None = None
) -> Analysis:
    """Analyze a ``jax.export.Exported`` (its StableHLO module; dims take jax's names, e.g. ``b``)."""
    from symshape.frontends.jax.exported import analyze_jax as analyze_exported

    return analyze_exported(exported, facts=facts, progress=progress)


def analyze_torch(
    exported_program: torch.export.ExportedProgram,
    *,
    facts: Sequence[Fact | str] = (),
    progress: ProgressFn | None = None,
) -> Analysis:
    """Analyze a ``torch.export.ExportedProgram`` (its aten graph; dims take torch's symbol names,
    e.g. ``s0``, and its ``range_constraints`` are the symbols' ranges)."""
    from symshape.frontends.fx.frontend import analyze_torch as analyze_program

    return analyze_program(exported_program, facts=facts, progress=progress)


def optimize_onnx(
    model: str | Path | onnx.ModelProto,
    *,
    facts: Sequence[Fact | str] = (),
    progress: ProgressFn | None = None,
) -> tuple[onnx.ModelProto, Summary]:
    """The model with its known shape values folded, proven no-ops removed and shapes annotated,
    and a summary of what changed (see `symshape.tools.optimize`). A path is read without its weights:
    save the result next to the original, or use `symshape.tools.optimize.optimize_file`."""
    from symshape.frontends.onnx.reader import load_model
    from symshape.tools.optimize import optimize_model

    if isinstance(model, (str, Path)):
        model = load_model(model)
    return optimize_model(model, facts=facts, progress=progress)


def example_path() -> Path:
    """The bundled example model (a tiny BERT with dynamic batch and sequence)."""
    return Path(__file__).parent / "examples" / "bert_tiny.onnx"


def check_shapes(
    analysis: Analysis, shapes: Mapping[str, Sequence[int]], *, facts: Sequence[Fact] = ()
) -> CheckResult:
    """Every requirement of ``analysis`` at the input ``shapes`` (by input name), as
    `Analysis.check_shapes`, and a failing range or divisor named by the op that needs it (the
    model is analyzed again with the symbol pinned). ``facts``: the fact values ``analysis`` was
    given (`symshape.engine.userfacts`; strings are read by `symshape.engine.userfacts.as_facts`)."""
    from symshape.tools.checking import check_shapes as check
    from symshape.tools.checking import pin_for

    return check(analysis, shapes, facts=facts, pin=pin_for(analysis))


def check_symbols(
    analysis: Analysis, values: Mapping[str, int], *, facts: Sequence[Fact] = ()
) -> CheckResult:
    """`check_shapes` at input-symbol ``values``, e.g. ``{"batch": 2, "seq": 7}``."""
    from symshape.tools.checking import check_symbols as check
    from symshape.tools.checking import pin_for

    return check(analysis, values, facts=facts, pin=pin_for(analysis))


def fusion_groups(analysis: Analysis, knowledge: str = "facts") -> FusionPlan:
    """Fusion groups (kLoop / kInput / kStitch) of ``analysis``'s program decided with
    ``knowledge``: ``facts`` (the analysis), or a baseline, ``static`` or ``elementwise`` (see
    `symshape.tools.fusion.groups`)."""
    from symshape.tools.fusion.groups import fusion_groups as groups

    return groups(analysis, knowledge)
