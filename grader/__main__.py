"""``python -m grader`` runs the same CLI as the ``grade`` command."""

from grader.cli import main

main()
