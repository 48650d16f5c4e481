"""The execution oracle for torch.export programs: run the ExportedProgram's graph node by node
with torch (never with symshape) and compare every node's tensor with the analysis.

`run_nodes(ep, inputs)` runs ``ep.graph_module`` in a `torch.fx.Interpreter` fed with the
program's own parameters and buffers, and returns every node's output as numpy arrays (the
pieces of a multi-output node as ``name.k``, a SymInt as a 0-d array). `check_exported(analysis,
ep, samples)` runs each sample (an assignment of the input symbols; the inputs are zeros of the
declared dtypes, valid token ids and positions for the test models) and compares with
`tests.oracle.check_value`, so the comparison rules are those of the ONNX oracle.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import torch

from symshape.engine.result import Analysis
from tests.oracle import Observed, Report, _bind_data_symbols, _check_facts, check_value


def _size(d: Any, env: Mapping[str, int], names: Mapping[str, str]) -> int:
    if isinstance(d, int):
        return d
    expr = d.node.expr
    return int(expr.xreplace({s: env[names.get(str(s), str(s))] for s in expr.free_symbols}))


def make_inputs(ep: Any, env: Mapping[str, int]) -> list[torch.Tensor]:
    """The user inputs at the symbol values ``env``: zeros (floats random) of the declared dtypes."""
    from symshape.frontends.fx.names import dim_names

    names = dim_names(ep)
    gen = torch.Generator().manual_seed(0)
    out: list[torch.Tensor] = []
    for node in ep.graph.nodes:
        if node.op != "placeholder" or node.name not in ep.graph_signature.user_inputs:
            continue
        val = node.meta["val"]
        shape = [_size(d, env, names) for d in val.shape]
        if val.dtype.is_floating_point:
            out.append(torch.randn(shape, generator=gen, dtype=val.dtype))
        else:
            out.append(torch.zeros(shape, dtype=val.dtype))
    return out


def run_nodes(ep: Any, inputs: Sequence[torch.Tensor]) -> dict[str, np.ndarray]:
    """Every node's output (see the module doc)."""
    lifted = {**ep.graph_signature.inputs_to_parameters, **ep.graph_signature.inputs_to_buffers,
              **ep.graph_signature.inputs_to_lifted_tensor_constants}
    user = iter(inputs)
    args: list[Any] = []
    for node in ep.graph.nodes:
        if node.op == "placeholder":
            target = lifted.get(node.name)
            args.append(next(user) if target is None else ep.state_dict.get(target, ep.constants.get(target)))
    seen: dict[str, np.ndarray] = {}

    class Recorder(torch.fx.Interpreter):
        def run_node(self, n: torch.fx.Node) -> Any:
            result = super().run_node(n)
            if n.name in lifted:  # weights: not claimed
                return result
            if isinstance(result, torch.Tensor):
                seen[n.name] = result.detach().cpu().numpy()
            elif isinstance(result, (list, tuple)):
                for k, r in enumerate(result):
                    if isinstance(r, torch.Tensor):
                        seen[f"{n.name}.{k}"] = r.detach().cpu().numpy()
            elif isinstance(result, (int, bool)) and not isinstance(result, torch.Tensor):
                seen[n.name] = np.asarray(int(result))
            return result

    with torch.no_grad():
        Recorder(ep.graph_module).run(*args)
    return seen


def input_env(ep: Any, inputs: Sequence[torch.Tensor]) -> dict[str, int]:
    """The input symbols bound by the sizes of ``inputs`` (named as the analysis names them:
    the user's ``Dim`` names where the program keeps them)."""
    from symshape.frontends.fx.names import dim_names

    names = dim_names(ep)
    env: dict[str, int] = {}
    user = [n for n in ep.graph.nodes if n.op == "placeholder" and n.name in ep.graph_signature.user_inputs]
    for node, tensor in zip(user, inputs, strict=True):
        for d, size in zip(node.meta["val"].shape, tensor.shape, strict=True):
            if not isinstance(d, int) and d.node.expr.is_symbol:
                env[names.get(str(d.node.expr), str(d.node.expr))] = int(size)
    return env


def check_exported(analysis: Analysis, ep: Any, samples: Sequence[Mapping[str, int]]) -> Report:
    """Run every sample and compare every node's dims and tracked elements with ``analysis``."""
    report = Report(analysis)
    for sample in samples:
        inputs = make_inputs(ep, sample)
        arrays = run_nodes(ep, inputs)
        env = input_env(ep, inputs)
        shapes = {n: tuple(int(x) for x in a.shape) for n, a in arrays.items()}
        _bind_data_symbols(analysis, shapes, env)
        for name, arr in arrays.items():
            if analysis.shape_or_none(name) is not None or name in analysis.program.values:
                check_value(report, name, arr, env, set(sample))
        _check_facts(report, env)
        report.runs.append(Observed(env, shapes))
    return report
