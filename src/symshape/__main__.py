"""``python -m symshape`` runs the command line."""

from symshape.app.cli import run

if __name__ == "__main__":  # not when a child process started by spawn imports it
    run()
