"""``--format junit``: JUnit XML, as CI servers (Jenkins, GitLab, GitHub test reporters) read it.

One ``<testsuite>`` per problem and one ``<testcase>`` per check. A check that lost points is a
``<failure>`` (wrong answer, not attempted, skipped behind a failed check) or an ``<error>``
(the learner's code raised or timed out), with the feedback as its message (a file that could not
be graded says why once, in the suite's ``<system-err>``, with the next step); nothing that lost
points is reported as ``<skipped>``, so no CI counts it as green. The grader version, seed and
points are ``<properties>``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from grader.messages import t
from grader.render.feedback import check_feedback, learner_output, next_step, not_run, plain, points
from grader.results import ProblemResult, Status

OUTPUT_LIMIT = 4000  # characters of learner output kept per testcase
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    """``text`` without the characters XML 1.0 cannot hold (control bytes, lone surrogates)."""
    return _NOT_XML.sub("\ufffd", text)


def _seconds(ms: int) -> str:
    return f"{ms / 1000:.3f}"


def junit_tree(results: list[ProblemResult], *, verbose: bool = False) -> ET.Element:
    suites = ET.Element("testsuites", name="attention-grader", time=_seconds(sum(r.duration_ms for r in results)))
    counts = {"tests": 0, "failures": 0, "errors": 0}
    for result in results:
        failures = sum(1 for c in result.checks if c.status not in (Status.PASS, Status.ERROR, Status.TIMEOUT))
        errors = sum(1 for c in result.checks if c.status in (Status.ERROR, Status.TIMEOUT))
        suite = ET.SubElement(
            suites, "testsuite", name=result.problem, tests=str(len(result.checks)),
            failures=str(failures), errors=str(errors), skipped="0", time=_seconds(result.duration_ms),
        )
        counts["tests"] += len(result.checks)
        counts["failures"] += failures
        counts["errors"] += errors
        properties = ET.SubElement(suite, "properties")
        for name, value in (
            ("grader_version", result.grader_version),
            ("seed", str(result.seed)),
            ("isolation", result.isolation),
            ("score", points(result.score)),
            ("max_score", points(result.max_score)),
        ):
            ET.SubElement(properties, "property", name=name, value=value)
        for check in result.checks:
            case = ET.SubElement(
                suite, "testcase", classname=result.problem, name=f"{check.id}: {xml_text(check.title.get())}",
                time=_seconds(check.duration_ms),
            )
            if check.status is not Status.PASS:
                tag = "error" if check.status in (Status.ERROR, Status.TIMEOUT) else "failure"
                feedback = xml_text(check_feedback(check, verbose=verbose) or (not_run(result) if result.error else ""))
                first_line = feedback.split("\n", 1)[0]
                element = ET.SubElement(
                    case, tag, type=check.status.value,
                    message=first_line + " " + t("feedback.points_of", score=points(check.score), max_score=points(check.max_score)),
                )
                element.text = feedback
            output = learner_output(check, limit=OUTPUT_LIMIT, verbose=verbose)
            if output:
                ET.SubElement(case, "system-out").text = xml_text(output)
        if result.error:
            said = plain(result.error.get()) + "\n" + (next_step(result) or "")
            ET.SubElement(suite, "system-err").text = xml_text(said)
    for key, value in counts.items():
        suites.set(key, str(value))
    return suites


def render_junit(results: list[ProblemResult], *, verbose: bool = False, combined: bool = False) -> str:
    tree = junit_tree(results, verbose=verbose)
    ET.indent(tree)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(tree, encoding="unicode")
