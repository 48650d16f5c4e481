"""The expression algebra: symbolic dims (`expr`), their atoms and terms, piecewise forms, intervals,
and the parser of dims and facts. The lowest layer: it imports nothing else of symshape but `errors`.
"""
