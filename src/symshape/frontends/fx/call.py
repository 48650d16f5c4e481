"""One FX node being translated: its resolved arguments, its meta, and how to emit its ops.

Translators (`symshape.frontends.fx.aten_tensor`, `aten_math`, `aten_nn`) are registered per aten target
with `translates`; each reads a `Call` and returns the value name(s) the node stands for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from symshape.frontends.fx.emit import ATEN, Emitter

Translator = Callable[["Call"], "str | list[str]"]
TRANSLATORS: dict[str, Translator] = {}


def translates(*targets: str) -> Callable[[Translator], Translator]:
    """Register the decorated translator for the aten targets (``aten.view.default``) or Python
    operators on SymInts (``operator.add``)."""

    def wrap(fn: Translator) -> Translator:
        for t in targets:
            TRANSLATORS[t] = fn
        return fn

    return wrap


def torch_dtype_name(dtype: Any) -> str:
    """numpy-style name of a torch dtype (``torch.float32`` -> ``float32``)."""
    return str(dtype).removeprefix("torch.")


def as_list(value: Any) -> list[Any]:
    """A list or tuple argument as a list; anything else as a one-element list."""
    if isinstance(value, (list, tuple)):
        return list(cast("Sequence[Any]", value))
    return [value]


def value_dtype(val: Any) -> str:
    """The element type of a meta value: a tensor's dtype; SymInt int64, SymBool bool."""
    if hasattr(val, "dtype"):
        return torch_dtype_name(val.dtype)
    kind = type(val).__name__
    return {"SymBool": "bool", "bool": "bool", "SymFloat": "float64", "float": "float64"}.get(kind, "int64")


@dataclass
class Call:
    """A call_function node with its arguments resolved: a Node argument is the name of the value
    it became (a list for a node with several outputs); numbers and lists stay as they are."""

    em: Emitter
    node: Any  # torch.fx.Node
    args: list[Any]
    kwargs: dict[str, Any]
    key: str  # the target's registry key

    @property
    def name(self) -> str:
        return str(self.node.name)

    def arg(self, i: int, key: str, default: Any = None) -> Any:
        """Argument ``i`` given positionally or as ``key``."""
        if i < len(self.args):
            return self.args[i]
        return self.kwargs.get(key, default)

    def meta(self, i: int | None = None) -> Any:
        """The meta ``val`` of the node (``i`` None) or of its argument ``i``."""
        node = self.node if i is None else self.node.args[i]
        return getattr(node, "meta", {}).get("val")

    def rank(self, i: int) -> int:
        """The rank of tensor argument ``i`` (static in an exported program)."""
        return len(self.meta(i).shape)

    def dtype(self, i: int | None = None) -> str:
        """The element type of the node's output (or of argument ``i``); a SymInt is int64."""
        val = self.meta(i)
        if isinstance(val, (list, tuple)):
            val = next((v for v in as_list(val) if hasattr(v, "dtype")), None)
        return value_dtype(val)

    def emit(self, op_type: str, inputs: Sequence[str], attrs: dict[str, Any] | None = None) -> str:
        """The op that makes the node's own value."""
        return self._typed(self.em.op(op_type, inputs, attrs, base=self.name, outputs=[self.name]))[0]

    def tmp(self, op_type: str, inputs: Sequence[str], attrs: dict[str, Any] | None = None) -> str:
        """An intermediate op on the way to the node's value (of the node's element type)."""
        return self._typed(self.em.op(op_type, inputs, attrs, base=f"{self.name}.{op_type.lower()}"))[0]

    def _typed(self, names: list[str]) -> list[str]:
        for name in names:
            self.em.declare(name, self.dtype(), None)
        return names

    def aten(self, inputs: Sequence[str], attrs: dict[str, Any] | None = None, outputs: int = 1,
             op_type: str | None = None) -> list[str]:
        """The node kept as an aten op (its rule is in `symshape.rules.aten`), by its own name
        unless ``op_type`` names a form of it."""
        outs = [self.name] if outputs == 1 else [f"{self.name}.{k}" for k in range(outputs)]
        op_type = op_type or self.key.removeprefix("aten.")
        return self._typed(self.em.op(op_type, inputs, attrs, base=self.name, outputs=outs, dialect=ATEN))

    def declare_from_meta(self, names: Sequence[str]) -> None:
        """Type ``names`` (the node's outputs, in order) from its meta: dtype and static dims (what
        the fallback of an op without a rule, or an output its rule leaves, uses)."""
        for name, val in zip(names, as_list(self.meta()), strict=False):
            if hasattr(val, "shape"):
                dims = [d if isinstance(d, int) else None for d in val.shape]
                self.em.declare(name, value_dtype(val), dims)
            else:
                self.em.declare(name, value_dtype(val), ())

    def int_list(self, i: int, key: str) -> list[Any]:
        """Argument ``i`` as a list (a single int becomes a one-element list)."""
        v = self.arg(i, key)
        return [] if v is None else as_list(v)
