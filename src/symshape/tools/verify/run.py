"""Run a model with onnxruntime and observe the shape of every top-level value.

onnxruntime is an optional dependency, imported inside the functions that need it.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from symshape.errors import SymshapeError

_ORT = "onnxruntime"  # where the oracle's errors happen

if TYPE_CHECKING:
    import onnx

Shape = tuple[int, ...]


class OracleError(SymshapeError):
    """The execution oracle cannot run: onnxruntime is missing or refuses the model."""

    anchor = "oracleerror"


def _onnxruntime() -> Any:
    try:
        onnxruntime = importlib.import_module("onnxruntime")  # untyped: no stubs ship with it
    except ImportError:
        raise OracleError(
            where=_ORT,
            found="it is not installed",
            expected="onnxruntime, which the execution oracle runs the model with",
            fix="pip install 'symshape[verify]' (onnxruntime alone)",
        ) from None
    return onnxruntime


def run_shapes(
    model_path: str | Path | onnx.ModelProto,
    feeds: Mapping[str, np.ndarray],
    *,
    skipped: list[str] | None = None,
) -> dict[str, Shape]:
    """Run ``model_path`` on CPU and return the observed shape of every top-level value.

    The file is never modified: a copy in memory gets each node output added to
    ``graph.output`` (with only its element type, from the model's value_info or from ONNX
    shape inference). Values whose type cannot be found, non-tensor values and values
    onnxruntime refuses as outputs are left out; their names are appended to ``skipped``.
    Graph inputs are reported with the shapes of ``feeds``.
    """
    return {k: tuple(int(d) for d in v.shape) for k, v in run_values(model_path, feeds, skipped=skipped).items()}


def attempt(
    model_path: str | Path | onnx.ModelProto, feeds: Mapping[str, np.ndarray]
) -> dict[str, Shape] | str:
    """`run_shapes`, or onnxruntime's reason on one short line when it refuses these inputs or
    crashes on them (a model that cannot load at all is still an `OracleError`). onnxruntime
    runs in a child process (`symshape.tools.verify.isolated`)."""
    return next(attempt_each(model_path, [feeds]))


def attempt_each(
    model_path: str | Path | onnx.ModelProto, feeds: Sequence[Mapping[str, np.ndarray]]
) -> Iterator[dict[str, Shape] | str]:
    """`attempt` for each of ``feeds`` in turn, with one session (in a child process, rebuilt
    only after a crash)."""
    from symshape.tools.verify.isolated import Crashed, run_each

    for result in run_each(_exposed_session, _shapes_or_refusal, model_path, [dict(f) for f in feeds]):
        yield result.text() if isinstance(result, Crashed) else result


def _exposed_session(
    model_path: str | Path | onnx.ModelProto, skipped: list[str] | None = None
) -> tuple[Any, list[str]]:
    """A session of a copy of the model with its values exposed, and its outputs' names; the
    values left out (untyped, or refused as outputs) are appended to ``skipped``."""
    import onnx

    from symshape.frontends.onnx.reader import onnx_load

    if isinstance(model_path, onnx.ModelProto):
        model = onnx.ModelProto()
        model.CopyFrom(model_path)
    else:
        model = onnx_load(model_path)
    exposed, untyped = expose_values(model)
    session, refused = _session(_onnxruntime(), model, exposed)
    if skipped is not None:
        skipped.extend(untyped + refused)
    return session, [o.name for o in session.get_outputs()]


def _shapes_or_refusal(state: tuple[Any, list[str]], feeds: Mapping[str, np.ndarray]) -> dict[str, Shape] | str:
    try:
        values = _observe(state, feeds)
    except Exception as err:  # noqa: BLE001 - onnxruntime raises its own types when it refuses inputs
        return refusal(err)
    return {k: tuple(int(d) for d in v.shape) for k, v in values.items()}


_NODE = re.compile(r"running (\w+) node\. Name:'([^']*)' Status Message: (.*)$")


def refusal(err: Exception) -> str:
    """The reason onnxruntime gives, on one short line: the node that failed and the end of its
    message."""
    text = " ".join(str(err).split())
    m = _NODE.search(text)
    if m is not None:
        op, name, message = m.groups()
        tail = message if len(message) <= 100 else "..." + message[-97:]
        return f"{op} '{name}' fails: {tail}"
    return text if len(text) <= 160 else text[:157] + "..."


def run_values(
    model_path: str | Path | onnx.ModelProto,
    feeds: Mapping[str, np.ndarray],
    *,
    skipped: list[str] | None = None,
) -> dict[str, np.ndarray]:
    """Like `run_shapes`, but return the values themselves (feeds included). An in-memory
    model is copied, never changed."""
    return _observe(_exposed_session(model_path, skipped), feeds)


def _observe(state: tuple[Any, list[str]], feeds: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The feeds and every tensor output of one run of the session."""
    session, names = state
    results = session.run(names, dict(feeds))
    observed: dict[str, np.ndarray] = {k: np.asarray(v) for k, v in feeds.items()}
    for name, value in zip(names, results, strict=True):
        if isinstance(value, np.ndarray) or np.isscalar(value):
            observed[name] = np.asarray(value)
    return observed


