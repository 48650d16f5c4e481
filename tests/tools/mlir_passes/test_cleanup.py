"""The fast CSE and DCE of `symshape.tools.mlir_passes.cleanup` leave every module exactly as
xDSL's ``CommonSubexpressionElimination`` and ``region_dce`` leave it: for-iree's whole run on
every test input, and small modules built for the corners (nested and isolated regions,
multi-block regions, reads with a write in between, unregistered ops, dead chains)."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.dialects.cf import Cf
from xdsl.dialects.func import Func
from xdsl.dialects.test import Test
from xdsl.ir import Operation, Region
from xdsl.parser import Parser
from xdsl.pattern_rewriter import PatternRewriterListener
from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination
from xdsl.transforms.dead_code_elimination import region_dce

from symshape.tools.mlir_passes import cleanup
from symshape.tools.mlir_passes import materialize as m
from symshape.tools.mlir_passes.opt import parse_text, print_module, run_passes
from tests.paths import TESTS

INPUTS = sorted([*(TESTS / "mlir_inputs").glob("*.mlir"), *(TESTS / "filecheck").glob("*.mlir")])


def _xdsl_cse(module: ModuleOp, facts: cleanup.OpFacts | None = None) -> None:
    CommonSubexpressionElimination().apply(Context(), module)


def _xdsl_dce(facts: cleanup.OpFacts) -> object:
    return region_dce


def _run(path: Path) -> str:
    try:
        ctx, module = parse_text(path.read_text())
        run_passes(ctx, module, "for-iree")
    except Exception as err:  # noqa: BLE001 - both runs must fail alike
        return f"{type(err).__name__}: {err}"
    return print_module(module)


@pytest.mark.parametrize("path", INPUTS, ids=[f"{p.parent.name}/{p.stem}" for p in INPUTS])
def test_for_iree_as_with_xdsl_cleanup(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = _run(path)
    monkeypatch.setattr(m, "cse", _xdsl_cse)
    monkeypatch.setattr(m, "region_dce_with", _xdsl_dce)
    assert _run(path) == fast


CORNERS = """
"builtin.module"() ({
  "func.func"() <{sym_name = "f", function_type = (i32) -> ()}> ({
  ^bb0(%x: i32):
    %a = "test.pureop"(%x) : (i32) -> i32
    %b = "test.pureop"(%x) : (i32) -> i32
    "test.op"() ({
      %c = "test.pureop"(%x) : (i32) -> i32
      %d = "test.pureop"(%x) : (i32) -> i32
      %e = "test.pureop"(%a) : (i32) -> i32
      "test.op"(%c, %d, %e) : (i32, i32, i32) -> ()
      "test.termop"() : () -> ()
    }) : () -> ()
    "func.func"() <{sym_name = "g", function_type = (i32) -> ()}> ({
    ^bb1(%y: i32):
      %f = "test.pureop"(%y) : (i32) -> i32
      %g = "test.pureop"(%y) : (i32) -> i32
      "test.op"(%f, %g) : (i32, i32) -> ()
      "func.return"() : () -> ()
    }) : () -> ()
    "test.op"() ({
      %h = "test.pureop"(%x) : (i32) -> i32
      %i = "test.pureop"(%x) : (i32) -> i32
      "test.op"(%h, %i) : (i32, i32) -> ()
      "cf.br"() [^bb3] : () -> ()
    ^bb3:
      %j = "test.pureop"(%x) : (i32) -> i32
      "test.op"(%j) : (i32) -> ()
      "test.termop"() : () -> ()
    ^bb4:
      %k = "test.pureop"(%x) : (i32) -> i32
      "test.termop"() : () -> ()
    }) : () -> ()
    %r1 = "test.op_with_memread"() : () -> i32
    %r2 = "test.op_with_memread"() : () -> i32
    "test.op_with_memwrite"() : () -> ()
    %r3 = "test.op_with_memread"() : () -> i32
    %r4 = "test.op_with_memread"() : () -> i32
    %u1 = "my.unknown"(%x) : (i32) -> i32
    %u2 = "my.unknown"(%x) : (i32) -> i32
    %v1 = "my.unknown"(%x) : (i32) -> i32
    %p = "test.pureop"(%x) : (i32) -> i32
    %q = "test.pureop"(%p) : (i32) -> i32
    %s = "test.pureop"(%q) : (i32) -> i32
    %w = "test.pureop"(%r1) : (i32) -> i32
    "test.op"() ({
      %n = "test.pureop"(%x) : (i32) -> i32
      "test.termop"() : () -> ()
    }) : () -> ()
    "test.op"(%a, %b, %r1, %r2, %r3, %r4, %u1, %u2) : (i32, i32, i32, i32, i32, i32, i32, i32) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
"""


def _corners() -> ModuleOp:
    ctx = Context(allow_unregistered=True)
    for dialect in (Builtin, Func, Cf, Test):
        ctx.load_dialect(dialect)
    return Parser(ctx, CORNERS).parse_module()


def test_cse_corners() -> None:
    theirs, ours = _corners(), _corners()
    _xdsl_cse(theirs)
    cleanup.cse(ours)
    assert str(ours) == str(theirs)
    assert str(theirs) != str(_corners())


class Removals(PatternRewriterListener):
    """The ops a DCE reports removed, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.removed: list[str] = []
        self.operation_removal_handler.append(self._record)

    def _record(self, op: Operation) -> None:
        self.removed.append(str(op))


def _dce(module: ModuleOp, dce: object) -> tuple[str, list[str], bool]:
    assert callable(dce)
    listener = Removals()
    body: Region = module.body
    changed = bool(dce(body, listener))
    return str(module), listener.removed, changed


def test_dce_corners() -> None:
    theirs = _dce(_corners(), region_dce)
    assert _dce(_corners(), cleanup.region_dce_with(cleanup.OpFacts())) == theirs
    assert theirs[2] and theirs[1]
