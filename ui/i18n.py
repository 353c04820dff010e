"""Every string the app shows goes through `_` (and `ngettext`), so that the catalogues of
other languages can replace them; English is the source language."""

from __future__ import annotations

import gettext as _gettext

_translation: _gettext.NullTranslations = _gettext.NullTranslations()


def _(message: str) -> str:
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translation.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks a string for the catalogues where it is defined; `_` translates it where shown."""
    return message


def use(translation: _gettext.NullTranslations) -> None:
    global _translation  # noqa: PLW0603
    _translation = translation
