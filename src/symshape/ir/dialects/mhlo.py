"""The subset of MHLO that symshape reads (seed 000/001 inputs, BladeDISC and mlir-hlo output).

MHLO shares StableHLO's op set, attribute names and pretty syntax (``mhlo.add %0, %1 : T``),
so the classes come from the same table and factory with the ``mhlo`` prefix; the table also
lists the few ops only MHLO has (``cosh``, ``sinh``, ``erf``). Opaque attributes in the old
quoted form (``#mhlo<"precision DEFAULT">``) are normalized by `symshape.ir.parse`.
https://github.com/tensorflow/mlir-hlo
"""

from __future__ import annotations

from xdsl.ir import Dialect

from symshape.ir.dialects.stablehlo import make_ops

MHLO = Dialect("mhlo", make_ops("mhlo"), [])
