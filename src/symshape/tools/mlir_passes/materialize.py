"""Stage one of shape-optimization: materialize and scalarize the shape computation (seed 000).

* ``shape.shape_of %t : tensor<..> -> tensor<Nxindex>`` becomes one ``tensor.dim`` per dynamic
  dim (constants for static ones) and a ``tensor.from_elements``;
* ``tensor.extract`` of a ``tensor.from_elements`` at a constant index is the element;
* ``tensor.dim`` of a static dim is a constant;
* a ``tensor.cast`` to its own type is its source, a cast of a cast is one cast;

then xDSL's canonicalization and CSE. Dims are reified through the analysis in stage two
(`symshape.tools.mlir_passes.optimize`), which knows every value's symbolic dims.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, ModuleOp, TensorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import ConstantLike, HasCanonicalizationPatternsTrait, HasFolder
from xdsl.transforms.canonicalize import CanonicalizationRewritePattern

from symshape.frontends.mlir.attributes import is_tensor
from symshape.memory import OfKind
from symshape.tools.mlir_passes.cleanup import OpFacts, cse, region_dce_with
from symshape.tools.mlir_passes.ir_utils import const_int, nested_ops, op_name


def index_constant(rewriter: PatternRewriter, point: InsertPoint, k: int) -> SSAValue:
    """Insert ``arith.constant k : index`` at ``point``."""
    return rewriter.insert(arith.ConstantOp(IntegerAttr(k, IndexType())), point).result


def dims_of(rewriter: PatternRewriter, value: SSAValue, before: Operation) -> list[SSAValue] | None:
    """One index value per dim of ranked tensor ``value``, inserted before ``before``."""
    t = value.type
    if not isinstance(t, TensorType):
        return None
    point = InsertPoint.before(before)
    out: list[SSAValue] = []
    for axis, size in enumerate(t.get_shape()):
        if size == DYNAMIC_INDEX:
            dim = tensor.DimOp(value, index_constant(rewriter, point, axis))
            rewriter.insert(dim, point)
            out.append(dim.result)
        else:
            out.append(index_constant(rewriter, point, size))
    return out


class ScalarizeShapeOf(RewritePattern):
    """``shape.shape_of %t -> tensor<Nxindex>`` -> ``tensor.from_elements`` of its dims."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op_name(op) != "shape.shape_of" or len(op.operands) != 1 or len(op.results) != 1:
            return
        rt = op.results[0].type
        if not is_tensor(rt) or not isinstance(rt.element_type, IndexType):
            return
        src = op.operands[0].type
        if not isinstance(src, TensorType) or rt.get_shape() != (src.get_num_dims(),):
            return
        dims = dims_of(rewriter, op.operands[0], op)
        if not dims:
            return
        rewriter.replace(op, tensor.FromElementsOp(*dims, result_type=rt))


class ExtractFromElements(RewritePattern):
    """``tensor.extract (tensor.from_elements %a, %b)[%c1]`` -> ``%b`` (1-D, constant index)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.ExtractOp, rewriter: PatternRewriter, /) -> None:
        source = op.tensor.owner
        if not isinstance(source, tensor.FromElementsOp) or len(op.indices) != 1:
            return
        k = const_int(op.indices[0])
        if k is None or not 0 <= k < len(source.elements):
            return
        element = source.elements[k]
        if element.type != op.result.type:
            return
        rewriter.replace(op, [], [element])


class StaticDim(RewritePattern):
    """``tensor.dim %t, %c`` of a static dim -> ``arith.constant``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.DimOp, rewriter: PatternRewriter, /) -> None:
        t = op.source.type
        k = const_int(op.index)
        if not isinstance(t, TensorType) or k is None or not 0 <= k < t.get_num_dims():
            return
        size = t.get_shape()[k]
        if size != DYNAMIC_INDEX:
            rewriter.replace(op, [], [index_constant(rewriter, InsertPoint.before(op), size)])


class FoldCast(RewritePattern):
    """``tensor.cast`` to its own type -> its source; a cast of a cast -> one cast (or none)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.CastOp, rewriter: PatternRewriter, /) -> None:
        source = op.source
        inner = source.owner
        if isinstance(inner, tensor.CastOp):
            source = inner.source
        if source.type == op.dest.type:
            rewriter.replace(op, [], [source])
        elif source is not op.source and isinstance(op.dest.type, TensorType):
            rewriter.replace(op, tensor.CastOp(source, op.dest.type))


_SCALARIZABLE = OfKind(tensor.ExtractOp, tensor.DimOp, tensor.CastOp)


def scalarizable(op: Operation) -> bool:
    """Whether a scalarization pattern can match ``op`` (its checks, by name or class)."""
    return _SCALARIZABLE(op) or op_name(op) == "shape.shape_of"


@dataclass(eq=False, repr=False)
class SeededWalker(PatternRewriteWalker):
    """xDSL's walker, its worklist seeded only with the ops its pattern can change: the ops
    ``candidate`` accepts and the trivially dead ones (the applier erases those). Any other op
    is a no-op where the full walk visits it, so the rewrites and their order are the same; the
    ops a rewrite touches are pushed as before. A 100k-op module has a few thousand candidates.
    ``dead=False`` for a bare pattern (no applier: a dead op is left alone)."""

    candidate: Callable[[Operation], bool] = field(default=lambda _: True)
    dead: bool = True
    facts: OpFacts = field(default_factory=OpFacts)
    """Per-class answers to ``is_trivially_dead`` (`OpFacts.trivially_dead`)."""

    def _populate_worklist(self, op: Operation | Region | Block) -> None:
        if isinstance(op, Region) and not self.walk_reverse and not self.walk_regions_first:
            ops: Iterable[Operation] = reversed(nested_ops(op))  # the order of the walk below
        else:
            ops = op.walk(reverse=not self.walk_reverse, region_first=not self.walk_regions_first)
        candidate, push = self.candidate, self._worklist.push
        dead = self.facts.trivially_dead if self.dead else None
        for sub_op in ops:
            if candidate(sub_op) or (dead is not None and dead(sub_op)):
                push(sub_op)


def scalarize(ctx: Context, module: ModuleOp) -> None:
    """Apply the scalarization patterns to a fixpoint, then canonicalize and CSE."""
    patterns = GreedyRewritePatternApplier([ScalarizeShapeOf(), ExtractFromElements(), StaticDim(), FoldCast()])
    SeededWalker(patterns, candidate=scalarizable).rewrite_module(module)
    cleanup(ctx, module)


def cleanup(ctx: Context, module: ModuleOp) -> None:
    """XDSL's canonicalization (with dead-code elimination) and CSE; the canonicalization's walk
    visits only the ops with a pattern or a folder (`SeededWalker`), the DCE and CSE are xDSL's
    decisions taken faster (`symshape.tools.mlir_passes.cleanup`)."""
    kinds: dict[type[Operation], bool] = {}

    def canonicalizable(op: Operation) -> bool:
        found = kinds.get(type(op))
        if found is None:
            found = kinds[type(op)] = bool(op.get_traits_of_type(HasCanonicalizationPatternsTrait)) or (
                op.has_trait(HasFolder, value_if_unregistered=False)
                and not op.has_trait(ConstantLike, value_if_unregistered=True)
            )
        return found

    facts = OpFacts()
    pattern = GreedyRewritePatternApplier([CanonicalizationRewritePattern()], ctx=ctx, folding_enabled=True)
    walker = SeededWalker(pattern, post_walk_func=region_dce_with(facts), candidate=canonicalizable, facts=facts)
    walker.rewrite_module(module)
    cse(module, facts)
