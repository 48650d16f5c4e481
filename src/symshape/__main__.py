"""``python -m symshape`` runs the command line."""

from symshape.app.cli import run

run()
