"""Optional values and SequenceMap.

An optional value has no tensor shape of its own: what is known of its element (a tensor's dims
and elements, or a sequence's entry in the sequence ops' table) lives in a side table keyed by
the value, so OptionalGetElement hands it back. SequenceMap keeps the length of its input
sequence; its elements' shapes are the body's, left unknown.
https://onnx.ai/onnx/operators/onnx__Optional.html
"""

from __future__ import annotations

from symshape.algebra.expr import Dim
from symshape.engine.context import GiveUp, OpContext
from symshape.rules.onnx.sequences import SeqInfo
from symshape.rules.registry import ONNX, register

Tensor = tuple[tuple[Dim, ...], tuple[Dim, ...] | None]


def _optionals(ctx: OpContext) -> dict[str, Tensor | SeqInfo | None]:
    """Optional values of this walk: the element's tensor or sequence, None when empty."""
    return ctx.table("optionals", dict[str, Tensor | SeqInfo | None])


def _sequences(ctx: OpContext) -> dict[str, SeqInfo]:
    return ctx.table("sequences", dict[str, SeqInfo])


@register(ONNX, "Optional")
def optional(ctx: OpContext) -> None:
    """An optional holding input 0 (a tensor or a sequence), or an empty one.

    https://onnx.ai/onnx/operators/onnx__Optional.html
    """
    out = ctx.op.outputs[0] if ctx.num_outputs else ""
    if not out:
        return
    table = _optionals(ctx)
    table.pop(out, None)
    if not ctx.has_input(0):
        table[out] = None
        return
    seq = _sequences(ctx).get(ctx.input_name(0))
    table[out] = seq if seq is not None else (ctx.shape(0), ctx.elements(0))


@register(ONNX, "OptionalGetElement")
def optional_get_element(ctx: OpContext) -> None:
    """The element of an optional (a plain tensor or sequence passes through).

    https://onnx.ai/onnx/operators/onnx__OptionalGetElement.html
    """
    name = ctx.input_name(0)
    held = _optionals(ctx).get(name)
    seq = held if isinstance(held, SeqInfo) else _sequences(ctx).get(name)
    if seq is not None:
        if ctx.num_outputs and ctx.op.outputs[0]:
            _sequences(ctx)[ctx.op.outputs[0]] = seq
        return
    if held is not None and not isinstance(held, SeqInfo):
        ctx.set_output(0, held[0], held[1])
        return
    if name in _optionals(ctx):
        raise GiveUp("the optional input is empty")
    ctx.set_output(0, ctx.shape(0), ctx.elements(0))


@register(ONNX, "OptionalHasElement")
def optional_has_element(ctx: OpContext) -> None:
    """A boolean scalar: 1 when the optional is known to hold an element, 0 when known empty.

    https://onnx.ai/onnx/operators/onnx__OptionalHasElement.html
    """
    table = _optionals(ctx)
    name = ctx.op.inputs[0] if ctx.has_input(0) else ""
    known: int | None = None
    if not name:
        known = 0
    elif name in table:
        known = 0 if table[name] is None else 1
    ctx.set_output(0, (), None if known is None else (known,))


@register(ONNX, "SequenceMap")
def sequence_map(ctx: OpContext) -> None:
    """Each output sequence is as long as the input sequence.

    https://onnx.ai/onnx/operators/onnx__SequenceMap.html
    """
    seq = _sequences(ctx).get(ctx.input_name(0))
    if seq is None:
        raise GiveUp("nothing is known about the input sequence", unknown_input=0)
    for out in ctx.op.outputs:
        if out:
            _sequences(ctx)[out] = SeqInfo(seq.length)
