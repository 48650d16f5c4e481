"""MLIR input and output: xDSL dialects, MLIR text <-> `symshape.program.Program`, the passes.

`symshape.mlir.parse.parse_module` reads text, `symshape.mlir.frontend.analyze_mlir_file`
analyzes a file, and `symshape.mlir.opt.run_opt` runs passes. Nothing here is imported by
``import symshape``.
"""
