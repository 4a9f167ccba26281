"""Languages: which one to speak, bilingual text, and message catalogues (see docs/i18n.md).

* :func:`resolve` picks the language: ``--lang``, else ``GRADER_LANG``, else the locale
  (``LC_ALL``, ``LC_MESSAGES``, ``LANG``: the first one set decides; ``zh...`` means Chinese),
  else English. The CLI resolves it once and calls :func:`use`; renderers read :func:`current`.
* :class:`Text` is one sentence in every language (``{en: ..., zh: ...}`` in YAML). Results,
  specs and errors hold Text; only a renderer picks the language, so a result graded once can be
  shown in either.
* :class:`Catalogue` holds sentences of the code by key (``grader.messages``: ``text()`` and
  ``t()``); its entries are checked by ``tests/test_i18n.py`` (every language present, the same
  placeholders). There is no fallback: a key or a language that is missing raises.
"""

from __future__ import annotations

import dataclasses
import os
import string
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping

#: The languages every learner-facing text is written in; the first is the default.
LANGS = ("en", "zh")
DEFAULT = "en"
#: Environment variable that chooses the language (after ``--lang``, before the locale).
LANG_ENV = "GRADER_LANG"
#: Locale variables, in the order POSIX consults them for messages.
LOCALE_ENVS = ("LC_ALL", "LC_MESSAGES", "LANG")

_current: str | None = None


def _normalise(value: str) -> str | None:
    """``zh_CN.UTF-8``, ``zh-Hans``, ``ZH`` -> ``zh``; ``en_US`` -> ``en``; anything else -> None."""
    head = value.strip().lower().replace("-", "_").split(".")[0].split("_")[0]
    return head if head in LANGS else None