def expose_values(model: onnx.ModelProto) -> tuple[list[str], list[str]]:
    """Add every typed node output of the main graph to ``graph.output`` (in place).

    Returns ``(added, untyped)``: the names added, and the outputs whose element type is unknown.
    """
    import onnx

    from symshape.frontends.onnx.reader import elem_types

    types = elem_types(model)
    for declared in model.graph.output:  # an output declared without a type cannot be loaded
        tt = declared.type.tensor_type
        if declared.type.HasField("tensor_type") and not tt.elem_type and declared.name in types:
            tt.elem_type = types[declared.name]
    present = {o.name for o in model.graph.output}
    added: list[str] = []
    untyped: list[str] = []
    for node in model.graph.node:
        for out in node.output:
            if not out or out in present:
                continue
            present.add(out)
            elem = types.get(out)
            if elem is None:
                untyped.append(out)
                continue
            model.graph.output.append(onnx.helper.make_tensor_value_info(out, elem, None))
            added.append(out)
    return added, untyped


def _session(ort: Any, model: onnx.ModelProto, extra: list[str]) -> tuple[Any, list[str]]:
    """An inference session; extra outputs onnxruntime refuses are dropped (and returned)."""
    refused: list[str] = []
    keep = list(extra)
    for _ in range(8):
        try:
            return _make_session(ort, model), refused
        except Exception as err:  # noqa: BLE001 - onnxruntime raises its own exception types
            named = [n for n in keep if re.search(rf"(?<![\w./]){re.escape(n)}(?![\w./])", str(err))]
            if not named:
                named = _bisect_refused(ort, model, keep, err)
            _drop_outputs(model, set(named))
            refused.extend(named)
            keep = [n for n in keep if n not in set(named)]
    raise OracleError(
        where=_ORT,
        found="it still refuses the model after 8 rounds of dropping the outputs it names",
        expected="a session with the model's values exposed as outputs",
        fix="report it with the model; symshape verify cannot check this model",
    )


def _make_session(ort: Any, model: onnx.ModelProto) -> Any:
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    opts.log_severity_level = 4  # fatal only: a refused run raises, and verify reports it on one line
    return ort.InferenceSession(model.SerializeToString(), opts, providers=["CPUExecutionProvider"])


def _drop_outputs(model: onnx.ModelProto, names: set[str]) -> None:
    kept = [o for o in model.graph.output if o.name not in names]
    del model.graph.output[:]
    model.graph.output.extend(kept)


def _bisect_refused(ort: Any, model: onnx.ModelProto, extra: list[str], err: Exception) -> list[str]:
    """The extra outputs whose presence alone makes the session fail.

    OracleError when the model fails to load without any of them (the model itself is bad).
    """
    import onnx

    base = onnx.ModelProto()
    base.CopyFrom(model)
    _drop_outputs(base, set(extra))
    try:
        _make_session(ort, base)
    except Exception:  # noqa: BLE001 - onnxruntime raises its own exception types
        raise OracleError(
            where=_ORT,
            found=f"it cannot load the model: {err}",
            expected="a model onnxruntime can load",
            fix="fix the model (onnxruntime's reason says what it refuses)",
        ) from None
    bad: list[str] = []
    pending = [extra] if extra else []
    while pending:
        group = pending.pop()
        trial = onnx.ModelProto()
        trial.CopyFrom(base)
        trial.graph.output.extend(o for o in model.graph.output if o.name in set(group))
        try:
            _make_session(ort, trial)
        except Exception:  # noqa: BLE001 - onnxruntime raises its own exception types
            if len(group) == 1:
                bad.extend(group)
            else:
                pending += [group[: len(group) // 2], group[len(group) // 2 :]]
    if not bad:
        raise OracleError(
            where=_ORT,
            found=f"it cannot load the model with its values exposed: {err}",
            expected="a model that loads with its intermediate values as outputs",
            fix="report it with the model; symshape verify cannot check this model",
        )
    return bad
