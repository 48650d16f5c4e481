"""Stage two and a half of shape-optimization: casts that only restore ``?``, and signatures.

`refine_types` (`symshape.tools.mlir_passes.optimize`) makes proven-constant dims static and casts
back to the old type where a user needs it exactly. What is left of such a cast when its users
do not need the old type is removed here: a ``tensor.cast`` whose result differs from its
operand only by ``?`` where the operand is static *restores* ``?``; a user that accepts the
refined type (an HLO op, a shape query) takes the operand instead, and a cast without users is
erased. With ``refine-signatures=true`` the function's own signature is refined too: the
arguments take their static types (no cast at the entry) and ``func.return`` takes the refined
values, so the result types become static; calls inside the module are cast by the save stage.
"""

from __future__ import annotations

from xdsl.dialects import func, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, FunctionType, ModuleOp, NoneAttr
from xdsl.ir import Attribute, Operation
from xdsl.rewriter import InsertPoint, Rewriter

from symshape.frontends.mlir.attributes import is_tensor
from symshape.memory import OfKind
from symshape.tools.mlir_passes.constraint_save import SAME_TYPE_OPERANDS, callee_name
from symshape.tools.mlir_passes.function_shapes import FunctionShapes
from symshape.tools.mlir_passes.ir_utils import data_functions, op_name, with_type
from symshape.tools.mlir_passes.materialize import FoldCast, SeededWalker
from symshape.tools.mlir_passes.optimize import TOLERANT, is_hlo, refined_type, retypable, top_level_ops


def restores_dynamic(source: Attribute, dest: Attribute) -> bool:
    """Whether a cast from ``source`` to ``dest`` only turns static sizes back into ``?`` (and
    perhaps drops the encoding)."""
    if not is_tensor(source) or not is_tensor(dest) or source == dest:
        return False
    if source.element_type != dest.element_type or dest.encoding not in (source.encoding, NoneAttr()):
        return False
    a, b = source.get_shape(), dest.get_shape()
    return len(a) == len(b) and all(y in (x, DYNAMIC_INDEX) for x, y in zip(a, b, strict=True))


def takes_refined(user: Operation, index: int, fn: func.FuncOp, refine_signature: bool) -> bool:
    """Whether ``user`` may read a value whose type has more static sizes than it declared as
    its operand ``index`` (a return only when the signature may change and it is the function's
    one return; never an operand whose type must equal its siblings', `SAME_TYPE_OPERANDS`)."""
    if index in SAME_TYPE_OPERANDS.get(op_name(user).split(".", 1)[-1], ()):
        return False
    if isinstance(user, func.ReturnOp):
        returns = [op for op in top_level_ops(fn) if isinstance(op, func.ReturnOp)]
        return refine_signature and returns == [user]
    return retypable(user) if is_hlo(user) else op_name(user) in TOLERANT


def drop_restoring_casts(fs: FunctionShapes, rewriter: Rewriter, refine_signature: bool = False) -> int:
    """Bypass casts that only restore ``?`` where their users take the refined value; erase
    those left without users. Returns how many casts were erased."""
    count = 0
    for op in top_level_ops(fs.func):
        if not isinstance(op, tensor.CastOp) or not restores_dynamic(op.source.type, op.dest.type):
            continue
        for use in list(op.dest.uses):
            if takes_refined(use.operation, use.index, fs.func, refine_signature):
                use.operation.operands[use.index] = op.source
        if not op.dest.uses:
            rewriter.erase_op(op)
            count += 1
    return count


def refine_arguments(fs: FunctionShapes, rewriter: Rewriter) -> int:
    """Give each argument with proven-constant ``?`` dims its static type; a user that needs the
    old type exactly (other than a return of the function or a call) gets a cast back."""
    entry = fs.func.body.blocks.first
    if entry is None:
        return 0
    count = 0
    for arg in list(entry.args):
        new = refined_type(arg.type, fs.dims(arg))
        if new is None:
            continue
        old = arg.type
        assert is_tensor(old)  # refined_type returns None otherwise
        value = with_type(rewriter, arg, new)
        fs.moved(arg, value)
        count += 1
        for use in list(value.uses):
            user = use.operation
            if isinstance(user, tensor.CastOp) and user.dest.type == new:
                user.dest.replace_all_uses_with(value)  # the entry cast refine_types made
                rewriter.erase_op(user)
            elif not (takes_refined(user, use.index, fs.func, True) or isinstance(user, func.CallOp)):
                cast = tensor.CastOp(value, old)
                rewriter.insert_op(cast, InsertPoint.before(user))
                user.operands[use.index] = cast.dest
    return count


def refine_signature(fs: FunctionShapes, rewriter: Rewriter) -> dict[str, int]:
    """Refined argument types, and returns of the refined values (see the module docstring)."""
    return {
        "arguments": refine_arguments(fs, rewriter),
        "casts": drop_restoring_casts(fs, rewriter, refine_signature=True),
    }


def finish_signatures(module: ModuleOp, refine: bool) -> None:
    """After the save stage: fold the cast chains its call fixes made, and with ``refine`` give
    the functions no other function calls the refined results the save stage cast back."""
    SeededWalker(FoldCast(), candidate=OfKind(tensor.CastOp), dead=False).rewrite_module(module)
    if not refine:
        return
    called = {name for op in module.walk() if (name := callee_name(op)) is not None}
    rewriter = Rewriter()
    for fn in data_functions(module):
        if fn.sym_name.data in called:
            continue
        for op in top_level_ops(fn):
            if isinstance(op, tensor.CastOp) and restores_dynamic(op.source.type, op.dest.type):
                for use in list(op.dest.uses):
                    if takes_refined(use.operation, use.index, fn, True):
                        use.operation.operands[use.index] = op.source
                if not op.dest.uses:
                    rewriter.erase_op(op)
        returns = [op for op in top_level_ops(fn) if isinstance(op, func.ReturnOp)]
        if len(returns) == 1:
            ins = fn.function_type.inputs.data
            fn.function_type = FunctionType.from_lists(list(ins), [v.type for v in returns[0].arguments])
