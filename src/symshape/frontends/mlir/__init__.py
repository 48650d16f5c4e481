"""MLIR input and output: xDSL dialects, MLIR text <-> `symshape.engine.program.Program`, the passes.

`symshape.ir.parse.parse_module` reads text, `symshape.frontends.mlir.frontend.analyze_mlir_file`
analyzes a file, and `symshape.tools.mlir_passes.opt.run_opt` runs passes. Nothing here is imported by
``import symshape``.
"""
