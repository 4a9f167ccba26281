"""attention-grader: grade interview-practice exercises on transformer attention.

The public API is small: :func:`grader.engine.grade` grades one submission of one problem and
returns a :class:`grader.results.ProblemResult`; :mod:`grader.bank` finds problems.
"""

import os as _os

__version__ = "0.1.0"

# The grader forks warm worker processes after importing numpy and torch. A thread pool that
# exists before a fork can deadlock the child (OpenMP, see docs/architecture.md), so the grader
# is single-threaded by design: parallelism comes from processes. This must run before numpy or
# torch is imported anywhere. OMP_THREAD_LIMIT is a hard cap: a learner's torch.set_num_threads(64)
# still runs on one thread.
_THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_THREAD_LIMIT")
#: Their values before this import (None: unset), for a process that does not grade (a Jupyter kernel).
_THREADS_BEFORE = {_var: _os.environ.get(_var) for _var in _THREAD_VARS}
for _var in _THREAD_VARS:
    _os.environ[_var] = "1"


def load_ipython_extension(ipython: object) -> None:
    """``%load_ext grader``: the ``%%grade`` cell magic (:mod:`grader.notebook.magic`).

    A kernel never grades in its own process (a separate grading process does), so the learner's
    kernel gets its thread settings back: their torch keeps all its threads.
    """
    for var, value in _THREADS_BEFORE.items():
        if value is None:
            _os.environ.pop(var, None)
        else:
            _os.environ[var] = value
    from grader.notebook.magic import load_ipython_extension as load

    load(ipython)
