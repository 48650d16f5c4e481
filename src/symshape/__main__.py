"""``python -m symshape`` runs the command line."""

from symshape.cli import run

run()
