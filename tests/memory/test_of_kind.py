"""`OfKind` answers as ``isinstance`` does (xDSL's ABCs, subclasses made at run time, several
classes, objects of unrelated types), asking ``issubclass`` once per type."""

from __future__ import annotations

from typing import Any

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import ArrayAttr, IndexType, IntegerAttr, StringAttr, UnregisteredOp
from xdsl.ir import Attribute, Operation, OpResult

from symshape.memory import OfKind

_RESULTING = UnregisteredOp.with_name("foo.baz").create(result_types=[IndexType()])
_CASES: list[object] = [
    arith.ConstantOp(IntegerAttr(1, IndexType())),
    UnregisteredOp.with_name("foo.bar").create(),
    _RESULTING,
    _RESULTING.results[0],
    ArrayAttr([StringAttr("a")]),
    StringAttr("a"),
    IndexType(),
    3,
    None,
]


def test_answers_as_isinstance() -> None:
    classes: list[tuple[type[Any], ...]] = [(UnregisteredOp,), (Operation,), (tensor.DimOp, arith.ConstantOp),
                                            (ArrayAttr,), (Attribute,), (OpResult,), (int, StringAttr)]
    for kinds in classes:
        of_kind = OfKind(*kinds)
        for _ in range(2):  # the second round answers from what the first learned
            assert [of_kind(x) for x in _CASES] == [isinstance(x, kinds) for x in _CASES], kinds
    assert sum(OfKind(UnregisteredOp)(x) for x in _CASES) == 2  # the oracle itself is not all False


def test_asks_once_per_type() -> None:
    asked: list[type] = []

    class Counting(type):
        def __subclasscheck__(cls, sub: type) -> bool:
            asked.append(sub)
            return type.__subclasscheck__(cls, sub)

    class Base(metaclass=Counting):
        pass

    class Child(Base):
        pass

    of_kind = OfKind(Base)
    assert [of_kind(Child()), of_kind(Child()), of_kind(1), of_kind(2)] == [True, True, False, False]
    assert asked == [Child, int]
