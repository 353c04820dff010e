"""Keeps ui/locale/*.po in step with the strings the app shows.

    python scripts/catalogue.py          # adds new strings (untranslated), drops unused ones

Strings are found where the code marks them: _("..."), N_("..."), ngettext("...", "...", n),
and with a context pgettext("context", "...") and NP_("context", "...") in ui/ (and the table
notices). The test suite fails while any of them has no translation.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ui.i18n import LANGUAGES, in_context, parse_po  # noqa: E402

PLURAL_FORMS = {"fr": "nplurals=2; plural=(n > 1);", "nl": "nplurals=2; plural=(n != 1);"}


def extract(folder: Path = ROOT / "ui") -> dict[str, str | None]:
    """msgid -> msgid_plural (None for a plain string), in order of appearance; a msgid in a
    context is keyed as the catalogue keys it (`in_context`)."""
    found: dict[str, str | None] = {}
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            args = node.args
            strings = [
                a.value for a in args if isinstance(a, ast.Constant) and isinstance(a.value, str)
            ]
            if node.func.id in ("_", "N_") and len(args) == 1 and strings:
                found.setdefault(strings[0], None)
            elif node.func.id in ("pgettext", "NP_") and len(args) == 2 and len(strings) == 2:
                found.setdefault(in_context(*strings), None)
            elif node.func.id == "ngettext" and len(strings) >= 2:
                found[strings[0]] = strings[1]
    return found


def quote(text: str) -> str:
    escaped = (
        text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    )
    return f'"{escaped}"'


def write(language: str, strings: dict[str, str | None]) -> Path:
    path = ROOT / "ui" / "locale" / f"{language}.po"
    old, old_plurals = parse_po(path.read_text(encoding="utf-8")) if path.exists() else ({}, {})
    lines = [
        f"# netcards: {LANGUAGES[language]}.",
        'msgid ""',
        'msgstr ""',
        quote(f"Language: {language}\n"),
        quote("Content-Type: text/plain; charset=UTF-8\n"),
        quote(f"Plural-Forms: {PLURAL_FORMS[language]}\n"),
        "",
    ]
    for msgid, plural in strings.items():
        context, _eot, text = msgid.rpartition("\x04")
        if context:
            lines.append(f"msgctxt {quote(context)}")
        lines.append(f"msgid {quote(text)}")
        if plural is None:
            lines.append(f"msgstr {quote(old.get(msgid, ''))}")
        else:
            forms = old_plurals.get(msgid, ["", ""])
            lines.append(f"msgid_plural {quote(plural)}")
            for i in range(2):
                lines.append(f"msgstr[{i}] {quote(forms[i] if i < len(forms) else '')}")
        lines.append("")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def main() -> None:
    strings = extract()
    for language in PLURAL_FORMS:
        print(write(language, strings))
    print(f"{len(strings)} strings")


if __name__ == "__main__":
    main()
