"""torch-mlir's ``torch.aten.*`` / ``torch.prim.*`` ops through the torch.export translators.

torch-mlir prints an aten op as ``torch.aten.<name>[.<overload>]`` with every schema argument as
an operand, in the schema's order; FX's key is ``aten.<name>.<overload>`` (``default`` when
there is none). A few ops torch-mlir names otherwise are their FX twins: ``aten.size.int`` is
``sym_size``, integer ``aten.mul.int`` is Python's ``*`` on SymInts, ``broadcast_to`` is
``expand``. The keyword-only ``alpha`` of ``add``/``sub``/``rsub`` is passed by keyword, as FX
does. An op with no translator keeps its name, typed from its declared result types.
"""

from __future__ import annotations

from typing import Any

from symshape.frontends.fx import aten_math, aten_nn, aten_tensor
from symshape.frontends.fx.call import TRANSLATORS, Call
from symshape.frontends.fx.emit import Emitter
from symshape.frontends.fx.mlir_node import MlirNode
from symshape.frontends.fx.reader import SKIPPED, untranslated_call

__all__ = ["aten_key", "translate"]
_ = (aten_math, aten_nn, aten_tensor)  # their translators register on import

_ALIASES = {
    "aten.size.int": "aten.sym_size.int",
    "aten.numel.default": "aten.sym_numel.default",
    "aten.broadcast_to.default": "aten.expand.default",
    "aten.Int.Tensor": "aten.item.default",
    "aten.Float.Tensor": "aten.item.default",
    "aten.ScalarImplicit.default": "aten.item.default",
    "aten.mul.int": "operator.mul",
    "aten.add.int": "operator.add",
    "aten.sub.int": "operator.sub",
    "aten.floordiv.int": "operator.floordiv",
    "aten.remainder.int": "operator.mod",
    "aten.neg.int": "operator.neg",
    "aten.eq.int": "operator.eq",
    "aten.ge.int": "operator.ge",
    "aten.gt.int": "operator.gt",
    "aten.le.int": "operator.le",
    "aten.lt.int": "operator.lt",
    "prim.max.int": "torch.sym_max",
    "prim.min.int": "torch.sym_min",
}
_ALPHA = ("aten.add.", "aten.sub.", "aten.rsub.", "aten.add_.", "aten.sub_.")


def aten_key(op_name: str) -> str | None:
    """The FX key of a torch dialect op (``torch.aten.view`` -> ``aten.view.default``), or None
    for an op that is not an aten or prim op."""
    if not op_name.startswith(("torch.aten.", "torch.prim.")):
        return None
    key = op_name.removeprefix("torch.")
    if key.count(".") == 1:
        key = f"{key}.default"
    return _ALIASES.get(key, key)


def translate(em: Emitter, key: str, node: MlirNode, args: list[Any]) -> tuple[Any, bool]:
    """The value(s) the op stands for, and whether a translator (not the fallback) made them.

    ``node.args`` are the operands as nodes (for the translators that read their metas); ``args``
    are the same operands resolved: value names, numbers, lists, None."""
    kwargs: dict[str, Any] = {}
    if key.startswith(_ALPHA) and len(args) == 3:
        kwargs["alpha"] = args.pop()
        node.args = node.args[:2]
    if key in SKIPPED:
        return None, True
    call = Call(em, node, args, kwargs, key)
    translator = TRANSLATORS.get(key)
    if translator is not None:
        return translator(call), True
    return untranslated_call(call), False
