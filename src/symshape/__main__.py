"""``python -m symshape`` runs the command line."""

from symshape.app.cli import run_and_exit

if __name__ == "__main__":  # not when a child process started by spawn imports it
    run_and_exit()
