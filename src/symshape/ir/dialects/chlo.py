"""The CHLO ops symshape reads: the implicitly broadcasting binary ops (``chlo.broadcast_add``)
and ``chlo.broadcast_select``, in their pretty form (``chlo.broadcast_add %a, %b : (A, B) -> R``)
as the StableHLO and jax printers write it, so reading them does not depend on jaxlib.
https://github.com/openxla/stablehlo/blob/main/stablehlo/dialect/ChloOps.td
"""

from __future__ import annotations

from xdsl.ir import Dialect

from symshape.ir.dialects.hlo_ops import CHLO_BINARY, HloOpSpec
from symshape.ir.dialects.stablehlo import op_class

CHLO_OPS = (*(f"broadcast_{name}" for name in CHLO_BINARY), "broadcast_select")

CHLO = Dialect("chlo", [op_class("chlo", name, HloOpSpec(dialects=("chlo",))) for name in CHLO_OPS], [])
