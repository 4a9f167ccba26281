"""Sub-commands that live in their own modules (batch, merge, quiz, validate, classroom).

``grader.cli.LAZY_COMMANDS`` maps each name to its module, which is imported only when used,
so ``grade self_attention`` never pays for them. Each module stays thin: parse, call the
library, render.
"""
