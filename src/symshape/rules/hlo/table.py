"""HLO rules register through the op table the dialect definitions are made from.

`hlo_rule` registers a rule for each listed op in exactly the dialects that define it
(`symshape.ir.dialects.hlo_ops.HLO_OPS`), and refuses an op the table does not list: a rule
cannot exist for an op that does not parse, and the two lists cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable

from symshape.ir.dialects.hlo_ops import HLO_OPS, hlo_family
from symshape.rules.registry import Rule, register
from symshape.rules.shared.mlir_common import check_declared

__all__ = ["hlo_family", "hlo_rule"]


def hlo_rule(*mnemonics: str, then: Rule | None = check_declared) -> Callable[[Rule], Rule]:
    """Register the decorated rule for ``mnemonics`` in every HLO dialect that defines each.

    ``then`` runs after the rule; by default it checks the declared result types.
    """
    unknown = [m for m in mnemonics if m not in HLO_OPS]
    if unknown:
        raise LookupError(f"no HLO op {unknown} in symshape.ir.dialects.hlo_ops.HLO_OPS; add it there first")

    def wrap(fn: Rule) -> Rule:
        for mnemonic in mnemonics:
            register(HLO_OPS[mnemonic].dialects, mnemonic, then=then)(fn)
        return fn

    return wrap
