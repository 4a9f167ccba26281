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
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_THREAD_LIMIT"):
    _os.environ[_var] = "1"
