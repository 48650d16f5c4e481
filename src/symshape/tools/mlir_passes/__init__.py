"""symshape's MLIR passes, one module per pass named after it (``shape-optimization`` lives in
``shape_optimization.py``), plus the stage modules they share. The registry is
`symshape.tools.mlir_passes.opt.PASSES`."""
