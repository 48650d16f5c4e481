# pyright: strict
"""xDSL ops built in bulk for the bindings rebuild (`symshape.tools.mlir_passes.from_bindings`).

``Operation.create`` goes through the generic ``Operation.__init__``: property setters that
detach uses it never had, a region loop, dict copies, and ``IRDLOperation.__post_init__``
reading the op's definition for its defaults; ``Block.add_op`` checks ancestry per op. That was
most of the 55 µs an op the rebuild of a 100k-op module took. `OpMaker` writes the same fields
(in the same order) once per op, with the definition's defaults read once per class, and
`append_ops` links a block's ops in one pass. Both rely on the internals of the pinned xDSL;
``tests/tools/mlir_passes/test_xdsl_build.py`` compares every field with xDSL's own ``create``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from xdsl.dialects.builtin import UNKNOWN_LOC
from xdsl.ir import Attribute, Block, Operation, OpResult, Region, SSAValue, SSAValues, Use
from xdsl.irdl import IRDLOperation, OptionalDef

__all__ = ["OpMaker", "append_ops", "make_op"]

Attrs = dict[str, Attribute]
Defaults = tuple[tuple[str, Attribute], ...]

_PLAIN_POST_INITS = (Operation.__post_init__, IRDLOperation.__post_init__)
_Op = TypeVar("_Op", bound=Operation)


def _defaults(cls: type[Operation]) -> tuple[Defaults, Defaults] | None:
    """The (properties, attributes) defaults ``IRDLOperation.__post_init__`` fills in for
    ``cls``, or None when ``cls`` constructs its ops its own way (``create``, ``__new__`` or
    ``__post_init__`` of its own: an unregistered op adds its name, for one)."""
    if cls.create.__func__ is not Operation.create.__func__ or cls.__new__ is not object.__new__:  # pyright: ignore[reportFunctionMemberAccess]
        return None
    if cls.__post_init__ not in _PLAIN_POST_INITS:
        return None
    if not issubclass(cls, IRDLOperation):
        return (), ()
    op_def = cls.get_irdl_definition()
    props = tuple((n, d.default_value) for n, d in op_def.properties.items()
                  if not isinstance(d, OptionalDef) and d.default_value is not None)
    attrs = tuple((n, d.default_value) for n, d in op_def.attributes.items()
                  if not isinstance(d, OptionalDef) and d.default_value is not None)
    return props, attrs


class OpMaker:
    """Makes ops of one class as its ``create`` does; the dicts given become the op's own."""

    def __init__(self, cls: type[Operation]) -> None:
        self.cls = cls
        self.defaults = _defaults(cls)

    def __call__(self, operands: Sequence[SSAValue], result_types: Sequence[Attribute], properties: Attrs,
                 attributes: Attrs, successors: Sequence[Block], regions: Sequence[Region]) -> Operation:
        defaults = self.defaults
        if defaults is None:
            return self.cls.create(operands=operands, result_types=result_types, properties=properties,
                                   attributes=attributes, successors=successors, regions=regions)
        op = object.__new__(self.cls)
        uses = tuple([_use(value, op, i) for i, value in enumerate(operands)])
        results = SSAValues([OpResult(t, op, i) for i, t in enumerate(result_types)])
        fields = vars(op)
        fields.update(_operands=SSAValues(operands), _operand_uses=uses, results=results, properties=properties,
                      attributes=attributes, location=UNKNOWN_LOC)
        if successors:
            op.successors = successors
        else:
            fields.update(_successors=(), _successor_uses=())
        op.regions = ()
        for region in regions:
            op.add_region(region)
        for name, value in defaults[0]:
            properties.setdefault(name, value)
        for name, value in defaults[1]:
            attributes.setdefault(name, value)
        return op


def _use(value: SSAValue, op: Operation, index: int) -> Use:
    """Operand ``index`` of ``op`` as a use of ``value``, first in its list (``add_use``)."""
    first = value.first_use
    use = Use(op, index, None, first)
    if first is not None:
        first._prev_use = use  # pyright: ignore[reportPrivateUsage]
    value.first_use = use
    return use


def append_ops(block: Block, ops: Sequence[Operation]) -> None:
    """``block.add_ops(ops)`` for an empty block and new ops without a parent, in one pass
    (the fields ``add_op`` writes, the first op's links left at their class defaults as it does)."""
    if not ops:
        return
    first = ops[0]
    vars(first)["parent"] = block
    prev = first
    for op in ops[1:]:
        vars(op).update(parent=block, _prev_op=prev, _next_op=None)
        vars(prev)["_next_op"] = op
        prev = op
    vars(block).update(_first_op=first, _last_op=prev)


_MAKERS: dict[type[Operation], OpMaker] = {}


def make_op(cls: type[_Op], operands: Sequence[SSAValue], result_types: Sequence[Attribute],
            properties: Attrs | None = None) -> _Op:
    """``cls.create(operands=..., result_types=..., properties=...)`` through one `OpMaker` per
    class, for the rewrites that add ops by the thousand (``properties`` becomes the op's own).
    The operands are flat: an op with several variadic groups needs its segment sizes given."""
    maker = _MAKERS.get(cls)
    if maker is None:
        maker = _MAKERS[cls] = OpMaker(cls)
    op = maker(operands, result_types, {} if properties is None else properties, {}, (), ())
    assert isinstance(op, cls)
    return op
