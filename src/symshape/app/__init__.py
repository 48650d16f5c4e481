"""The command line: `cli` and one module per command that is more than a few lines; `sweep` over
folders. It reads `symshape.api` and the frontend registry; nothing imports it.
"""
