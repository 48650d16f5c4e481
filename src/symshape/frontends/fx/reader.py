"""A ``torch.export.ExportedProgram`` as a `Program`, with torch's own dims kept aside.

The user inputs are the program's inputs, their dims named by torch's symbols (``s0``, or the
names of the exported program's shape env); parameters, buffers and constants are initializers
(small integer ones with their contents). Each call_function node becomes the ops its translator
emits (`symshape.frontends.fx.call`); a node without a translator keeps its aten name, and its output types
come from the node's meta (static dims only), the fallback of an op without a rule.
``range_constraints`` become ranges of the input symbols: the exported program refuses inputs
outside them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from symshape.engine.program import MAX_TRACKED, Program
from symshape.engine.userfacts import Fact, Range
from symshape.frontends.fx import aten_math, aten_nn, aten_tensor
from symshape.frontends.fx.call import TRANSLATORS, Call, as_list, torch_dtype_name
from symshape.frontends.fx.emit import Emitter
from symshape.frontends.fx.names import dim_names, renamed

__all__ = ["SKIPPED", "TorchProgram", "exported_to_program", "target_key", "untranslated_call"]
_ = (aten_math, aten_nn, aten_tensor)  # their translators register on import

SKIPPED = {"aten._assert_tensor_metadata.default", "aten._assert_scalar.default", "aten.sym_constrain_range.default",
            "aten.sym_constrain_range_for_size.default", "aten._assert_async.msg", "aten._assert_async.default",
            "aten.detach_.default", "aten.copy_.default"}  # in-place detach_/copy_: the node is its first input


@dataclass
class TorchProgram:
    """The translated program, torch's dims for every node's tensors, and the ranges torch
    recorded for its symbols."""

    program: Program
    torch_dims: dict[str, tuple[Any, ...]] = field(default_factory=dict[str, tuple[Any, ...]])
    facts: list[Fact] = field(default_factory=list[Fact])
    names: dict[str, str] = field(default_factory=dict[str, str])  # torch symbol -> the user's Dim name
    untranslated: dict[str, int] = field(default_factory=dict[str, int])


def target_key(target: Any) -> str:
    """``aten.view.default`` for an op overload, ``operator.add`` for a Python operator."""
    if hasattr(target, "_schema") or type(target).__name__ == "OpOverload":
        return str(target)
    module = getattr(target, "__module__", None) or ""
    name = getattr(target, "__name__", str(target))
    return f"{'operator' if module in ('_operator', 'operator') else module}.{name}"


def dim_text(d: Any, names: dict[str, str] | None = None) -> int | str:
    """A torch dim: an int, or the text of its sympy expression (never a SymInt's hint), with
    the symbols ``names`` renames."""
    if isinstance(d, int):
        return d
    expr = getattr(getattr(d, "node", None), "expr", d)
    return int(expr) if getattr(expr, "is_number", False) else renamed(str(expr), names or {})


def exported_to_program(ep: Any, name: str = "main") -> TorchProgram:
    """Translate ``ep`` (see the module doc)."""
    em = Emitter(name)
    out = TorchProgram(em.program, names=dim_names(ep))
    env: dict[str, Any] = {}
    sig = ep.graph_signature
    user_inputs = set(sig.user_inputs)
    lifted = {**sig.inputs_to_parameters, **sig.inputs_to_buffers, **sig.inputs_to_lifted_tensor_constants}
    for node in ep.graph.nodes:
        if node.op == "placeholder":
            env[node.name] = _placeholder(em, ep, node, node.name in user_inputs, lifted.get(node.name), out)
        elif node.op == "call_function":
            env[node.name] = _call(em, node, env, out)
            _record_torch_dims(out, node, env[node.name])
        elif node.op == "output":
            results = node.args[0] if isinstance(node.args[0], (list, tuple)) else [node.args[0]]
            user = set(sig.user_outputs)
            em.program.outputs = [env[r.name] for r in results if hasattr(r, "name") and r.name in user
                                  and isinstance(env.get(r.name), str)]
    out.facts = _range_facts(ep, out.names)
    return out


def _placeholder(em: Emitter, ep: Any, node: Any, user: bool, target: str | None, out: TorchProgram) -> Any:
    val = node.meta.get("val")
    if not hasattr(val, "shape"):
        if user:  # a SymInt or number input: a 0-d int64 input
            em.declare(node.name, "int64", ())
            em.program.inputs.append(node.name)
            return node.name
        return val
    dims = [dim_text(d, out.names) for d in val.shape]
    em.declare(node.name, torch_dtype_name(val.dtype), dims)
    out.torch_dims[node.name] = tuple(val.shape)
    if user:
        em.program.inputs.append(node.name)
        return node.name
    value = em.program.values[node.name]
    value.is_initializer = True
    tensor = _lifted_tensor(ep, target)
    if tensor is not None and not tensor.is_floating_point() and 0 < tensor.numel() <= MAX_TRACKED:
        value.const = tuple(int(v) for v in tensor.reshape(-1).tolist())
    return node.name


def _lifted_tensor(ep: Any, target: str | None) -> Any:
    if target is None:
        return None
    return ep.state_dict.get(target, ep.constants.get(target))


def _resolve(arg: Any, env: dict[str, Any]) -> Any:
    if hasattr(arg, "op") and hasattr(arg, "name"):  # an fx Node
        return env.get(arg.name)
    if isinstance(arg, (list, tuple)):
        return [_resolve(a, env) for a in as_list(arg)]
    return arg


def _call(em: Emitter, node: Any, env: dict[str, Any], out: TorchProgram) -> Any:
    key = target_key(node.target)
    if key in SKIPPED:
        return _resolve(node.args[0], env) if key in ("aten.detach_.default", "aten.copy_.default") else None
    args = [_resolve(a, env) for a in node.args]
    kwargs = {k: _resolve(v, env) for k, v in node.kwargs.items()}
    translate = TRANSLATORS.get(key)
    call = Call(em, node, args, kwargs, key)
    if translate is not None:
        return translate(call)
    out.untranslated[key] = out.untranslated.get(key, 0) + 1
    return untranslated_call(call)


def untranslated_call(call: Call) -> Any:
    """An op without a translator: kept by name, typed from its meta where static."""
    vals = call.meta()
    many = isinstance(vals, (list, tuple))
    inputs = [a for a in call.args if isinstance(a, str)]
    outs = call.aten(inputs, outputs=len(as_list(vals)) if many else 1)
    call.declare_from_meta(outs)
    return outs if many else outs[0]


def _record_torch_dims(out: TorchProgram, node: Any, value: Any) -> None:
    val = node.meta.get("val")
    if hasattr(val, "shape") and isinstance(value, str):
        out.torch_dims[value] = tuple(val.shape)
    elif isinstance(val, (list, tuple)) and isinstance(value, list):
        for v, name in zip(as_list(val), as_list(value), strict=False):
            if hasattr(v, "shape") and isinstance(name, str):
                out.torch_dims[name] = tuple(v.shape)


def _range_facts(ep: Any, names: dict[str, str]) -> list[Fact]:
    facts: list[Fact] = []
    for sym, vr in ep.range_constraints.items():
        lo, hi = _bound(vr.lower), _bound(vr.upper)
        if lo is not None or hi is not None:
            facts.append(Range(names.get(str(sym), str(sym)), lo, hi))
    return facts


def _bound(b: Any) -> int | None:
    if not getattr(b, "is_integer", False) and not isinstance(b, int):
        return None  # torch's int_oo and -int_oo
    try:
        v = int(b)
    except (TypeError, ValueError, OverflowError, AttributeError):
        return None
    return v if abs(v) < 2**62 else None
