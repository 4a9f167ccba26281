"""Running learner code out of the grader's process: zygote, runners, wire protocol, sandbox layers."""
