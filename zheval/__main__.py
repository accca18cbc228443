"""``python -m zheval`` runs the ``zheval`` command line (see `zheval.cli`)."""

from .cli import main

if __name__ == "__main__":
    main()
