"""Every sentence the qa grader says to a learner, in English and Chinese.

``grade qa`` reports in English (like every other problem); ``grade quiz --lang zh`` in Chinese.
Keys are stable; parameters are filled with :meth:`str.format`.
"""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # reading the answer
    "not_a_number": {
        "en": "could not read {raw!r} as a number (write 1050624, 1,050,624, 1e-3 or 3/4)",
        "zh": "无法把 {raw!r} 读成数字（可以写 1050624、1,050,624、1e-3 或 3/4）",
    },
    "decimal_comma": {
        "en": "{raw!r}: use a dot for decimals (0.5), commas only between groups of three digits",
        "zh": "{raw!r}：小数请用小数点（0.5），逗号只用于三位一组的千位分隔",
    },
    "not_finite": {"en": "{raw!r} is not a finite number", "zh": "{raw!r} 不是有限的数"},
    "number_not_list": {"en": "this question wants one number, not a list", "zh": "这道题只要一个数，不是列表"},
    "not_a_vector": {
        "en": "could not read {raw!r} as numbers (write [0.28, 0.58, 0.14])",
        "zh": "无法把 {raw!r} 读成一组数（可以写 [0.28, 0.58, 0.14]）",
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
    "none": {"en": "nothing", "zh": "无"},
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
    "quiz_form_numeric": {"en": "a number: 64, 1,050,624, 1e-3, 3/4", "zh": "填一个数：64、1,050,624、1e-3、3/4"},
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
    "quiz_skipped": {"en": "Skipped.", "zh": "已跳过。"},
    "quiz_try_again": {"en": "try again, or press Enter to skip", "zh": "请重新作答，或直接回车跳过"},
    "quiz_topic_col": {"en": "Topic", "zh": "主题"},
    "quiz_asked_col": {"en": "Answered", "zh": "已答"},
    "quiz_score_col": {"en": "Score", "zh": "得分"},
    "quiz_total": {"en": "Total", "zh": "合计"},
    "quiz_nothing": {"en": "No questions answered.", "zh": "没有作答任何题目。"},
    "quiz_saved": {
        "en": "Progress saved in {path}; {count} question(s) to review next time.",
        "zh": "进度已保存到 {path}；下次优先复习 {count} 题。",
    },
}


def say(key: str, lang: str = "en", **params: object) -> str:
    """The message ``key`` in ``lang`` (English when no Chinese text exists), with ``params`` filled in."""
    texts = MESSAGES[key]
    return texts.get(lang, texts["en"]).format(**params)
