"""Every sentence the qa grader says to a learner, in English and Chinese.

One of the grader's catalogues (:class:`grader.i18n.Catalogue`, see docs/i18n.md): keys are
stable, parameters are filled with :meth:`str.format`, and tests/test_i18n.py proves every entry
complete. ``grade qa`` and ``grade quiz`` speak the chosen language.
"""

from __future__ import annotations

from grader.i18n import Catalogue

MESSAGES = Catalogue("grader.qa.messages", {
    # reading the answer
    "not_a_number": {
        "en": "could not read {raw!r} as a number (write 12345, 12,345, 1e-3 or 3/4)",
        "zh": "无法把 {raw!r} 读成数字（可以写 12345、12,345、1e-3 或 3/4）",
    },
    "decimal_comma": {
        "en": "{raw!r}: use a dot for decimals (0.3), commas only between groups of three digits",
        "zh": "{raw!r}：小数请用小数点（0.3），逗号只用于三位一组的千位分隔",
    },
    "not_finite": {"en": "{raw!r} is not a finite number", "zh": "{raw!r} 不是有限的数"},
    "number_not_list": {"en": "this question wants one number, not a list", "zh": "这道题只要一个数，不是列表"},
    "not_a_vector": {
        "en": "could not read {raw!r} as numbers (write [0.1, 0.2, 0.7])",
        "zh": "无法把 {raw!r} 读成一组数（可以写 [0.1, 0.2, 0.7]）",
    },
    "not_letters": {
        "en": "could not read {raw!r} as option letters (choose from {options})",
        "zh": "无法把 {raw!r} 读成选项字母（请从 {options} 中选）",
    },
    "unknown_letter": {
        "en": "there is no option {letter} (choose from {options})",
        "zh": "没有选项 {letter}（请从 {options} 中选）",
    },
    "one_letter": {"en": "choose exactly one of {options}", "zh": "请只选一个：{options}"},
    # judging it
    "wrong_choice": {"en": "{answer} is not the right option", "zh": "{answer} 不是正确选项"},
    "multi_partial": {
        "en": "{right} of {total} right options chosen, {wrong} wrong one(s) chosen",
        "zh": "选对了 {total} 个正确选项中的 {right} 个，另选了 {wrong} 个错误选项",
    },
    "number_high": {"en": "{answer} is too high", "zh": "{answer} 偏大"},
    "number_low": {"en": "{answer} is too low", "zh": "{answer} 偏小"},
    "vector_length": {"en": "expected {expected} numbers, got {got}", "zh": "应有 {expected} 个数，你给了 {got} 个"},
    "vector_off": {
        "en": "entries {entries} are not right (tolerance {tol})",
        "zh": "第 {entries} 项不对（容差 {tol}）",
    },
    "text_score": {"en": "found: {found}; missing: {missing}", "zh": "已提到：{found}；缺少：{missing}"},
    "text_repeats": {
        "en": "the answer only repeats words of the question; say why or how in your own words",
        "zh": "答案只是重复了题目中的词，请用自己的话说明原因或做法",
    },
    "text_mistake": {"en": "the answer also says something wrong", "zh": "答案中还有错误的说法"},
    "text_incomplete": {
        "en": "an answer that leaves out an idea earns less than half the points",
        "zh": "缺了要点的答案，得分不到一半",
    },
    "text_keywords": {
        "en": "a list of words is not an answer: say what happens and why, in a sentence",
        "zh": "只列出词语不算回答：请用一句话说明发生了什么、为什么",
    },
    "text_inverted": {
        "en": "the answer states the opposite of: {ideas}",
        "zh": "答案的说法与此相反：{ideas}",
    },
    "text_doubt_negated": {
        "en": "a claim of the rubric appears negated; the grader cannot tell whether it is meant",
        "zh": "答案中否定了评分要点中的某个说法，评分程序无法判断其本意",
    },
    "text_doubt_contradiction": {
        "en": "the answer states an idea and its opposite",
        "zh": "答案同时给出了某个要点及其相反的说法",
    },
    "text_doubt_mixed": {
        "en": "right and wrong claims are mixed; the partial credit is a judgement call",
        "zh": "答案中正确与错误的说法混在一起，部分得分需要人工判断",
    },
    "text_doubt_unrecognised": {
        "en": "much of the answer matched no idea of the rubric; it may say the missing ideas in other words",
        "zh": "答案中有不少内容与评分要点都不匹配，可能用别的说法讲到了缺少的要点",
    },
    "text_on_trust": {
        "en": "not recognised: {ideas}; the answer says more on the subject than the ideas found, so it may "
              "state this in other words: full points on trust, for an instructor to confirm",
        "zh": "没有识别出：{ideas}；答案还讲了不少相关内容，可能换了说法讲到这一点，因此暂给满分，待老师复核确认",
    },
    "text_doubt_on_trust": {
        "en": "full points were given on trust: an idea was not recognised, and the answer may state it in other words",
        "zh": "满分是暂给的：有要点没有识别出，答案可能换了说法讲到它",
    },
    "none": {"en": "nothing", "zh": "无"},
    "reveal_answer": {"en": "Answer: {answer}. {why}", "zh": "答案：{answer}。{why}"},
    # grade quiz
    "quiz_start": {
        "en": "{count} question(s){topic}. Press Enter to skip a question, type :q to stop.",
        "zh": "共 {count} 题{topic}。直接回车跳过，输入 :q 结束。",
    },
    "quiz_topic": {"en": " on {topic}", "zh": "（{topic}）"},
    "quiz_review": {"en": "{count} missed last time come first.", "zh": "上次答错的 {count} 题优先。"},
    "quiz_points": {"en": "{points} pt", "zh": "{points} 分"},
    "quiz_prompt": {"en": "Your answer", "zh": "你的答案"},
    "quiz_form_choice": {"en": "one letter", "zh": "填一个字母"},
    "quiz_form_multi": {"en": "one or more letters, e.g. A C", "zh": "填一个或多个字母，如 A C"},
    "quiz_form_numeric": {"en": "a number: 12,345, 0.3, 1e-3, 3/4", "zh": "填一个数：12,345、0.3、1e-3、3/4"},
    "quiz_form_vector": {"en": "numbers separated by commas", "zh": "用逗号分隔的一组数"},
    "quiz_form_text": {"en": "a sentence or two, English or 中文", "zh": "一两句话，中文或英文均可"},
    "quiz_unit": {"en": "in {unit}", "zh": "单位 {unit}"},
    "quiz_right": {"en": "Right", "zh": "正确"},
    "quiz_partly": {"en": "Partly right", "zh": "部分正确"},
    "quiz_wrong": {"en": "Not right", "zh": "不正确"},
    "quiz_answer": {"en": "Answer", "zh": "答案"},
    "quiz_model_answer": {"en": "A full answer", "zh": "参考答案"},
    "quiz_mistake": {"en": "Mistake", "zh": "常见错误"},
    "quiz_why": {"en": "Why", "zh": "解析"},
    "quiz_source": {"en": "Source", "zh": "出处"},
    "quiz_skipped": {"en": "Skipped: it comes back first next time.", "zh": "已跳过：下次会优先再问这一题。"},
    "quiz_try_again": {"en": "try again, or press Enter to skip", "zh": "请重新作答，或直接回车跳过"},
    "quiz_topic_col": {"en": "Topic", "zh": "主题"},
    "quiz_asked_col": {"en": "Answered", "zh": "已答"},
    "quiz_score_col": {"en": "Score", "zh": "得分"},
    "quiz_total": {"en": "Total", "zh": "合计"},
    "quiz_nothing": {"en": "No questions answered.", "zh": "没有作答任何题目。"},
    "quiz_unsure": {
        "en": "The grader is not sure of this verdict: {why}. Compare with the full answer below.",
        "zh": "评分程序对这个判定没有把握：{why}。请对照下面的参考答案。",
    },
    "quiz_mark_prompt": {
        "en": "Enter to go on, or r to mark this answer for review",
        "zh": "直接回车继续，输入 r 把这个答案标记为待复核",
    },
    "quiz_marked_one": {"en": "Marked for review.", "zh": "已标记为待复核。"},
    "quiz_marked": {
        "en": "{count} answer(s) marked for review this time; they are listed under marked_for_review in {path}.",
        "zh": "本次有 {count} 个答案标记为待复核，记录在 {path} 的 marked_for_review 中。",
    },
    # qa.yaml lines that do not answer a question as written (the rest of the file is graded)
    "file_answered_twice": {
        "en": "{file}, lines {first} and {second}: two different answers to {id}; keep one",
        "zh": "{file} 第 {first} 行和第 {second} 行：{id} 有两个不同的答案；请只保留一个",
    },
    "file_unknown_id": {
        "en": '{file}, line {line}: "{written}" is not a question id (did you mean {id}?), so that answer was not '
              "graded; write it after {id}:",
        "zh": "{file} 第 {line} 行：“{written}” 不是题目 id（是不是想写 {id}？），所以那个答案没有评分；请把它写在 {id}: 后面",
    },
    "file_stray_line": {
        "en": '{file}, line {line}: "{written}" is not a question id, so that answer was not graded; write each '
              "answer after its question's id ({id}:)",
        "zh": "{file} 第 {line} 行：“{written}” 不是题目 id，所以那个答案没有评分；请把答案写在对应题目的 id 后面（{id}:）",
    },
    "quiz_saved": {
        "en": "Progress saved in {path}; {count} question(s) to review next time.",
        "zh": "进度已保存到 {path}；下次优先复习 {count} 题。",
    },
})


def say(key: str, lang: str | None = None, **params: object) -> str:
    """The message ``key`` in ``lang`` (default: the current language), with ``params`` filled in."""
    return MESSAGES.say(key, lang, **params)
