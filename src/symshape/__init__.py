"""symshape: symbolic shape-constraint analysis for dynamic-shape ML programs.

``import symshape`` is light (neither onnx nor xdsl is imported); see `symshape.api` for the
entry points and `symshape.algebra.expr` for the expression algebra.
"""

__version__ = "0.1.0"
