"""MLIR text as data, below the rules and the readers: the xDSL dialect tables (`dialects`), parsing
(`parse`, `clean`, `generic_text`), printing as written (`printing`) and attribute values.
"""