def resolve(explicit: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: ``explicit`` (``--lang``), ``GRADER_LANG``, the locale, else English.

    An unknown ``GRADER_LANG`` raises :class:`ValueError` naming it (the CLI makes that a
    one-line error); an unknown locale is simply not Chinese.
    """
    if explicit:
        lang = _normalise(explicit)
        if lang is None:
            raise ValueError(f"--lang {explicit!r}: choose one of {', '.join(LANGS)}")
        return lang
    env = os.environ if environ is None else environ
    chosen = env.get(LANG_ENV, "").strip()
    if chosen:
        lang = _normalise(chosen)
        if lang is None:
            raise ValueError(f"{LANG_ENV}={chosen!r}: choose one of {', '.join(LANGS)}")
        return lang
    for name in LOCALE_ENVS:
        value = env.get(name, "").strip()
        if value:
            return "zh" if value.lower().startswith("zh") else DEFAULT
    return DEFAULT


def use(lang: str) -> None:
    """Make ``lang`` the language of everything rendered from now on (the CLI calls this once)."""
    global _current
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGS)}")
    _current = lang


def current() -> str:
    """The language set by :func:`use`, else English."""
    return _current or DEFAULT


def placeholders(template: str) -> frozenset[str]:
    """The names a ``str.format`` template fills: ``"{raw!r} at {where[0]}"`` -> {raw, where}."""
    names = set()
    for _, name, _, _ in string.Formatter().parse(template):
        if name is not None:
            names.add(name.split(".")[0].split("[")[0])
    return frozenset(names)


@dataclass(frozen=True)
class Text:
    """The same sentence in English and in Chinese."""

    en: str = field(metadata={"doc": "English"})
    zh: str = field(metadata={"doc": "Chinese (简体中文)"})
    #: Set on a plain string a spec still holds where both languages are due (see :meth:`pending`).
    untranslated: bool = field(default=False, init=False, compare=False, repr=False)

    def get(self, lang: str | None = None) -> str:
        """The sentence in ``lang`` (default: :func:`current`)."""
        return self.zh if (lang or current()) == "zh" else self.en

    @classmethod
    def same(cls, text: str) -> Text:
        """Text that reads the same in every language: code, a formula, a learner's own message."""
        return cls(text, text)

    @classmethod
    def pending(cls, text: str) -> Text:
        """A spec's plain English string, not yet translated: shown as is, flagged by the tests."""
        value = cls(text, text)
        object.__setattr__(value, "untranslated", True)
        return value

    def format(self, **params: Any) -> Text:
        """Fill the placeholders in each language; a Text parameter is taken in the same language."""
        return Text(*(_fill(getattr(self, lang), lang, params) for lang in LANGS))

    def join(self, other: Text | str, sep: Text | str = " ") -> Text:
        """This sentence, ``sep``, then ``other`` (each Text, or one string for every language)."""
        other, sep = as_text(other), as_text(sep)
        return Text(*(getattr(self, lang) + getattr(sep, lang) + getattr(other, lang) for lang in LANGS))

    def to_json(self) -> dict[str, str]:
        return {lang: getattr(self, lang) for lang in LANGS}

    @classmethod
    def from_json(cls, value: Any) -> Text:
        """From :meth:`to_json`'s form, or from one string (a record written in one language)."""
        if isinstance(value, Text):
            return value
        if isinstance(value, dict):
            return cls(*(str(value.get(lang, value.get(DEFAULT, ""))) for lang in LANGS))
        return cls.same(str(value))

    def __str__(self) -> str:  # a renderer must choose a language: str(text) is a bug, said loudly
        raise TypeError(f"Text has no single string; call .get(lang) (en: {self.en[:60]!r})")

    def __format__(self, spec: str) -> str:  # f"{text}" too
        raise TypeError(f"Text has no single string; call .get(lang) (en: {self.en[:60]!r})")


def texts_in(value: Any, path: str = "") -> Iterator[tuple[str, Text]]:
    """Every Text inside ``value`` (dataclasses, lists, dicts) with its key path, e.g. ``checks[2].hint``."""
    if isinstance(value, Text):
        yield path, value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from texts_in(getattr(value, f.name), f"{path}.{f.name}" if path else f.name)
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            yield from texts_in(item, f"{path}[{i}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from texts_in(item, f"{path}.{key}" if path else str(key))


#: Between two sentences: a space in English, nothing after a Chinese full stop.
SENTENCE_GAP = Text(" ", "")


def as_text(value: Text | str) -> Text:
    """``value`` as Text: a plain string reads the same in every language."""
    return value if isinstance(value, Text) else Text.same(value)


def join(parts: list[Text | str], sep: Text | str) -> Text:
    """``parts`` joined by ``sep`` in each language (``sep`` e.g. ``text("sep.list")``)."""
    texts, sep = [as_text(p) for p in parts], as_text(sep)
    return Text(*(getattr(sep, lang).join(getattr(p, lang) for p in texts) for lang in LANGS))


def _fill(template: str, lang: str, params: Mapping[str, Any]) -> str:
    values = {k: (v.get(lang) if isinstance(v, Text) else v) for k, v in params.items()}
    return template.format(**values)


class Catalogue:
    """Sentences of the grader's code by key: ``{key: {"en": ..., "zh": ...}}``.

    A plain dict literal (no file to read at start-up). Every catalogue is registered in
    :data:`CATALOGUES` so the tests can prove each entry complete.
    """

    def __init__(self, name: str, entries: dict[str, dict[str, str]]):
        self.name, self.entries = name, entries
        CATALOGUES.append(self)

    def text(self, key: str, **params: Any) -> Text:
        """Entry ``key`` in every language, placeholders filled."""
        entry = self.entries[key]
        return Text(*(_fill(entry[lang], lang, params) for lang in LANGS))

    def say(self, key: str, lang: str | None = None, **params: Any) -> str:
        """Entry ``key`` in ``lang`` (default: :func:`current`), placeholders filled."""
        lang = lang or current()
        return _fill(self.entries[key][lang], lang, params)

    def problems(self) -> list[str]:
        """Entries missing a language, or whose languages take different placeholders."""
        found = []
        for key, entry in self.entries.items():
            missing = [lang for lang in LANGS if not isinstance(entry.get(lang), str) or not entry[lang].strip()]
            extra = sorted(set(entry) - set(LANGS))
            if missing or extra:
                found.append(f"{self.name}: {key}: missing {missing}, unknown {extra}")
                continue
            try:
                names = {lang: placeholders(entry[lang]) for lang in LANGS}
            except ValueError as err:
                found.append(f"{self.name}: {key}: malformed template ({err})")
                continue
            if len(set(names.values())) > 1:
                found.append(f"{self.name}: {key}: placeholders differ: {names}")
        return found


#: Every catalogue created (grader.messages, grader.qa.messages, ...).
CATALOGUES: list[Catalogue] = []
