"""Where an installed grader keeps its problem bank (``problems/`` and ``reference/`` as package data)."""
