"""The per-object caches of the xDSL reader (`symshape.frontends.mlir.xdsl_ir`): each attribute
converted once (`AttrViews`, keyed by the object's id) and each registered op class's name kept.
A cache keyed wrongly would give an op another op's attributes or name."""

from __future__ import annotations

from xdsl.dialects import test as xdsl_test
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, IntegerAttr, StringAttr, UnregisteredOp, i64

from symshape.frontends.mlir.attributes import AttrViews, py_attr
from symshape.frontends.mlir.xdsl_ir import XdslIR


def test_an_attribute_is_converted_once_and_its_lists_copied_out():
    views = AttrViews()
    attr = ArrayAttr([DenseArrayBase.from_list(i64, [1, 2]), IntegerAttr(3, i64)])
    first = views.view(attr)
    assert first == [[1, 2], 3] == py_attr(attr)
    first[0].append(9)  # a rule that changed its op's list changes no other op's
    again = views.view(attr)
    assert again == [[1, 2], 3]
    assert again is not first and again[0] is not first[0]


def test_op_attrs_views_each_op_through_the_cache():
    views = AttrViews()
    shared = DenseArrayBase.from_list(i64, [0, 1])
    a = xdsl_test.TestOp.create(attributes={"dims": shared, "name": StringAttr("a")})
    b = xdsl_test.TestOp.create(attributes={"dims": shared, "name": StringAttr("b")})
    assert views.op_attrs(a) == {"dims": [0, 1], "name": "a"}
    assert views.op_attrs(b) == {"dims": [0, 1], "name": "b"}
    assert views.op_attrs(a)["dims"] is not views.op_attrs(b)["dims"]


def test_an_unregistered_op_is_named_by_its_own_attribute():
    ir = XdslIR(None)
    cls = UnregisteredOp.with_name("foo.bar")
    first, second = cls.create(), cls.create()
    second.attributes["op_name__"] = StringAttr("foo.baz")
    assert [ir.op_name(first), ir.op_name(second), ir.op_name(first)] == ["foo.bar", "foo.baz", "foo.bar"]
    assert ir.op_name(xdsl_test.TestOp.create()) == ir.op_name(xdsl_test.TestOp.create()) == "test.op"
