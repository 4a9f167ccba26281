"""``--help`` in the chosen language: the commands' and options' help, and click's own words.

The English help stays where click reads it (docstrings and ``help=``); it is the message id, as
in gettext. :data:`HELP_ZH` maps each one (compared after ``inspect.cleandoc``) to Chinese;
``tests/test_i18n.py`` walks every command and option and fails on any without a translation.
:func:`localise` swaps them in when the language is Chinese; :func:`patch_click` does the same
for the words click itself prints (``Usage:``, ``Options``, usage errors), which click looks up
through ``gettext``.
"""

from __future__ import annotations

import inspect

import click

from grader.i18n import current


def _key(text: str) -> str:
    return inspect.cleandoc(text).strip()


HELP_ZH: dict[str, str] = {_key(en): zh for en, zh in {
    # grade (the group)
    """Grade interview-practice exercises on transformer attention.

    \b
    grade list                  the problems, and which of their files are here
    grade show self_attention   the prompt
    grade init self_attention   copy the starter file here
    grade self_attention        grade ./self_attention.py""": """为 Transformer 注意力的面试练习题评分。

\b
grade list                  列出题目，以及本目录中已有哪些答题文件
grade show self_attention   查看题目说明
grade init self_attention   把初始文件复制到这里
grade self_attention        为 ./self_attention.py 评分""",
    "Show the version and exit.": "显示版本号并退出。",
    "Show this message and exit.": "显示此帮助信息并退出。",
    "Language of the output: en or zh (default: GRADER_LANG, else the locale, else en). Also accepted after the command.":
        "输出语言：en 或 zh（默认依次取 GRADER_LANG、系统 locale，否则为 en）。也可以写在子命令之后。",
    "Language of the output: en or zh (default: GRADER_LANG, else the locale, else en).":
        "输出语言：en 或 zh（默认依次取 GRADER_LANG、系统 locale，否则为 en）。",
    "A private problem bank (holding problems/ and reference/) that adds or overrides problems. Also GRADER_PROBLEMS.":
        "私有题库（包含 problems/ 和 reference/），可以新增或覆盖题目。也可用环境变量 GRADER_PROBLEMS 指定。",
    # grade NAME, grade all
    "Grade this file instead.": "改为给这个文件评分。",
    "Grade again each time the file is saved, until Ctrl-C.": "每次保存文件后重新评分，直到按 Ctrl-C。",
    "Grade every problem whose learner file is in the folder.": "为文件夹中已有答题文件的每道题评分。",
    "Folder to look in.": "要查找的文件夹。",
    "Show messages of hidden checks, timings and output.": "显示隐藏检查的详情、耗时和你的代码输出。",
    "Seconds per check (default: the problem's limit).": "每项检查的秒数上限（默认：题目自己的限制）。",
    "Isolation of the learner's code.": "运行你代码时的隔离级别。",
    "Seed of the hidden inputs (default: GRADER_SEED, else the problem's).": "隐藏输入的随机种子（默认依次取 GRADER_SEED、题目的默认值）。",
    "Output format.": "输出格式。",
    "Do not add this grading to .grade-history.jsonl (also GRADER_HISTORY=off).":
        "不把这次评分记入 .grade-history.jsonl（也可设 GRADER_HISTORY=off）。",
    "Show timings, the seed and your code's output (of visible checks).": "显示耗时、随机种子以及你的代码的输出（仅限可见的检查项）。",
    "Also show what graders hide from learners: hidden checks' inputs, messages and output, and the qa answers "
    "with their explanations.": "同时显示评分时对学生隐藏的内容：隐藏检查的输入、信息和输出，以及 qa 题的答案和解析。",
    # list, show, init
    "List the problems, their points, and whether their learner file is here.": "列出所有题目、分值，以及本目录中是否已有答题文件。",
    "Show a problem's prompt and its checks.": "显示题目说明和检查项。",
    "Copy a problem's starter file into DIRECTORY (default: here), commented in the chosen language.":
        "把题目的初始文件复制到 DIRECTORY（默认：当前目录），注释使用所选语言。",
    "Overwrite an existing file.": "覆盖已有的文件。",
    "Write a Jupyter/Colab notebook NAME.ipynb instead.": "改为写出 Jupyter/Colab 笔记本 NAME.ipynb。",
    "With --notebook: what its install cell pip-installs (default: where this grader came from).":
        "与 --notebook 一起使用：笔记本的安装单元格用 pip 安装什么（默认：本评分器的安装来源）。",
    # batch, merge
    """Grade a class: every student folder in SUBMISSIONS x every problem.

    \b
    SUBMISSIONS holds one folder per student (a GitHub Classroom clone or an LMS download).
    Writes grades.csv, results.jsonl and report.html into --out. Interrupted? Run it again
    with --resume: finished results are kept, changed submissions are regraded.""": """为全班评分：SUBMISSIONS 中每个学生文件夹 × 每道题。

\b
SUBMISSIONS 中每个学生一个文件夹（GitHub Classroom 克隆下来的仓库，或从教学平台下载的作业）。
在 --out 中写出 grades.csv、results.jsonl 和 report.html。中断了？加上 --resume 再运行一次：
已完成的结果会保留，改动过的提交会重新评分。""",
    "Grade only these problems (comma-separated names).": "只评这些题（用逗号分隔的题目名）。",
    "An instructor's grades (CSV: question, student, points, comment; review.csv filled in works) that replace "
    "the grader's; kept in --out and applied on every --resume.":
        "教师给出的分数（CSV：question、student、points、comment；填好的 review.csv 即可），用来替换评分器的分数；"
        "保存在 --out 中，每次 --resume 时都会应用。",
    "Parallel grading processes (default: the core count).": "并行评分的进程数（默认：CPU 核数）。",
    "Folder for grades.csv, results.jsonl, report.html and the journal.": "存放 grades.csv、results.jsonl、report.html 和日志的文件夹。",
    "Continue a batch in --out: grade only what is missing or changed.": "继续 --out 中未完成的批量评分：只评缺少的或改动过的提交。",
    "Isolation of the learners' code.": "运行学生代码时的隔离级别。",
    "Also write one file per student in this format: json, gradescope, classroom, junit or exercism (repeatable).":
        "另外为每个学生写出一个该格式的文件：json、gradescope、classroom、junit 或 exercism（可重复指定）。",
    "Grade only shard i of N (a stable split by student name); then `grade merge` the N --out folders.":
        "只评 N 个分片中的第 i 个（按学生名稳定划分）；之后用 `grade merge` 合并 N 个 --out 文件夹。",
    'Grade on this Dask cluster instead of here (pip install "attention-grader[dask]"); '
    "the cluster's workers replace --jobs.":
        '在这个 Dask 集群上评分，而不是在本机（需要 pip install "attention-grader[dask]"）；'
        "集群的 worker 取代 --jobs。",
    """Combine the --out folders of `grade batch --shard i/N` (all N of them) into one gradebook.

    \b
    Refuses shards made with different seeds, problems, problem-bank content, sandbox or grader
    version, a missing or repeated shard, and a shard with a missing result.""": """把 `grade batch --shard i/N` 的 --out 文件夹（全部 N 个）合并成一份成绩册。

\b
以下情况会拒绝合并：各分片的种子、题目、题库内容、沙箱或评分器版本不一致，
缺少或重复的分片，以及缺少结果的分片。""",
    "A new folder for the merged grades.csv, results.jsonl, report.html and journal.":
        "存放合并后的 grades.csv、results.jsonl、report.html 和日志的新文件夹。",
    # progress
    "Show, per problem graded here, the best score, the mistakes that came up most and the checks never passed.":
        "按题显示在本目录中评分的情况：最佳得分、出现最多的错因，以及从未通过的检查项。",
    "Folder whose .grade-history.jsonl to read.": "读取哪个文件夹中的 .grade-history.jsonl。",
    # quiz
    "Answer interview questions one at a time, with feedback after each.": "逐题回答面试题，每答一题都有反馈。",
    "Only this topic (scaling, softmax, masks, multi_head, ...).": "只练这个主题（scaling、softmax、masks、multi_head 等）。",
    "How many questions.": "题目数量。",
    "Language: en, or zh (中文) (default: grade --lang, GRADER_LANG, else the locale).":
        "语言：en 或 zh（中文）（默认依次取 grade --lang、GRADER_LANG、系统 locale）。",
    "File that remembers your answers between runs (missed questions come back first).":
        "记录你历次作答的文件（答错的题下次优先出现）。",
    "Seed the order of new questions (default: random).": "新题出题顺序的随机种子（默认：随机）。",
    # validate
    """Check every problem of the bank at DIRECTORY (default: all banks in use).

    \b
    Each spec loads; the reference scores full marks; the stub is not_attempted;
    every declared mistake is diagnosed on a wrong solution of tests/corpus/<id>/;
    two runs with one seed agree. Exit code 1 when anything fails.""": """检查 DIRECTORY 中题库的每道题（默认：正在使用的所有题库）。

\b
每个 spec 都能加载；参考实现得满分；初始模板判为 not_attempted；
声明的每个常见错误都能在 tests/corpus/<id>/ 的某个错误答案上被识别；
同一种子运行两次结果一致。有任何一项失败时退出码为 1。""",
    "Seed of the hidden inputs (default: GRADER_SEED, else each problem's).": "隐藏输入的随机种子（默认依次取 GRADER_SEED、每道题的默认值）。",
    # classroom
    "GitHub Classroom: the autograding workflow of a learner template repository.": "GitHub Classroom：学生模板仓库的自动评分工作流。",
    "Write DIRECTORY/.github/workflows/classroom.yml and the starter files it grades.":
        "写出 DIRECTORY/.github/workflows/classroom.yml 以及它要评分的初始文件。",
    "Comma-separated problems to grade (default: all).": "要评分的题目，用逗号分隔（默认：全部）。",
    "What the workflow pip-installs (default: attention-grader==VERSION; "
    "e.g. git+https://github.com/ORG/attention-grader@v0.1.0).":
        "工作流用 pip 安装的内容（默认：attention-grader==VERSION；"
        "例如 git+https://github.com/ORG/attention-grader@v0.1.0）。",
    "Check out this private problem bank with the GRADER_BANK_TOKEN secret.": "用 GRADER_BANK_TOKEN 密钥检出这个私有题库。",
    "Replace an existing workflow.": "替换已有的工作流。",
    "What the workflow pip-installs, e.g. git+https://github.com/ORG/attention-grader@v0.1.0 (default: where this "
    "grader was installed from, when a runner can reach it).":
        "工作流用 pip 安装的内容，例如 git+https://github.com/ORG/attention-grader@v0.1.0"
        "（默认：本评分器的安装来源，只要运行器能访问到）。",
}.items()}

