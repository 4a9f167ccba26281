"""Every sentence the grader's code says to a person, in English and Chinese (see docs/i18n.md).

Keys are ``area.name``; parameters are filled with :meth:`str.format` (both languages take the
same ones: ``tests/test_i18n.py`` checks it). Terms follow the glossary in docs/i18n.md. Use
``text(key, ...)`` for a Text (results, errors) and ``t(key, lang, ...)`` for a string now.
"""

from __future__ import annotations

from grader.i18n import Catalogue

MESSAGES = Catalogue("grader.messages", {
    # ---- separators and small words
    "sep.list": {"en": ", ", "zh": "，"},
    "sep.items": {"en": ", ", "zh": "、"},
    "sep.clauses": {"en": "; ", "zh": "；"},
    # ---- statuses, as the table and plain-text formats show them
    "status.pass": {"en": "PASS", "zh": "通过"},
    "status.fail": {"en": "FAIL", "zh": "未通过"},
    "status.error": {"en": "ERROR", "zh": "出错"},
    "status.timeout": {"en": "TIMEOUT", "zh": "超时"},
    "status.not_attempted": {"en": "TODO", "zh": "未作答"},
    "status.skipped": {"en": "SKIP", "zh": "跳过"},
    # counts in the score line: "(1 fail, 2 error)"
    "count.fail": {"en": "{n} fail", "zh": "{n} 项未通过"},
    "count.error": {"en": "{n} error", "zh": "{n} 项出错"},
    "count.timeout": {"en": "{n} timeout", "zh": "{n} 项超时"},
    "count.not_attempted": {"en": "{n} not attempted", "zh": "{n} 项未作答"},
    "count.skipped": {"en": "{n} skipped", "zh": "{n} 项跳过"},
    # ---- the results table and the plain-text feedback
    "table.status": {"en": "Status", "zh": "状态"},
    "table.check": {"en": "Check", "zh": "检查项"},
    "table.points": {"en": "Points", "zh": "得分"},
    "table.details": {"en": "Details", "zh": "详情"},
    "table.ms": {"en": "ms", "zh": "毫秒"},
    "table.hidden": {"en": " (hidden)", "zh": "（隐藏）"},
    "table.output": {"en": "output:", "zh": "输出："},
    "table.printed_hint": {
        "en": "Your code printed something during {n} check(s); grade again with -v to see it.",
        "zh": "你的代码在 {n} 项检查中有输出；加上 -v 重新评分即可看到。",
    },
    # the overview that `grade all` prints first
    "table.overview": {"en": "Problems: {score}/{max_score}", "zh": "各题得分：{score}/{max_score}"},
    "table.problem": {"en": "Problem", "zh": "题目"},
    "table.result": {"en": "Result", "zh": "结果"},
    "table.all_pass": {"en": "all checks pass", "zh": "全部通过"},
    "table.not_attempted": {"en": "not attempted", "zh": "未作答"},
    "table.could_not_grade": {"en": "could not grade", "zh": "无法评分"},
    # the line that says which check is running (a terminal only)
    "live.running": {
        "en": "{problem}: check {number}/{count} ({seconds} s of {limit} s): {title}",
        "zh": "{problem}：第 {number}/{count} 项检查（已用 {seconds} 秒，上限 {limit} 秒）：{title}",
    },
    "feedback.hidden_fail": {"en": "hidden check: wrong answer", "zh": "隐藏检查：答案不对"},
    "feedback.mistake": {"en": "Mistake: {title}", "zh": "错因：{title}"},
    "feedback.hint": {"en": "Hint: {hint}", "zh": "提示：{hint}"},
    "feedback.reveal": {"en": "Instructor: {reveal}", "zh": "教师可见：{reveal}"},
    "feedback.printed": {"en": "Your code printed:", "zh": "你的代码输出了："},
    "feedback.points_of": {"en": "({score}/{max_score} points)", "zh": "（{score}/{max_score} 分）"},
    "feedback.log_total": {
        "en": "{names}: {score}/{max_score} points (attention-grader {version})",
        "zh": "{names}：{score}/{max_score} 分（attention-grader {version}）",
    },
    "feedback.points_line": {"en": "{problem}: {score}/{max_score} points", "zh": "{problem}：{score}/{max_score} 分"},
    "feedback.could_not_grade": {"en": "{line}. Could not grade: {error}", "zh": "{line}。无法评分：{error}"},
    # the one next step after a file that could not be graded, and how to try again from where one is
    "feedback.next_line": {
        "en": "Fix line {line} of {file}, then {again}.",
        "zh": "改好 {file} 的第 {line} 行，然后{again}。",
    },
    "feedback.next_file": {
        "en": "Fix {file} so that it loads, then {again}.",
        "zh": "改好 {file}，让它能够加载，然后{again}。",
    },
    "feedback.again_grade": {"en": "run {command} again", "zh": "再运行一次 {command}"},
    "feedback.again_submit": {"en": "submit again", "zh": "重新提交"},
    "feedback.again_push": {"en": "commit and push again", "zh": "提交并推送一次"},
    "feedback.again_cell": {"en": "run the cell again", "zh": "再运行一次这个单元格"},
    "feedback.again_save": {"en": "save it again", "zh": "再保存一次"},
    # a file that could not be graded, named once: a test of its own, and each check that did not run
    "feedback.not_graded": {"en": "{file} could not be graded", "zh": "{file} 无法评分"},
    "feedback.not_run": {"en": "not run: {file} could not be graded", "zh": "未运行：{file} 无法评分"},
    "feedback.not_attempted": {
        "en": "{line}. Not attempted yet: edit {file} and submit again.",
        "zh": "{line}。尚未作答：请编辑 {file} 后重新提交。",
    },
    # ---- the sandbox levels a root grader gets (grader/worker/sandbox.py; bubblewrap's own words stay as they are)
    "sandbox.user_needs_root": {
        "en": "--sandbox user: only a grader running as root can run learner code as another user; "
              "use --sandbox full or limits",
        "zh": "--sandbox user：只有以 root 运行的评分程序才能让学习者的代码以另一个用户运行；请改用 --sandbox full 或 limits",
    },
    "sandbox.user_unavailable": {
        "en": "--sandbox user is not available on this machine: {problem}",
        "zh": "这台机器上无法使用 --sandbox user：{problem}",
    },
    "sandbox.python_unreadable": {
        "en": "{account} cannot read {path} (the Python installation); install Python and the grader where "
              "every user can read them",
        "zh": "{account} 无法读取 {path}（Python 的安装目录）；请把 Python 和评分程序安装在所有用户都能读取的位置",
    },
    "sandbox.no_account": {
        "en": "the grader runs as root, so learner code must run as another user: {problem}",
        "zh": "评分程序以 root 身份运行，学习者的代码必须以另一个用户运行：{problem}",
    },
    "sandbox.full_as_user": {
        "en": "sandbox: {problem}; learner code runs as {account} in a fresh interpreter instead "
              "(isolation: user, see docs/security.md)",
        "zh": "沙箱：{problem}；改为在全新的解释器中以 {account} 身份运行学习者的代码（隔离级别：user，见 docs/security.md）",
    },
    "sandbox.full_and_user_unavailable": {
        "en": "--sandbox full is not available on this machine: {problem}; the user level cannot replace it: "
              "{user_problem}. Fix one of the two, or use --sandbox limits (no filesystem or network isolation).",
        "zh": "这台机器上无法使用 --sandbox full：{problem}；user 级别也无法替代它：{user_problem}。"
              "请解决其中之一，或改用 --sandbox limits（不隔离文件系统和网络）。",
    },
    "sandbox.batch_as_user": {
        "en": "sandbox: {problem}; grading as {account} in a fresh interpreter (isolation: user)",
        "zh": "沙箱：{problem}；改为在全新的解释器中以 {account} 身份评分（隔离级别：user）",
    },
    "sandbox.bank_readable": {
        "en": "sandbox: this kernel has no Landlock, and {account} can read {path}: learner code can read it "
              "too. Make it readable by root only: chmod -R go-rwx {path}",
        "zh": "沙箱：这个内核没有 Landlock，而 {account} 能读取 {path}，所以学习者的代码也能读取。"
              "请让它只有 root 可读：chmod -R go-rwx {path}",
    },
    # ---- Gradescope: the always-visible output while the total is hidden, and run_autograder
    "gradescope.later.after_due_date": {
        "en": "Hidden checks are scored too: their results and your total appear after the due date.",
        "zh": "隐藏检查同样计分：它们的结果和你的总分将在截止日期之后公布。",
    },
    "gradescope.later.after_published": {
        "en": "Hidden checks are scored too: their results and your total appear when the grades are published.",
        "zh": "隐藏检查同样计分：它们的结果和你的总分将在成绩发布时公布。",
    },
    "autograder.graded": {"en": "{problem}: graded {found}.", "zh": "{problem}：已评分 {found}。"},
    "autograder.graded_as": {
        "en": "{problem}: graded {found} as {expected}.",
        "zh": "{problem}：已将 {found} 作为 {expected} 评分。",
    },
    "autograder.helpers": {
        "en": "{problem}: your other files beside it were kept for it to import: {names}.",
        "zh": "{problem}：与它同一文件夹的其他文件已一并保留，供它导入：{names}。",
    },
    "autograder.missing": {
        "en": "{problem}: no {expected} in your upload, so it is graded as not attempted.",
        "zh": "{problem}：你的提交中没有 {expected}，因此按未作答评分。",
    },
    "autograder.missing_either": {
        "en": "{problem}: no {expected} or {notebook} in your upload, so it is graded as not attempted.",
        "zh": "{problem}：你的提交中既没有 {expected} 也没有 {notebook}，因此按未作答评分。",
    },
    "autograder.failed": {
        "en": "The autograder could not grade this submission. Tell your instructor.",
        "zh": "自动评分程序无法为这次提交评分，请告诉你的老师。",
    },
    # ---- figures: yours beside the reference's on a public example (grader/render/heatmap.py)
    "figure.yours": {"en": "yours", "zh": "你的结果"},
    "figure.expected": {"en": "expected", "zh": "参考答案"},
    "figure.rows": {"en": "query i", "zh": "查询 i"},
    "figure.cols": {"en": "key j", "zh": "键 j"},
    "figure.heading": {
        "en": "Picture ({checks}): {title}, a public example",
        "zh": "图示（{checks}）：{title}，公开示例",
    },
    "figure.heading_show": {"en": "Expected: {title}", "zh": "参考答案：{title}"},
    "show.figures": {"en": "What the reference gives on public examples:", "zh": "参考实现在公开示例上的结果："},
    "figure.axes": {"en": "rows: {rows}; columns: {cols}", "zh": "行：{rows}；列：{cols}"},
    "figure.legend_shades": {
        "en": "{shades}: small to large (darkest {top}); {zero}: exactly 0; {nan}: not a number",
        "zh": "{shades}：从小到大（最深处为 {top}）；{zero}：恰好为 0；{nan}：不是数（NaN）",
    },
    "figure.legend_mask": {
        "en": "{on}: may attend (True); {off}: blocked (False)",
        "zh": "{on}：可以关注（True）；{off}：被屏蔽（False）",
    },
    "figure.legend_mask_nan": {
        "en": "{on}: may attend (True); {off}: blocked (False); {nan}: not a number (NaN)",
        "zh": "{on}：可以关注（True）；{off}：被屏蔽（False）；{nan}：不是数（NaN）",
    },
    "figure.legend_differ": {
        "en": "{mark}: a row where yours differs from the expected one",
        "zh": "{mark}：你的结果与参考答案不同的行",
    },
    "figure.shapes_differ": {
        "en": "the two have different shapes: yours {yours}, expected {expected}",
        "zh": "两者形状不同：你的是 {yours}，参考答案是 {expected}",
    },
    "figure.numbers": {"en": "numbers, {label}:", "zh": "数值（{label}）："},
    "figure.legend_svg": {
        "en": "light to dark: small to large (darkest {top}); white: exactly 0; red: NaN.",
        "zh": "由浅到深：从小到大（最深处为 {top}）；白色：恰好为 0；红色：NaN。",
    },
    "figure.legend_mask_svg": {
        "en": "blue: may attend (True); grey: blocked (False).",
        "zh": "蓝色：可以关注（True）；灰色：被屏蔽（False）。",
    },
    "figure.legend_mask_nan_svg": {
        "en": "blue: may attend (True); grey: blocked (False); red: NaN.",
        "zh": "蓝色：可以关注（True）；灰色：被屏蔽（False）；红色：NaN。",
    },
    "figure.legend_differ_svg": {
        "en": "Red outline: where yours differs.",
        "zh": "红框：你的结果与参考答案不同之处。",
    },
    "summary.checks_one": {"en": "1 check", "zh": "1 项检查"},
    "summary.checks_many": {"en": "{n} checks", "zh": "{n} 项检查"},
    "summary.mistake": {"en": "Mistake recognised ({checks}): {title}", "zh": "识别出的错误（涉及 {checks}）：{title}"},
    "summary.hint_label": {"en": "Hint: ", "zh": "提示："},
    "summary.could_not_grade": {"en": "Could not grade:", "zh": "无法评分："},
    "summary.not_attempted": {
        "en": "Not attempted yet: 0/{max_score}. Edit {file} and grade again.",
        "zh": "尚未作答：0/{max_score}。编辑 {file} 后再评一次分。",
    },
    "summary.all_pass": {"en": "All checks pass: {score}/{max_score}", "zh": "全部通过：{score}/{max_score}"},
    "summary.score": {"en": "Score: {score}/{max_score} ({counts})", "zh": "得分：{score}/{max_score}（{counts}）"},
    "summary.total": {"en": "Total: {score}/{max_score}", "zh": "总分：{score}/{max_score}"},
    "summary.meta": {
        "en": "seed {seed} · isolation {isolation} · grader {version} · {ms} ms",
        "zh": "种子 {seed} · 隔离 {isolation} · 评分器 {version} · {ms} 毫秒",
    },
    # ---- grade validate
    "validate.ok": {"en": "ok", "zh": "通过"},
    "validate.fail": {"en": "FAIL", "zh": "失败"},
    "validate.skipped": {"en": "skipped", "zh": "跳过"},
    "validate.spec_ok": {
        "en": "{checks} checks, {points} points, {mistakes} mistakes",
        "zh": "{checks} 项检查，{points} 分，{mistakes} 个常见错误",
    },
    "validate.course_ok": {"en": "order {order}, section {group}", "zh": "顺序 {order}，分组 {group}"},
    "validate.course_order": {"en": "order {order}, no section", "zh": "顺序 {order}，不属于任何分组"},
    "validate.course_unplaced": {
        "en": "no order or group: grade list shows it last",
        "zh": "没有 order 和 group：grade list 把它列在最后",
    },
    "validate.course_heading_differs": {
        "en": "section {group} has another heading in {other}: give every problem of a section the same group.title",
        "zh": "分组 {group} 在 {other} 中的标题不同：同一分组的每道题都要写相同的 group.title",
    },
    "validate.grading_raised": {"en": "grading {file} raised {error}", "zh": "为 {file} 评分时抛出了 {error}"},
    "validate.reference_loses": {"en": "loses points in {checks}", "zh": "在这些检查项上失分：{checks}"},
    "validate.full_marks": {"en": "full marks", "zh": "满分"},
    "validate.stub_attempted": {"en": "not not_attempted: {checks}", "zh": "不是 not_attempted：{checks}"},
    "validate.stub_ok": {"en": "not_attempted, 0 points", "zh": "not_attempted，0 分"},
    "validate.untranslated": {
        "en": "{n} texts are plain strings, not {{en, zh}} yet ({first}, ...)",
        "zh": "{n} 处文本还是单一语言的字符串，不是 {{en, zh}}（{first} 等）",
    },
    "validate.no_stub": {"en": "no stub commented in {lang} ({path})", "zh": "没有 {lang} 注释的初始文件（{path}）"},
    "validate.stub_code_differs": {
        "en": "{stub}: its code differs from {english} (only comments and docstrings may)",
        "zh": "{stub}：代码与 {english} 不同（只有注释和文档字符串可以不同）",
    },
    "validate.import_raised": {"en": "{file}: importing it raised {error}", "zh": "{file}：导入时抛出了 {error}"},
    "validate.no_test_for": {"en": "no @checks.test for {ids}", "zh": "缺少 @checks.test：{ids}"},
    "validate.tests_not_in_spec": {"en": "tests not in the spec: {ids}", "zh": "spec 中没有的测试：{ids}"},
    "validate.probe_problems_unsaid": {
        "en": "probe problems without a message under messages: in spec.yaml: {ids}",
        "zh": "以下探针问题在 spec.yaml 的 messages: 中没有对应消息：{ids}",
    },
    "validate.undeclared_mistakes": {
        "en": "hypotheses for undeclared mistakes: {ids}",
        "zh": "为未声明的常见错误写了假设：{ids}",
    },
    "validate.in_file": {"en": "{file}: {problems}", "zh": "{file}：{problems}"},
    "validate.checks_ok": {
        "en": "{tests} tests, {hypotheses} mistake hypotheses",
        "zh": "{tests} 个测试，{hypotheses} 个错误假设",
    },
    "validate.no_figure_for": {"en": "no @checks.figure for {ids}", "zh": "缺少 @checks.figure：{ids}"},
    "validate.figures_not_in_spec": {"en": "figures not in the spec: {ids}", "zh": "spec 中没有的图示：{ids}"},
    "validate.no_figures": {"en": "none declared", "zh": "没有声明图示"},
    "validate.figure_unused": {
        "en": "{id}: no check names it and show is false",
        "zh": "{id}：没有检查项用到它，show 也是 false",
    },
    "validate.figure_not_drawn": {"en": "{id}: could not be drawn on the reference", "zh": "{id}：无法在参考实现上画出"},
    "validate.figure_sides_differ": {
        "en": "{id}: the reference drawn through the runner differs from itself drawn in-process",
        "zh": "{id}：经由 runner 画出的参考实现与在评分进程内画出的不一致",
    },
    "validate.figure_raised": {"en": "{id}: drawing it raised {error}", "zh": "{id}：绘制时抛出了 {error}"},
    "validate.figures_ok": {
        "en": "{n} drawn on the reference, public examples",
        "zh": "在参考实现上画出了 {n} 个，均为公开示例",
    },
    "validate.no_corpus": {
        "en": "no tests/corpus/{name}/expected.yaml beside the bank",
        "zh": "题库旁边没有 tests/corpus/{name}/expected.yaml",
    },
    "validate.no_mistakes": {"en": "no mistakes declared", "zh": "没有声明常见错误"},
    "validate.invalid_yaml": {"en": "{file}: invalid YAML ({error})", "zh": "{file}：YAML 无效（{error}）"},
    "validate.expects_undeclared": {
        "en": "{file} expects {mistake}, which the spec does not declare",
        "zh": "{file} 期望识别出 {mistake}，但 spec 没有声明它",
    },
    "validate.listed_missing": {"en": "{file} is listed in {listing} but missing", "zh": "{file} 列在 {listing} 中，但文件不存在"},
    "validate.not_diagnosed": {
        "en": "{file} is not diagnosed {mistake} (got {got})",
        "zh": "{file} 没有被识别为 {mistake}（实际识别为 {got}）",
    },
    "validate.unreached": {"en": "no corpus file reaches {ids}", "zh": "没有任何语料文件能触发 {ids}"},
    "validate.all_reached": {"en": "all {n} reached by {folder}", "zh": "{folder} 覆盖了全部 {n} 个"},
    "validate.checks_differ": {
        "en": "checks {checks} differ between two runs with one seed",
        "zh": "同一种子运行两次，检查项 {checks} 的结果不同",
    },
    "validate.results_differ": {
        "en": "the results differ between two runs with one seed",
        "zh": "同一种子运行两次，结果不同",
    },
    "validate.same_results": {"en": "same results for {files}", "zh": "{files} 两次运行结果相同"},
    "validate.no_spec": {
        "en": "{folder}: no spec.yaml, so the bank ignores this folder",
        "zh": "{folder}：没有 spec.yaml，题库会忽略这个文件夹",
    },
    "validate.not_a_bank": {
        "en": "{directory}: not a problem bank (no problems/ folder) nor a problem (no spec.yaml)",
        "zh": "{directory}：既不是题库（没有 problems/ 文件夹），也不是一道题（没有 spec.yaml）",
    },
    "validate.nothing": {"en": "{what}: no problems to validate", "zh": "{what}：没有可检查的题目"},
    "validate.the_bank": {"en": "the bank", "zh": "题库"},
    "validate.steps_skipped": {"en": "; {n} step(s) skipped", "zh": "；跳过了 {n} 个步骤"},
    "validate.failed": {
        "en": "{failed} of {total} problems fail validation",
        "zh": "{total} 道题中有 {failed} 道未通过检查",
    },
    "validate.all_valid": {"en": "All {total} problems are valid", "zh": "全部 {total} 道题都通过了检查"},
    # ---- grade list / grade show
    "list.title": {"en": "Problems", "zh": "题目"},
    "list.problem": {"en": "Problem", "zh": "题目"},
    "list.name": {"en": "Title", "zh": "标题"},
    "list.level": {"en": "Level", "zh": "难度"},
    "list.points": {"en": "Points", "zh": "分值"},
    "list.file_here": {"en": "File here", "zh": "本目录中的文件"},
    "list.here": {"en": "Here", "zh": "已有"},
    "list.other_group": {"en": "Other problems", "zh": "其他题目"},
    "list.narrow_key": {
        "en": "✓ its file is here · start a problem: grade init NAME",
        "zh": "✓ 表示该题的文件已在此目录 · 开始一道题：grade init 题名",
    },
    "list.last": {"en": "Last", "zh": "上次"},
    "list.best": {"en": "Best", "zh": "最佳"},
    "list.scores_key": {
        "en": "Last, Best: your scores graded in this folder · more: grade progress",
        "zh": "上次、最佳：你在本目录中评分得到的分数 · 详情：grade progress",
    },
    "level.easy": {"en": "easy", "zh": "简单"},
    "level.medium": {"en": "medium", "zh": "中等"},
    "level.hard": {"en": "hard", "zh": "困难"},
    "show.checks": {"en": "Checks ({points} points):", "zh": "检查项（共 {points} 分）："},
    "show.check_points": {"en": "{points} pt", "zh": "{points} 分"},
    "show.start": {
        "en": "Start with: [bold]grade init {name}[/], edit {file}, then [bold]grade {name}[/]",
        "zh": "开始：运行 [bold]grade init {name}[/]，编辑 {file}，然后运行 [bold]grade {name}[/]",
    },
    # ---- grade NAME, grade init, grade all
    "cli.no_file": {
        "en": '{path}: no such file. Run "grade init {name}" to create it, or pass --file PATH.',
        "zh": "{path}：文件不存在。运行 “grade init {name}” 创建它，或用 --file PATH 指定文件。",
    },
    "cli.no_such_path": {"en": "{path}: no such file. Check the path.", "zh": "{path}：文件不存在，请检查路径。"},
    "cli.init_exists": {
        "en": "{target} already exists; pass --force to overwrite it (your work would be lost)",
        "zh": "{target} 已存在；如要覆盖请加 --force（你写的内容会丢失）",
    },
    "cli.init_cannot_write": {
        "en": "{directory}: cannot write the starter file ({reason})",
        "zh": "{directory}：无法写入初始文件（{reason}）",
    },
    "cli.init_wrote_notebook": {
        "en": "Wrote {target}. Open it in Jupyter (or upload it to Colab), write your code in its %%grade cell and run "
        "that cell.",
        "zh": "已写入 {target}。用 Jupyter 打开（或上传到 Colab），在其中的 %%grade 单元格里写代码，然后运行这个单元格。",
    },
    "cli.init_wrote": {"en": "Wrote {target}. Edit it, then run: grade {command}", "zh": "已写入 {target}。编辑它，然后运行：grade {command}"},
    "cli.no_learner_files": {
        "en": "{directory}: no learner files here. Start one with: grade init NAME (see grade list)",
        "zh": "{directory}：这里没有任何答题文件。先运行 grade init NAME 创建一个（题目见 grade list）",
    },
    "cli.problems_section": {
        "en": "Problems (grade NAME grades its file here, e.g. ./self_attention.py)",
        "zh": "题目（grade NAME 为本目录中对应的文件评分，例如 ./self_attention.py）",
    },
    "cli.problem_help": {
        "en": "Grade ./{file} (your answer to the {name} problem).",
        "zh": "为 ./{file}（你对 {name} 这道题的解答）评分。",
    },
    "history.cannot_write": {
        "en": "{path}: cannot record this grading ({reason}); pass --no-history to stop trying",
        "zh": "{path}：无法记录这次评分（{reason}）；加上 --no-history 即不再尝试记录",
    },
    "history.cannot_read": {
        "en": "{path}: cannot read the grading history ({reason})",
        "zh": "{path}：无法读取评分记录（{reason}）",
    },
    "history.unreadable": {
        "en": "{path}: skipped {n} unreadable line(s)",
        "zh": "{path}：跳过了 {n} 行无法读取的记录",
    },
    # ---- grade NAME --watch
    "watch.watching": {
        "en": "Watching {file}: save it to grade it again · Ctrl-C to stop",
        "zh": "正在监视 {file}：保存后会重新评分 · 按 Ctrl-C 停止",
    },
    "watch.saved": {"en": "── {time} {file} saved: grading it again ──", "zh": "── {time} {file} 已保存：重新评分 ──"},
    "watch.gone": {
        "en": "{file} is gone (deleted or renamed); waiting for it to be saved again",
        "zh": "{file} 不见了（被删除或改名）；等它重新保存后再评分",
    },
    "watch.not_graded": {"en": "grade: not graded: {reason}", "zh": "grade：未评分：{reason}"},
    "watch.changes": {
        "en": "Since the last grading: {before} → {after}/{max_score}",
        "zh": "与上次评分相比：{before} → {after}/{max_score}",
    },
    "watch.unchanged": {
        "en": "Since the last grading: no check changed ({score}/{max_score})",
        "zh": "与上次评分相比：没有检查项发生变化（{score}/{max_score}）",
    },
    "watch.now_passes": {"en": "  + now passes: {title}", "zh": "  + 现在通过：{title}"},
    "watch.now_fails": {"en": "  - now fails: {title}", "zh": "  - 现在未通过：{title}"},
    "watch.now_fails_mistake": {
        "en": "  - now fails: {title} (mistake: {mistake})",
        "zh": "  - 现在未通过：{title}（错因：{mistake}）",
    },
    "watch.not_compared": {
        "en": "Not compared: the file could not be graded; the next grading is compared with the last one that was.",
        "zh": "未作比较：这个文件无法评分；下次评分会与上一次成功评分的结果比较。",
    },
    "watch.needs_table": {
        "en": "--watch prints the table: leave out --format {fmt}",
        "zh": "--watch 只输出表格：请去掉 --format {fmt}",
    },
    "watch.no_watchfiles": {
        "en": "--watch needs the watchfiles package: pip install watchfiles",
        "zh": "--watch 需要 watchfiles 包：pip install watchfiles",
    },
    # ---- grade progress
    "progress.title": {"en": "Your progress in this folder", "zh": "你在本目录中的练习进度"},
    "progress.gradings": {"en": "Graded", "zh": "评分次数"},
    "progress.mistakes": {"en": "Top mistakes", "zh": "常见错因"},
    "progress.never_passed": {"en": "Never passed", "zh": "从未通过的检查项"},
    "progress.mistake_times": {"en": "{title} (×{n})", "zh": "{title}（{n} 次）"},
    "progress.more": {"en": "and {n} more", "zh": "另有 {n} 项"},
    "progress.none": {"en": "none named", "zh": "无"},
    "progress.all_passed": {"en": "every check has passed", "zh": "每项检查都通过过"},
    "progress.empty": {
        "en": "{path}: no gradings recorded yet. Grade a problem here (grade NAME) and its score is kept.",
        "zh": "{path}：还没有评分记录。在这里为一道题评分（grade NAME），分数就会记录下来。",
    },
    "cli.warning": {"en": "grade: warning: {message}", "zh": "grade：警告：{message}"},
    "cli.bad_lang_env": {
        "en": "{name}={value!r}: choose one of {choices}",
        "zh": "{name}={value!r}：请从 {choices} 中选择",
    },
    # ---- errors the library raises (exit code 2)
    "error.unknown_problem": {"en": 'Unknown problem "{name}".', "zh": "没有名为 “{name}” 的题目。"},
    "error.did_you_mean": {"en": 'Did you mean "{name}"?', "zh": "你是不是想输入 “{name}”？"},
    "error.see_list": {"en": 'Run "grade list" to see them all.', "zh": "运行 “grade list” 查看全部题目。"},
    "error.seed_env": {
        "en": "{name}={value!r} is not an integer; set it to a whole number",
        "zh": "{name}={value!r} 不是整数；请设为一个整数",
    },
    "error.timeout_positive": {"en": "timeout must be positive, got {seconds:g} s", "zh": "超时时间必须为正数，收到的是 {seconds:g} 秒"},
    "error.problem_file_missing": {"en": "problem {name!r}: missing {path}", "zh": "题目 {name!r}：缺少文件 {path}"},
    "error.not_a_bank": {
        "en": "problem bank {root}: no problems/ folder in it (a bank holds problems/ and reference/)",
        "zh": "题库 {root}：其中没有 problems/ 文件夹（题库应包含 problems/ 和 reference/）",
    },
    "error.quiz_progress": {
        "en": "{path}: cannot save the quiz progress ({reason})",
        "zh": "{path}：无法保存答题进度（{reason}）",
    },
    # ---- the sandbox
    "sandbox.bad_mode": {"en": "--sandbox {mode!r}: choose {choices} or none", "zh": "--sandbox {mode!r}：请从 {choices} 或 none 中选择"},
    "sandbox.full_unavailable": {
        "en": "--sandbox full is not available on this machine: {problem}. "
        "Use --sandbox limits (no filesystem or network isolation) or fix the above.",
        "zh": "这台机器上无法使用 --sandbox full：{problem}。"
        "请改用 --sandbox limits（不隔离文件系统和网络），或先解决上述问题。",
    },
    "sandbox.no_seccomp": {
        "en": "sandbox: no seccomp filter ({reason}); learner code can start processes",
        "zh": "沙箱：没有 seccomp 过滤（{reason}）；学生代码可以启动新进程",
    },
    "sandbox.no_landlock": {
        "en": "sandbox: this kernel has no Landlock; learner code can write files outside its folder",
        "zh": "沙箱：这个内核没有 Landlock；学生代码可以写入其文件夹之外的文件",
    },
    "sandbox.degraded": {
        "en": "sandbox: {problem}; grading with --sandbox limits (learner code can read your files "
        "and reach the grader's memory). Pass --sandbox limits to silence this, or --sandbox full to require isolation.",
        "zh": "沙箱：{problem}；改用 --sandbox limits 评分（学生代码可以读取你的文件，也能触及评分器的内存）。"
        "传入 --sandbox limits 可不再显示此提示，传入 --sandbox full 则强制要求隔离。",
    },
    # ---- --format exercism: what a learner can run to see a test again
    "exercism.test_code": {
        "en": "grade {problem}  # check {check} (its inputs are hidden)",
        "zh": "grade {problem}  # 检查项 {check}（输入是隐藏的）",
    },
    # ---- grade classroom init
    "classroom.wrote": {"en": "Wrote {path}", "zh": "已写入 {path}"},
    "classroom.will_grade": {
        "en": "Classroom will grade {names} ({points} points). Commit and push to test it.",
        "zh": "Classroom 将为 {names} 评分（共 {points} 分）。提交并推送即可试运行。",
    },
    "classroom.installs": {"en": "The workflow installs {spec} ({how}).", "zh": "工作流将安装 {spec}（{how}）。"},
    "classroom.how_option": {"en": "--install", "zh": "--install 指定"},
    "classroom.how_index": {
        "en": "this grader came from a package index",
        "zh": "本评分器是从软件包索引安装的",
    },
    "classroom.how_vcs": {
        "en": "this grader was installed from {url}, pinned to commit {commit}",
        "zh": "本评分器安装自 {url}，固定在提交 {commit}",
    },
    "classroom.how_url": {"en": "this grader was installed from {url}", "zh": "本评分器安装自 {url}"},
    "classroom.how_wheel": {
        "en": "this grader's wheel, copied into the template as {copy}",
        "zh": "本评分器的 wheel，已复制到模板中的 {copy}",
    },
    "classroom.unreachable": {
        "en": "the workflow must pip-install the grader on a GitHub runner, but this grader was installed from "
        "{where}, which a runner cannot reach: pass --install with a source it can reach (a git URL such as "
        "git+https://github.com/ORG/attention-grader@v{version}, a wheel's URL, or attention-grader=={version} "
        "once it is published; see \"Publishing the grader\" in docs/integrations.md)",
        "zh": "工作流需要在 GitHub 运行器上用 pip 安装评分器，但本评分器安装自 {where}，运行器无法访问："
        "请用 --install 指定运行器能访问的来源（git 地址，如 git+https://github.com/ORG/attention-grader@v{version}；"
        "wheel 的网址；或发布之后的 attention-grader=={version}；见 docs/integrations.md 的“发布评分器”一节）",
    },
    "classroom.where_folder": {"en": "the folder {path}", "zh": "本地文件夹 {path}"},
    "classroom.where_file": {"en": "the file {path}, which no longer exists", "zh": "本地文件 {path}（已不存在）"},
    "classroom.where_unknown": {
        "en": "a place pip did not record (not installed with pip?)",
        "zh": "pip 没有记录的位置（不是用 pip 安装的？）",
    },
    "classroom.runner_clash": {
        "en": "problems {first} and {second} both become the reporter runner id {runner} (letters and digits "
        "only): put them in separate template repositories",
        "zh": "题目 {first} 和 {second} 的报告器 runner id 都会变成 {runner}（只能含字母和数字）：请把它们放到不同的模板仓库",
    },
    "classroom.not_graded": {
        "en": "{file} is missing, or grading it did not finish: run `grade {name}` locally",
        "zh": "{file} 不存在，或者评分没有完成：请在本地运行 `grade {name}`",
    },
    # ---- the engine: what happened to the learner's code
    "engine.stub_untouched": {
        "en": "{file} is still the stub: write your solution",
        "zh": "{file} 还是初始模板：请写出你的实现",
    },
    "engine.importing": {"en": "importing {file}", "zh": "导入 {file}"},
    "engine.import_timeout": {
        "en": "importing {file} did not finish within {seconds:g} s "
        "(is there a loop or a blocking call at module level?)",
        "zh": "导入 {file} 未在 {seconds:g} 秒内完成（模块顶层是否有循环或阻塞调用？）",
    },
    "engine.import_died": {"en": "while importing {file}, the process {reason}", "zh": "导入 {file} 时，进程{reason}"},
    "engine.not_loaded": {"en": "the learner's file could not be loaded", "zh": "无法加载你的文件"},
    "engine.not_implemented": {"en": "{entry} is not implemented yet", "zh": "{entry} 还没有实现"},
    "engine.missing_entry": {
        "en": "{file} does not define `{name}`: is it misspelled or missing?",
        "zh": "{file} 中没有定义 `{name}`：是拼错了还是漏写了？",
    },
    "engine.timeout": {"en": "did not finish within {seconds:g} s", "zh": "未在 {seconds:g} 秒内完成"},
    "engine.process_died": {"en": "the learner's process {reason}", "zh": "运行你代码的进程{reason}"},
    "engine.unreadable_reply": {
        "en": "returned data the grader cannot read ({detail})",
        "zh": "返回了评分器无法读取的数据（{detail}）",
    },
    "engine.could_not_judge": {
        "en": "the grader could not judge this answer ({detail}); "
        "if your output has the documented types and shapes, please report this",
        "zh": "评分器无法判定这个答案（{detail}）；如果你的输出类型和形状都符合题目说明，请报告这个问题",
    },
    "engine.nothing_implemented": {"en": "nothing implemented yet", "zh": "还没有实现任何函数"},
    "engine.forbidden_use": {"en": "{name} (line {line})", "zh": "{name}（第 {line} 行）"},
    "engine.forbidden_use_at": {"en": "{name} ({place}, line {line})", "zh": "{name}（{place}第 {line} 行）"},
    "engine.not_from_scratch": {
        "en": "uses {uses}: this problem asks you to write it from scratch",
        "zh": "用到了 {uses}：这道题要求你从零实现",
    },
    "engine.no_answer": {"en": "no answer yet", "zh": "尚未作答"},
    "engine.defines_none": {
        "en": "{file} defines none of {names} yet",
        "zh": "{file} 里还没有定义 {names} 中的任何一个",
    },
    "engine.scan_waits": {
        "en": "judged once {file} defines {names}",
        "zh": "等 {file} 定义了 {names} 之后再评判这一项",
    },
    # ---- reading the learner's files (grader/submission.py)
    "submission.too_large": {
        "en": "{file} is {size}; the grader reads learner files up to {limit}. A solution is a few KiB: "
        "remove pasted data, outputs or generated code, then submit again",
        "zh": "{file} 有 {size}，评分器只读取不超过 {limit} 的答题文件。一份解答通常只有几 KiB："
        "请删掉粘贴进去的数据、输出或自动生成的代码后再提交",
    },
    "submission.helpers_too_large": {
        "en": "the modules that {file} imports from its folder ({names}) are more than {limit} or {count} files "
        "together; keep helper modules small",
        "zh": "{file} 从同一文件夹导入的模块（{names}）合计超过 {limit} 或 {count} 个文件；请让辅助模块保持精简",
    },
    "submission.missing": {"en": "{file}: no such file", "zh": "{file}：文件不存在"},
    "submission.folder": {"en": "{file}: is a folder, not a file", "zh": "{file}：这是文件夹，不是文件"},
    "submission.not_utf8": {
        "en": "{file}: not UTF-8 text (byte {byte}); save it as UTF-8",
        "zh": "{file}：不是 UTF-8 文本（第 {byte} 字节）；请以 UTF-8 编码保存",
    },
    "submission.unreadable": {"en": "{file}: cannot read ({why})", "zh": "{file}：无法读取（{why}）"},
    # ---- the grader's own machinery failed: no verdict (exit code 3)
    "fault.grading": {
        "en": "the grader itself failed while grading {file} ({why}); this is not a verdict on your code. "
        "Run the same command again, and report it if it happens again",
        "zh": "评分器在评分 {file} 时自身出错（{why}），这不是对你代码的评判。请再运行一次同样的命令；"
        "如果再次出现，请报告这个问题",
    },
    "worker.exited": {"en": "its worker process exited", "zh": "评分工作进程退出了"},
    "worker.no_answer": {
        "en": "its worker process did not answer within {seconds:g} s",
        "zh": "评分工作进程在 {seconds:g} 秒内没有响应",
    },
    "worker.broken": {"en": "its worker process failed: {detail}", "zh": "评分工作进程出错：{detail}"},
    "cli.interrupted": {"en": "grade: interrupted (Ctrl-C)", "zh": "grade：已中断（Ctrl-C）"},
    # ---- grade batch: the class folder's layout
    # batch and merge: usage errors
    "batch.empty_bank": {"en": "no problems to grade: the bank is empty", "zh": "没有可评的题目：题库是空的"},
    "batch.bad_per_student": {"en": "--per-student {name}: choose one of {choices}", "zh": "--per-student {name}：请从 {choices} 中选择"},
    "batch.out_exists": {
        "en": "{out} already holds a batch: pass --resume to continue it, or choose another --out",
        "zh": "{out} 中已经有一次批量评分：加 --resume 继续它，或换一个 --out",
    },
    "batch.cannot_create_out": {"en": "{out}: cannot create the output folder ({reason})", "zh": "{out}：无法创建输出文件夹（{reason}）"},
    "batch.unsharded": {"en": "{out} holds an unsharded batch; resume it without --shard", "zh": "{out} 中是未分片的批量评分；继续时不要加 --shard"},
    "batch.other_shard": {"en": "{out} holds shard {shard}; resume it with --shard {shard}", "zh": "{out} 中是分片 {shard}；继续时请用 --shard {shard}"},
    "batch.workers_fail": {"en": "the batch workers keep failing to start; see {log}", "zh": "批量评分的工作进程一直无法启动；详见 {log}"},
    "batch.no_submissions": {
        "en": "{root}: no such folder (pass the folder holding one sub-folder per student)",
        "zh": "{root}：文件夹不存在（请传入每个学生各占一个子文件夹的那个文件夹）",
    },
    "merge.no_shards": {"en": "give the shards' --out folders to merge", "zh": "请给出要合并的各分片的 --out 文件夹"},
    "merge.other_bank": {
        "en": "the shards were graded with other problem files than this machine's bank; "
        "merge with the same problems (--problems-dir) as the shards used",
        "zh": "这些分片评分时用的题目文件与本机题库不同；请用与分片相同的题目（--problems-dir）来合并",
    },
    "merge.out_exists": {"en": "{out} already holds a batch; merge into a new --out folder", "zh": "{out} 中已经有一次批量评分；请合并到新的 --out 文件夹"},
    "merge.out_is_shard": {"en": "--out {out} is one of the shards; merge into a new folder", "zh": "--out {out} 是其中一个分片；请合并到新的文件夹"},
    "merge.student_twice": {"en": "student {name} is in two shards: {first} and {second}", "zh": "学生 {name} 出现在两个分片中：{first} 和 {second}"},
    "merge.different_n": {
        "en": "{folder} is shard {index}/{n} but {first} is shard {first_index}/{count}: shards of one batch share N",
        "zh": "{folder} 是分片 {index}/{n}，而 {first} 是分片 {first_index}/{count}：同一批次的分片 N 必须相同",
    },
    "merge.same_index": {"en": "{first} and {second} are both shard {index}/{count}", "zh": "{first} 和 {second} 都是分片 {index}/{count}"},
    "merge.disagree": {
        "en": "{folder} and {first} were graded with different {what} ({ours} vs {theirs}); regrade one of them",
        "zh": "{folder} 和 {first} 评分时的{what}不同（{ours} 与 {theirs}）；请重新评其中一个",
    },
    "merge.what_version": {"en": "grader version", "zh": "评分器版本"},
    "merge.what_problems": {"en": "problems", "zh": "题目"},
    "merge.what_seeds": {"en": "seeds", "zh": "随机种子"},
    "merge.what_sandbox": {"en": "sandbox", "zh": "沙箱"},
    "merge.what_bank": {"en": "problem bank (content hash)", "zh": "题库（内容哈希）"},
    "merge.missing": {
        "en": "shard {missing} of {count} missing: give all {count} shards' folders",
        "zh": "{count} 个分片中缺少第 {missing} 个：请给出全部 {count} 个分片的文件夹",
    },
    "merge.no_journal": {"en": "{folder}: no {journal}; it is not a finished shard", "zh": "{folder}：没有 {journal}；这不是一个已完成的分片"},
    "merge.no_result": {
        "en": "{folder} has no current result for {student} / {problem}: finish that shard with --resume, then merge",
        "zh": "{folder} 中没有 {student} / {problem} 的最新结果：先用 --resume 完成那个分片，再合并",
    },
    "shard.format": {
        "en": "--shard {value}: write it as i/N, for example 3/8 (shards are numbered 1 to N)",
        "zh": "--shard {value}：请写成 i/N，例如 3/8（分片编号从 1 到 N）",
    },
    "shard.range": {
        "en": "--shard {value}: i must be between 1 and N (shards are numbered 1 to N)",
        "zh": "--shard {value}：i 必须在 1 到 N 之间（分片编号从 1 到 N）",
    },
    "shard.no_folder": {"en": "{folder}: no such folder", "zh": "{folder}：文件夹不存在"},
    "shard.not_finished": {
        "en": "{folder} is not a finished shard (no {file}): grade it with `grade batch ... --shard i/N --out {folder}` "
        "(add --resume to finish an interrupted one)",
        "zh": "{folder} 不是已完成的分片（没有 {file}）：请用 `grade batch ... --shard i/N --out {folder}` 评分"
        "（中断过的加 --resume 完成）",
    },
    "shard.unreadable": {"en": "{path}: unreadable ({reason})", "zh": "{path}：无法读取（{reason}）"},
    "shard.unknown_format": {"en": "{path}: not a shard manifest this grader can read", "zh": "{path}：不是本评分器能读取的分片清单"},
    "dask.needs_sandbox": {
        "en": "--scheduler needs a sandbox (--sandbox auto, full or limits): learner code with "
        "network access could reach the Dask scheduler and run code on every worker",
        "zh": "--scheduler 需要沙箱（--sandbox auto、full 或 limits）：能联网的学生代码可能连上 Dask 调度器，"
        "并在每个 worker 上运行代码",
    },
    "dask.unreachable": {"en": "cannot reach the Dask scheduler at {address}: {reason}", "zh": "无法连接 {address} 上的 Dask 调度器：{reason}"},
    "dask.no_workers": {"en": "the Dask cluster at {address} has no workers ({reason})", "zh": "{address} 上的 Dask 集群没有 worker（{reason}）"},
    "dask.cancelled": {
        "en": "the Dask cluster at {address} cancelled the batch's tasks; what finished is saved: run the same command with --resume",
        "zh": "{address} 上的 Dask 集群取消了本次批量评分的任务；已完成的部分已保存：用同样的命令加上 --resume 再运行",
    },
    "gradescope.bad_hidden": {"en": "{name}={value!r}: must be one of {choices}", "zh": "{name}={value!r}：必须是 {choices} 之一"},
    "classroom.no_problems": {"en": "no problems to grade: name at least one with --problems", "zh": "没有要评分的题目：请用 --problems 至少指定一道"},
    "classroom.exists": {"en": "{workflow} already exists; pass --force to replace it", "zh": "{workflow} 已存在；如要替换请加 --force"},
    "classroom.cannot_write": {"en": "{directory}: cannot write the template ({reason})", "zh": "{directory}：无法写入模板（{reason}）"},
    # batch: data problems (the report's "Problems in the data")
    "batch.flag_stray": {
        "en": "{name} is not inside a student's folder; it is not graded",
        "zh": "{name} 不在任何学生的文件夹里；不会被评分",
    },
    "batch.flag_folder_unreadable": {"en": "the folder cannot be read ({reason})", "zh": "无法读取这个文件夹（{reason}）"},
    "batch.flag_empty": {"en": "the folder is empty", "zh": "文件夹是空的"},
    "batch.flag_no_files": {"en": "no learner files (expected {expected})", "zh": "没有答题文件（应为 {expected}）"},
    "batch.flag_ambiguous": {"en": "graded {graded}; also found {others}", "zh": "评分的是 {graded}；另外还找到了 {others}"},
    "batch.flag_symlink": {
        "en": "{file} is a symbolic link; links are not followed, so it is not graded",
        "zh": "{file} 是符号链接；不会跟随链接，因此不评分",
    },
    "batch.flag_unreadable": {"en": "{file} cannot be read ({reason})", "zh": "无法读取 {file}（{reason}）"},
    # batch: progress and summary
    "batch.progress": {"en": "grading", "zh": "评分中"},
    "batch.eta": {"en": "ETA", "zh": "预计剩余"},
    "batch.summary": {
        "en": "{students} students, {results} results ({graded} graded now) in {seconds:.1f} s; mean {mean:.1f}%; "
        "{flags} data problems flagged{errors}. Wrote {files}",
        "zh": "{students} 名学生，{results} 个结果（本次评了 {graded} 个），用时 {seconds:.1f} 秒；平均 {mean:.1f}%；"
        "标记了 {flags} 个数据问题{errors}。已写出 {files}",
    },
    "batch.merge_summary": {
        "en": "{shards} shards, {students} students, {results} results; mean {mean:.1f}%; {flags} data problems "
        "flagged{errors}. Wrote {files}",
        "zh": "{shards} 个分片，{students} 名学生，{results} 个结果；平均 {mean:.1f}%；标记了 {flags} 个数据问题{errors}。"
        "已写出 {files}",
    },
    "batch.grader_error_one": {
        "en": "; {n} grader error (not grades; run again with --resume to grade them): {shown}{more}",
        "zh": "；{n} 个评分器错误（不是成绩；加 --resume 再运行一次即可重新评分）：{shown}{more}",
    },
    "batch.grader_error_many": {
        "en": "; {n} grader errors (not grades; run again with --resume to grade them): {shown}{more}",
        "zh": "；{n} 个评分器错误（不是成绩；加 --resume 再运行一次即可重新评分）：{shown}{more}",
    },
    "batch.and_more": {"en": " and {n} more", "zh": " 等，另有 {n} 个"},
    "batch.stopping": {"en": "Stopping: ending the grading processes…", "zh": "正在停止：结束各评分进程……"},
    "batch.interrupted": {"en": "Interrupted: {reason}", "zh": "已中断：{reason}"},
    "batch.interrupted_after": {
        "en": "{done} of {total} results are saved in {out}; run the same command with --resume to grade the rest",
        "zh": "{total} 个结果中已有 {done} 个保存在 {out} 中；用同样的命令加上 --resume 评完其余的",
    },
    # batch: report.html
    "report.title": {"en": "Batch report: {name}", "zh": "批量评分报告：{name}"},
    "report.meta_grader": {"en": "grader", "zh": "评分器"},
    "report.meta_problems": {"en": "problems", "zh": "题目"},
    "report.meta_results": {"en": "results", "zh": "结果数"},
    "report.meta_duplicates": {"en": "near-duplicate groups", "zh": "近似重复的组数"},
    "report.card_students": {"en": "students", "zh": "学生"},
    "report.card_mean": {"en": "mean", "zh": "平均分"},
    "report.card_median": {"en": "median", "zh": "中位数"},
    "report.card_full": {"en": "full marks", "zh": "满分人数"},
    "report.card_grader_errors": {"en": "grader errors", "zh": "评分器错误"},
    "report.grader_errors": {"en": "Grader errors: not grades", "zh": "评分器错误：不是成绩"},
    "report.grader_errors_note": {
        "en": "The grader itself failed on {n} submission(s); this says nothing about the students' code, and they "
        "are left out of every figure below. Run the same grade batch command again with --resume to grade them again.",
        "zh": "评分器自身在 {n} 份提交上出错了；这与学生的代码无关，下面的所有统计都不包含它们。"
        "用同样的 grade batch 命令加上 --resume 再运行一次，即可重新评分。",
    },
    "report.more_errors": {"en": "… and {n} more (see results.jsonl)", "zh": "……还有 {n} 个（见 results.jsonl）"},
    "report.overall": {"en": "Overall (percent of all points)", "zh": "总体（占全部分值的百分比）"},
    "report.graded": {"en": "{name} ({n} graded)", "zh": "{name}（已评 {n} 份）"},
    "report.distribution": {"en": "Score distribution", "zh": "分数分布"},
    "report.pass_rates": {
        "en": "Check pass rates (lowest first: what the class fails most)",
        "zh": "各检查项通过率（从低到高：全班最常出错的地方）",
    },
    "report.diagnoses": {"en": "Most frequent mistakes (what to teach next)", "zh": "最常见的错误（下一步该讲什么）"},
    "report.no_diagnoses": {"en": "No named mistake was recognised.", "zh": "没有识别出任何已知的常见错误。"},
    "report.slowest": {"en": "Slowest submissions", "zh": "最慢的提交"},
    "report.students": {"en": "Students", "zh": "学生"},
    "report.details": {"en": "Per-student detail", "zh": "每名学生的详情"},
    "report.details_limit": {
        "en": "Shown for the first {n} students; see results.jsonl for all.",
        "zh": "只列出前 {n} 名学生；全部结果见 results.jsonl。",
    },
    "report.grader_error_not_grade": {"en": "grader error, not a grade", "zh": "评分器错误，不是成绩"},
    "report.mistake_note": {"en": "[mistake: {title}]", "zh": "［错因：{title}］"},
    "report.duplicates": {"en": "Near-duplicate submissions", "zh": "近似重复的提交"},
    "report.no_duplicates": {
        "en": "None: no two submissions are the same after normalising names, comments and layout.",
        "zh": "无：统一变量名、去掉注释并规范格式之后，没有两份提交是相同的。",
    },
    "report.duplicates_note": {
        "en": "Same code after renaming identifiers and removing comments, docstrings and formatting "
        "(the untouched starter file is ignored).",
        "zh": "重命名标识符、去掉注释、文档字符串和格式差异之后代码相同（未改动的初始文件不计）。",
    },
    "report.pairs_among": {"en": "{pairs} pairs among {n} students", "zh": "{n} 名学生之间共 {pairs} 对"},
    "report.more_groups": {"en": "… and {n} more groups", "zh": "……还有 {n} 组"},
    "report.data": {"en": "Problems in the data", "zh": "数据中的问题"},
    "report.none": {"en": "None.", "zh": "无。"},
    "report.review": {"en": "Answers to review: {count}{more}", "zh": "需要复核的答案：{count} 份{more}"},
    "report.review_first": {"en": " (the first {n} shown)", "zh": "（只列出前 {n} 份）"},
    "report.review_note": {
        "en": "The grader is unsure of these free-text verdicts. Fill in points and comment in review.csv and run "
        "grade batch ... --resume --overrides review.csv.",
        "zh": "评分器对这些简答题的判定没有把握。请在 review.csv 中填写分数和评语，然后运行 "
        "grade batch ... --resume --overrides review.csv。",
    },
    "report.th_question": {"en": "Question", "zh": "题目"},
    "report.th_confidence": {"en": "Confidence", "zh": "置信度"},
    "report.th_why": {"en": "Why", "zh": "原因"},
    "report.th_answer": {"en": "Answer", "zh": "答案"},
    "report.th_student": {"en": "Student", "zh": "学生"},
    "report.th_problem": {"en": "Problem", "zh": "题目"},
    "report.th_what_failed": {"en": "What failed", "zh": "出错内容"},
    "report.th_mistake": {"en": "Mistake", "zh": "错因"},
    "report.th_students": {"en": "Students", "zh": "学生"},
    "report.th_share": {"en": "Share", "zh": "占比"},
    "report.th_hint": {"en": "Hint", "zh": "提示"},
    "report.th_seconds": {"en": "Seconds", "zh": "秒"},
    "report.th_total": {"en": "Total", "zh": "总分"},
    "report.th_status": {"en": "Status", "zh": "状态"},
    "report.th_check": {"en": "Check", "zh": "检查项"},
    "report.th_points": {"en": "Points", "zh": "得分"},
    "report.th_message": {"en": "Message", "zh": "信息"},
    "report.th_pairs": {"en": "Pairs", "zh": "配对"},
    "report.th_what": {"en": "What", "zh": "问题"},
    "batch.one_learner_folder": {
        "en": "{root} looks like one learner's folder (it holds {files} but no student folders): grade batch "
        "expects one folder per student, {root}/<student>/{example}. To grade one learner, run: grade all --dir {root}",
        "zh": "{root} 看起来是一名学员自己的文件夹（里面有 {files}，但没有学员子文件夹）：grade batch 要求每名学员"
        "一个文件夹，即 {root}/<学员>/{example}。只评一名学员，请运行：grade all --dir {root}",
    },
    "batch.no_students": {
        "en": "{root} holds no student folders: grade batch expects one folder per student, {root}/<student>/{example}",
        "zh": "{root} 中没有学员文件夹：grade batch 要求每名学员一个文件夹，即 {root}/<学员>/{example}",
    },
    # ---- grade batch: results that are no grade
    "batch.failed_twice": {
        "en": "{why}, twice (on two fresh worker processes)",
        "zh": "{why}，连续两次（换了两个新的工作进程）",
    },
    "batch.worker_bug": {"en": "the grading worker failed ({detail})", "zh": "评分工作进程出错（{detail}）"},
    "batch.grader_failed": {"en": "the grader failed on this file: {detail}", "zh": "评分器处理此文件时出错：{detail}"},
    "batch.grader_error_note": {
        "en": "{problem}: grader error, not a grade ({detail}); run grade batch again with --resume",
        "zh": "{problem}：评分器出错，不是成绩（{detail}）；请加上 --resume 重新运行 grade batch",
    },
    # how a learner's process ended (after "the process ...")
    "exit.SIGSEGV": {"en": "crashed with a segmentation fault ({signal})", "zh": "因段错误崩溃（{signal}）"},
    "exit.SIGBUS": {"en": "crashed (bus error) ({signal})", "zh": "崩溃了（总线错误，{signal}）"},
    "exit.SIGABRT": {"en": "aborted ({signal})", "zh": "异常中止（{signal}）"},
    "exit.SIGXCPU": {"en": "used up its CPU-time limit ({signal})", "zh": "用完了 CPU 时间限额（{signal}）"},
    "exit.SIGKILL": {"en": "was killed (memory or CPU limit) ({signal})", "zh": "被终止了（超出内存或 CPU 限额，{signal}）"},
    "exit.SIGSYS": {"en": "made a forbidden system call ({signal})", "zh": "发起了被禁止的系统调用（{signal}）"},
    "exit.SIGXFSZ": {"en": "wrote a file larger than the limit ({signal})", "zh": "写入的文件超过了大小限制（{signal}）"},
    "exit.signal": {"en": "was killed ({signal})", "zh": "被终止了（{signal}）"},
    "exit.status": {
        "en": "exited with status {code} (sys.exit or os._exit in the learner's code?)",
        "zh": "以状态码 {code} 退出了（代码里是否调用了 sys.exit 或 os._exit？）",
    },
    "exit.unknown": {"en": "ended unexpectedly", "zh": "意外结束了"},
    "exit.output_flood": {"en": "printed more than {mib} MiB of output", "zh": "打印了超过 {mib} MiB 的输出"},
    # an exception in the learner's code
    "learner.raised": {"en": "{entry} raised {type}", "zh": "{entry} 抛出了 {type}"},
    "learner.raised_detail": {"en": ": {detail}", "zh": "：{detail}"},
    "learner.raised_at": {"en": " at {file}, line {line}", "zh": "（{file} 第 {line} 行）"},
    # ---- static checks of the learner's source
    "static.syntax_error": {
        "en": "SyntaxError in {file}, line {line}: {detail}",
        "zh": "{file} 第 {line} 行有语法错误（SyntaxError）：{detail}",
    },
    "static.cannot_compile": {"en": "{file} cannot be compiled: {detail}", "zh": "{file} 无法编译：{detail}"},
    # ---- Jupyter: notebooks, the %%grade cell magic, the starter notebook (grader/notebook/)
    "notebook.needs_extra": {
        "en": "{what} needs the optional jupyter extra ({module} is not installed): pip install {extra}",
        "zh": "{what}需要可选的 jupyter 扩展（没有安装 {module}）：pip install {extra}",
    },
    "notebook.reading": {"en": "Reading the notebook {file}", "zh": "读取 Jupyter 笔记本 {file} 时"},
    "notebook.the_magic": {"en": "The %%grade cell magic", "zh": "使用 %%grade 单元格魔法命令"},
    "notebook.corrupt": {
        "en": "{file} is not a Jupyter notebook the grader can read ({reason}): open it in Jupyter and save it "
        "again, or grade a .py file",
        "zh": "{file} 不是评分器能读取的 Jupyter 笔记本（{reason}）：请在 Jupyter 中打开并重新保存，或者改为提交 .py 文件",
    },
    "notebook.file_cell": {"en": "{file}, cell {cell}", "zh": "{file} 第 {cell} 个单元格"},
    "notebook.cell": {"en": "cell {cell}", "zh": "第 {cell} 个单元格"},
    "notebook.this_cell": {"en": "this cell", "zh": "本单元格"},
    "notebook.left_out": {
        "en": "Not graded (IPython, not Python): {items}",
        "zh": "未参与评分（这些是 IPython 语法，不是 Python）：{items}",
    },
    "notebook.left_line": {"en": "{place}, line {line}: {code}", "zh": "{place}第 {line} 行：{code}"},
    "notebook.left_cell": {"en": "{place} (a {magic} cell)", "zh": "{place}（{magic} 单元格）"},
    "notebook.left_more": {"en": "and {n} more", "zh": "另有 {n} 处"},
    "notebook.magic_usage": {
        "en": "usage: %%grade NAME [--lang en|zh] [--seed N] [--timeout SECONDS] [--sandbox MODE] [-v] [--no-history]: {problem}",
        "zh": "用法：%%grade NAME [--lang en|zh] [--seed N] [--timeout SECONDS] [--sandbox MODE] [-v] [--no-history]：{problem}",
    },
    "notebook.grading_failed": {
        "en": "the grading process ended without a result ({detail}); run the cell again",
        "zh": "评分进程没有给出结果就结束了（{detail}）；请再运行一次这个单元格",
    },
    "notebook.footer": {
        "en": "graded in a separate process, learner code in the sandbox (isolation {isolation}) · seed {seed} · "
        "{ms} ms",
        "zh": "在单独的评分进程中评分，你的代码在沙箱中运行（隔离 {isolation}）· 种子 {seed} · {ms} 毫秒",
    },
    "notebook.starter_howto": {
        "en": "Write your solution in the `%%grade {name}` cell below and run that cell: it is graded in a sandbox, "
        "not run in this notebook, and the checks appear under it. In Colab, run the install cell first.",
        "zh": "在下面的 `%%grade {name}` 单元格中写出你的实现，然后运行这个单元格：它会在沙箱中评分（不会在本笔记本里运行），"
        "检查结果显示在它下面。在 Colab 中请先运行安装单元格。",
    },
    "notebook.starter_install": {
        "en": "Colab or a fresh environment: install the grader (skip this where it is installed already).",
        "zh": "在 Colab 或新环境中：先安装评分器（已经安装过的话可以跳过）。",
    },
    "notebook.starter_no_install": {
        "en": "Install the grader here: replace this example with where your course publishes it, then remove the #.",
        "zh": "在这里安装评分器：把下面的示例换成你的课程发布评分器的地址，然后去掉开头的 #。",
    },
    "notebook.install_unknown": {
        "en": "{target}: its install cell is a commented example: this grader was not installed from a source Colab can "
        "reach (a package index, a git or archive URL); pass --install SPEC, e.g. "
        "git+https://github.com/ORG/attention-grader@v{version}",
        "zh": "{target}：其中的安装单元格只是注释掉的示例：本评分器不是从 Colab 能访问的来源（软件包索引、git 或压缩包 URL）安装的；"
        "请用 --install SPEC 指定，例如 git+https://github.com/ORG/attention-grader@v{version}",
    },
    "notebook.not_run_here": {
        "en": "This cell was graded, not run here: to use its functions in other cells, run the code in a cell "
        "without the %%grade line.",
        "zh": "这个单元格只参与评分，没有在这里运行：如果要在其他单元格中使用这些函数，请把代码放在一个没有 %%grade 行的单元格中运行。",
    },
    # ---- comparing the learner's arrays with the reference (grader/compare.py)
    "compare.expected_tensor": {"en": "{name}: expected a torch.Tensor, got {got}", "zh": "{name}：应为 torch.Tensor，实际是 {got}"},
    "compare.expected_ndarray": {"en": "{name}: expected a numpy array, got {got}", "zh": "{name}：应为 numpy 数组，实际是 {got}"},
    "compare.expected_array": {"en": "{name}: expected an array, got {got}", "zh": "{name}：应为数组，实际是 {got}"},
    "compare.shape": {"en": "{name} has shape {actual}, expected {expected}", "zh": "{name} 的形状是 {actual}，应为 {expected}"},
    "compare.dtype": {
        "en": "{name} has dtype {actual}, expected {expected} (the input's dtype)",
        "zh": "{name} 的 dtype 是 {actual}，应为 {expected}（与输入的 dtype 相同）",
    },
    "compare.n_nan": {"en": "{n} NaN", "zh": "{n} 个 NaN"},
    "compare.n_inf": {"en": "{n} inf", "zh": "{n} 个 inf"},
    "compare.not_finite": {
        "en": "{name} contains {what} where the reference is finite (first at index {where})",
        "zh": "{name} 在参考答案为有限值的位置出现了 {what}（第一个在下标 {where}）",
    },
    "compare.differs": {
        "en": "{name} differs from the reference in {n_bad} of {n} elements: max abs error {abs_err} at {worst}"
        "{relative}, first at {first}",
        "zh": "{name} 与参考答案不一致：{n} 个元素中有 {n_bad} 个不同，最大绝对误差 {abs_err}（位于 {worst}）"
        "{relative}，第一个不同的位置是 {first}",
    },
    "compare.relative": {"en": ", max rel error {rel_err}", "zh": "，最大相对误差 {rel_err}"},
})

#: ``text(key, **params)``: entry ``key`` in every language (a Text, for results and errors).
text = MESSAGES.text
#: ``t(key, lang=None, **params)``: entry ``key`` as a string in ``lang`` (default: the current language).
t = MESSAGES.say
