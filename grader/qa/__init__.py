"""The interview-question problem (``qa``): a bank of questions as data, graded without running code.

* :mod:`grader.qa.bank` loads and validates ``problems/qa/`` (questions, topics, mistakes);
* :mod:`grader.qa.answers` reads one answer (a letter, letters, a number, a vector, free text);
* :mod:`grader.qa.grading` grades one answer against one question and says why;
* :mod:`grader.qa.submission` reads a learner's ``qa.yaml``, with errors that name the line;
* :mod:`grader.qa.build` generates the stub, the reference and the spec's checks from the bank;
* :mod:`grader.qa.quiz` and :mod:`grader.qa.present` are the interactive ``grade quiz``.
"""
