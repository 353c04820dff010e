"""Every string the app shows goes through `_` (and `ngettext`), so that each player reads the
table in their own language; English is the source language.

Catalogues are gettext PO files in `ui/locale/`, read by a small parser here (no compile step,
no extra dependency). The language comes from `--lang`, the player's settings, or the locale.

A string that means different things in different places gets a context (`pgettext`, marked
with `NP_`), as gettext's `msgctxt`: Velonimo's purple is "P", and so is Auf Achse's rest card,
yet French writes the one "Vi" and the other "P".
"""

from __future__ import annotations

import gettext as _gettext
import os
from collections.abc import Mapping, Sequence
from importlib import resources

LANGUAGES = {"en": "English", "fr": "Français", "nl": "Nederlands"}

_PLURAL = {"fr": lambda n: int(n > 1), "nl": lambda n: int(n != 1), "en": lambda n: int(n != 1)}


class Catalogue(_gettext.NullTranslations):
    """A PO file's messages; a missing or empty translation falls back to English."""

    def __init__(self, language: str, messages: dict[str, str], plurals: dict[str, list[str]]):
        super().__init__()
        self.language = language
        self.messages = messages
        self.plurals = plurals

    def gettext(self, message: str) -> str:
        return self.messages.get(message) or message

    def pgettext(self, context: str, message: str) -> str:
        return self.messages.get(in_context(context, message)) or message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        forms = self.plurals.get(msgid1)
        index = _PLURAL.get(self.language, _PLURAL["en"])(n)
        if forms and index < len(forms) and forms[index]:
            return forms[index]
        return msgid1 if n == 1 else msgid2


def in_context(context: str, message: str) -> str:
    """The catalogue's key for `message` in `context` (gettext's own: EOT between them)."""
    return f"{context}\x04{message}"


def _unquote(text: str) -> str:
    body = text.strip()
    if not (body.startswith('"') and body.endswith('"')):
        raise ValueError(f"not a PO string: {text!r}")
    out, i, body = [], 0, body[1:-1]
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            out.append(escapes.get(body[i + 1], body[i + 1]))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def parse_po(text: str) -> tuple[dict[str, str], dict[str, list[str]]]:
    """(singular messages, plural forms by msgid) from the text of a PO file."""
    messages: dict[str, str] = {}
    plurals: dict[str, list[str]] = {}
    entry: dict[str, str] = {}
    key = ""

    def flush() -> None:
        if entry.get("msgid"):
            msgid = entry["msgid"]
            if "msgctxt" in entry:
                msgid = in_context(entry["msgctxt"], msgid)
            if "msgid_plural" in entry:
                forms = [entry[k] for k in sorted(k for k in entry if k.startswith("msgstr["))]
                plurals[msgid] = forms
            else:
                messages[msgid] = entry.get("msgstr", "")
        entry.clear()

    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            if not line and entry:
                flush()
            continue
        if line.startswith('"'):
            entry[key] = entry.get(key, "") + _unquote(line)
            continue
        word, _sep, rest = line.partition(" ")
        if word in ("msgctxt", "msgid") and "msgid" in entry and key != "msgid":
            flush()
        key = word
        entry[key] = _unquote(rest)
    flush()
    return messages, plurals


def load(language: str) -> _gettext.NullTranslations:
    if language == "en" or language not in LANGUAGES:
        return _gettext.NullTranslations()
    path = resources.files("ui").joinpath("locale", f"{language}.po")
    messages, plurals = parse_po(path.read_text(encoding="utf-8"))
    return Catalogue(language, messages, plurals)


def from_locale(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for (ours, or a guest's that their SSH client sent),
    if we have it (else English)."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE", "LANG"):
        value = env.get(name, "")
        for part in value.split(":"):
            code = part.split("_")[0].split(".")[0].lower()
            if code in LANGUAGES:
                return code
    return "en"


_translation: _gettext.NullTranslations = _gettext.NullTranslations()
_language = "en"


def _(message: str) -> str:
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translation.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    return _translation.pgettext(context, message)


def names_list(names: Sequence[str]) -> str:
    """Names as a sentence lists them: "Ann", "Ann and Bea", "Ann, Bea and Cas"."""
    if len(names) < 2:
        return "".join(names)
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


def N_(message: str) -> str:
    """Marks a string for the catalogues where it is defined; `_` translates it where shown."""
    return message


def NP_(context: str, message: str) -> str:
    """`N_` for a string in a context; `pgettext` with the same context translates it."""
    return message


def use(language: str) -> None:
    """Switch every later `_` to `language` (English when we have no catalogue for it)."""
    global _translation, _language  # noqa: PLW0603
    _language = language if language in LANGUAGES else "en"
    _translation = load(_language)


def current() -> str:
    return _language
