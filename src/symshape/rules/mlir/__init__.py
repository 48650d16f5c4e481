"""The func, arith, tensor, shape, cf and symshape-constraint rules."""