#: What click itself says, looked up through its ``_`` (gettext): Chinese for the common words.
CLICK_ZH: dict[str, str] = {
    "Usage:": "用法:",
    "Options": "选项",
    "Commands": "命令",
    "Positional arguments": "位置参数",
    "Aborted!": "已中止！",
    "Error: {message}": "错误：{message}",
    "Try '{command} {option}' for help.": "运行 '{command} {option}' 查看帮助。",
    "Show this message and exit.": "显示此帮助信息并退出。",
    "Show the version and exit.": "显示版本号并退出。",
    "Missing command.": "缺少子命令。",
    "No such option {name!r}.": "没有选项 {name!r}。",
    "No such command {name!r}.": "没有命令 {name!r}。",
    "Did you mean {possibility}?": "你是不是想输入 {possibility}？",
    "(Did you mean one of: {possibilities}?)": "（你是不是想输入其中之一：{possibilities}？）",
    "Missing argument": "缺少参数",
    "Missing option": "缺少选项",
    "Missing parameter": "缺少参数",
    "Invalid value: {message}": "值无效：{message}",
    "Invalid value for {param_hint}: {message}": "{param_hint} 的值无效：{message}",
    "{value!r} is not {choice}.": "{value!r} 不是 {choice}。",
    "{value!r} is not one of {choices}.": "{value!r} 不是 {choices} 中的一个。",
    "{value!r} is not a valid {number_type}.": "{value!r} 不是有效的 {number_type}。",
    "{value} is not in the range {range}.": "{value} 不在范围 {range} 内。",
    "Got unexpected extra argument ({args})": "多出了参数（{args}）",
    "Got unexpected extra arguments ({args})": "多出了参数（{args}）",
    "{name} {filename!r} does not exist.": "{name} {filename!r} 不存在。",
    "{name} {filename!r} is a file.": "{name} {filename!r} 是文件。",
    "{name} {filename!r} is a directory.": "{name} {filename!r} 是文件夹。",
    "{name} {filename!r} is not readable.": "{name} {filename!r} 不可读。",
    "{name} {filename!r} is not writable.": "{name} {filename!r} 不可写。",
    "file": "文件",
    "directory": "文件夹",
    "path": "路径",
    "default: {default}": "默认：{default}",
    "env var: {var}": "环境变量：{var}",
    "required": "必填",
}


