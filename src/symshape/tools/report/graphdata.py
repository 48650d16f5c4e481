"""The program's dataflow graph as plain data for the page: values by index, ops by index."""

from __future__ import annotations

from typing import Any

from symshape.engine.program import Program


def graph_data(program: Program) -> dict[str, Any]:
    """``values``: value names (initializers left out: weights only add static nodes);
    ``ops``: ``[op_type, name, input indices, output indices]`` in execution order;
    ``inputs``: indices of the program's inputs."""
    index: dict[str, int] = {}

    def idx(name: str) -> int | None:
        if not name:
            return None
        value = program.values.get(name)
        if value is not None and value.is_initializer:
            return None
        if name not in index:
            index[name] = len(index)
        return index[name]

    for name in program.inputs:
        idx(name)
    ops: list[list[Any]] = []
    for op in program.ops:
        ins = [i for i in map(idx, op.inputs) if i is not None]
        outs = [i for i in map(idx, op.outputs) if i is not None]
        ops.append([op.op_type, op.name, ins, outs])
    return {
        "values": list(index),
        "ops": ops,
        "inputs": [index[n] for n in program.inputs],
        "outputs": [index[n] for n in program.outputs if n in index],
    }
