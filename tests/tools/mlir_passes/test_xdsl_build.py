"""`symshape.tools.mlir_passes.xdsl_build` against xDSL itself: ops made by `OpMaker` and linked
by `append_ops` are, field by field (the instance dictionaries, in order, and every link between
ops, values, uses, blocks and regions), the ops ``create`` makes and ``Block.add_ops`` links. The
pinned xDSL's internals are what the fast path writes; this is where a new xDSL would show.
The same holds for the ops the for-iree rewrites make by `make_op`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, ModuleOp, StringAttr, TensorType, f32, i32
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue, Use

from symshape.ir.parse import make_context
from symshape.tools.mlir_passes.iree_forms import collapse_shape, dim_op, expand_shape, reassociation
from symshape.tools.mlir_passes.xdsl_build import OpMaker, append_ops

Make = Callable[[type[Operation], Sequence[SSAValue], Sequence[Attribute], dict[str, Attribute],
                 dict[str, Attribute], Sequence[Block], Sequence[Region]], Operation]


def _by_create(cls: type[Operation], operands: Sequence[SSAValue], types: Sequence[Attribute],
               props: dict[str, Attribute], attrs: dict[str, Attribute], successors: Sequence[Block],
               regions: Sequence[Region]) -> Operation:
    return cls.create(operands=operands, result_types=types, properties=props, attributes=attrs,
                      successors=successors, regions=regions)


def _by_maker(cls: type[Operation], operands: Sequence[SSAValue], types: Sequence[Attribute],
              props: dict[str, Attribute], attrs: dict[str, Attribute], successors: Sequence[Block],
              regions: Sequence[Region]) -> Operation:
    return OpMaker(cls)(operands, types, props, attrs, successors, regions)


def _add_ops(block: Block, ops: list[Operation]) -> None:
    block.add_ops(ops)


def _module(make: Make, link: Callable[[Block, list[Operation]], None]) -> ModuleOp:
    """A function of two blocks: an op with a property default (``arith.addi``), an HLO op, an
    unregistered op (its own ``create``), a value used twice by one op and by later ops, a branch
    (a successor), and a region inside an op."""
    ctx = make_context()
    op = ctx.get_op
    entry = Block(arg_types=[i32, i32])
    exit_block = Block(arg_types=[i32])
    x, y = entry.args
    add = make(op("arith.addi"), [x, x], [i32], {}, {}, [], [])
    hlo = make(op("stablehlo.add"), [add.results[0], y], [i32], {}, {"k": IntegerAttr(1, i32)}, [], [])
    foreign = make(op("foo.bar"), [x, hlo.results[0], x], [i32, i32], {}, {"s": StringAttr("t")}, [], [])
    inner = Block(arg_types=[i32])
    link(inner, [make(op("stablehlo.return"), [inner.args[0]], [], {}, {}, [], [])])
    nested = make(op("foo.region"), [foreign.results[1]], [i32], {}, {}, [], [Region(inner)])
    branch = make(op("cf.br"), [nested.results[0]], [], {}, {}, [exit_block], [])
    link(entry, [add, hlo, foreign, nested, branch])
    link(exit_block, [make(op("func.return"), [exit_block.args[0]], [], {}, {}, [], [])])
    return ModuleOp([make(op("foo.func"), [], [], {}, {}, [], [Region([entry, exit_block])])])


_IR = (Operation, Block, Region, SSAValue, Use)


def _same(a: Any, b: Any, seen: dict[int, int]) -> None:
    """``a`` and ``b`` alike in every field, with the same identities among their IR objects."""
    assert type(a) is type(b) or (isinstance(a, Operation) and a.name == b.name), (a, b)
    if isinstance(a, _IR):
        if id(a) in seen:
            assert seen[id(a)] == id(b), f"{a!r} is linked to another object"
            return
        seen[id(a)] = id(b)
        fields_a, fields_b = vars(a), vars(b)
        assert list(fields_a) == list(fields_b), (type(a), list(fields_a), list(fields_b))
        for key in fields_a:
            _same(fields_a[key], fields_b[key], seen)
    elif isinstance(a, tuple | list):
        assert len(a) == len(b)
        for p, q in zip(a, b, strict=True):
            _same(p, q, seen)
    elif isinstance(a, dict):
        assert list(a) == list(b)  # pyright: ignore[reportUnknownArgumentType]
        for key in a:  # pyright: ignore[reportUnknownVariableType]
            _same(a[key], b[key], seen)
    else:
        assert a == b, (a, b)


def test_made_ops_are_created_ops_field_by_field() -> None:
    expected, made = _module(_by_create, _add_ops), _module(_by_maker, append_ops)
    _same(expected, made, {})
    assert str(expected) == str(made)


def test_the_comparison_sees_a_missing_use() -> None:
    expected, made = _module(_by_create, _add_ops), _module(_by_maker, append_ops)
    arg = next(o for o in made.walk() if o.name == "arith.addi").operands[0]
    arg.first_use = None
    with pytest.raises(AssertionError):
        _same(expected, made, {})


def test_an_unregistered_op_is_made_by_its_own_create() -> None:
    cls = make_context().get_op("foo.bar")
    made = OpMaker(cls)([], [i32], {}, {}, [], [])
    assert made.attributes["op_name__"] == StringAttr("foo.bar")


def _rewrite_ops(dim: Callable[..., Operation], collapse: Callable[..., Operation],
                 expand: Callable[..., Operation]) -> ModuleOp:
    """The ops a for-iree dense-layer rewrite adds, made by ``dim``, ``collapse`` and ``expand``,
    in a block of their own; the operands come from the block's arguments."""
    x3, x2 = TensorType(f32, [DYNAMIC_INDEX, DYNAMIC_INDEX, 8]), TensorType(f32, [DYNAMIC_INDEX, 8])
    block = Block(arg_types=[x3, IndexType(), IndexType()])
    x, pos, size = block.args
    first = dim(x, pos)
    flat = collapse(x, [[0, 1], [2]], x2)
    back = expand(flat.results[0], [first.results[0], size], [[0, 1], [2]], x3)
    block.add_ops([first, flat, back])
    return ModuleOp(Region(block))


def test_rewrite_builders_make_what_the_checked_constructors_make() -> None:
    """`iree_forms`' ``dim_op``, ``collapse_shape`` and ``expand_shape`` (`make_op`) against
    xDSL's own constructors of the same ops."""
    checked = _rewrite_ops(
        lambda v, p: tensor.DimOp(v, p),
        lambda s, g, t: tensor.CollapseShapeOp(operands=[s], result_types=[t],
                                               properties={"reassociation": reassociation(g)}),
        lambda s, sizes, g, t: tensor.ExpandShapeOp(s, sizes, reassociation(g), t.get_shape(), t),
    )
    made = _rewrite_ops(dim_op, collapse_shape, expand_shape)
    _same(checked, made, {})
    assert str(checked) == str(made)
    checked.verify()
    made.verify()
