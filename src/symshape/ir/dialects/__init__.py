"""symshape's own xDSL dialect subsets: stablehlo, mhlo, shape (and the constraint dialect).

Import the modules directly; `symshape.ir.parse.make_context` loads them all.
"""