def help_text(english: str | None, lang: str | None = None) -> str | None:
    """``english`` (a docstring or ``help=``) in ``lang``.

    A help text without a translation is a test failure (tests/test_i18n.py walks every command
    and option); at run time it shows in English rather than break ``--help``.
    """
    if not english or (lang or current()) == "en":
        return english
    return HELP_ZH.get(_key(english), english)


def localise(command: click.Command) -> None:
    """Put ``command``'s help and its options' help in the current language.

    The English texts are kept on the command (they are the ids), so a later call in another
    language (the tests run many in one process) finds them again.
    """
    english = command.__dict__.setdefault("_english_help", {"help": command.help, "short": command.short_help})
    lang = current()
    own = getattr(command, "help_in_every_language", None)  # a Text, e.g. a problem's command
    command.help = own.get(lang) if own is not None else help_text(english["help"], lang)
    command.short_help = english["short"]
    if lang != "en" and command.help:
        first = command.help.split("\n", 1)[0]
        command.short_help = first.split("。", 1)[0] + "。" if "。" in first else first
    for param in command.params:
        if isinstance(param, click.Option) and param.help:
            original = param.__dict__.setdefault("_english_help", param.help)
            param.help = help_text(original, lang)


def _click_gettext(message: str) -> str:
    return CLICK_ZH.get(message, message) if current() == "zh" else message


def _click_ngettext(singular: str, plural: str, n: int) -> str:
    return _click_gettext(singular if n == 1 else plural)


def patch_click() -> None:
    """Let click's own words follow the language (its modules call ``_`` = gettext.gettext)."""
    import importlib

    for name in ("core", "decorators", "exceptions", "formatting", "parser", "types", "termui"):
        try:
            module = importlib.import_module(f"click.{name}")
        except ImportError:
            continue
        if getattr(module, "_", None) is not None:
            module._ = _click_gettext
        if getattr(module, "ngettext", None) is not None:
            module.ngettext = _click_ngettext
