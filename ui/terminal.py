"""Whether this terminal can show more than ASCII, decided the way the C library decides.

Python reports UTF-8 even in the C locale (PEP 538 and 540 coerce it), so its preferred encoding
says nothing about the terminal. The character set is the codeset of the first locale variable
that is set among LC_ALL, LC_CTYPE and LANG; none set is the C locale, which is ASCII. Started
in the C locale, Python also sets LC_CTYPE=C.UTF-8 in its own environment (and turns on its
UTF-8 mode): that LC_CTYPE is Python's, not the user's, and is skipped. A few terminal types
draw no Unicode whatever the locale says.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

LOCALE_VARIABLES = ("LC_ALL", "LC_CTYPE", "LANG")
ASCII_TERMINALS = frozenset({"dumb", "vt52", "vt100", "vt102", "vt220", "ansi"})
UNICODE_CODESETS = frozenset({"utf8", "utf16", "utf32"})


COERCED_CTYPES = frozenset({"C.UTF-8", "C.utf8", "UTF-8"})


def python_coerced(environ: Mapping[str, str]) -> bool:
    """Whether LC_CTYPE is the value Python put there itself (PEP 538), not the user's."""
    return (
        bool(sys.flags.utf8_mode)
        and "PYTHONUTF8" not in environ
        and environ.get("LC_CTYPE", "") in COERCED_CTYPES
    )


def locale_codeset(environ: Mapping[str, str], coerced: bool = False) -> str:
    """`en_GB.UTF-8@euro` -> `utf8`; no codeset (`C`, `POSIX`, `fr_FR`) -> ``."""
    names = [n for n in LOCALE_VARIABLES if not (coerced and n == "LC_CTYPE")]
    value = next((environ[n] for n in names if environ.get(n)), "")
    codeset = value.partition(".")[2].partition("@")[0]
    return codeset.lower().replace("-", "").replace("_", "")


def unicode_ok(environ: Mapping[str, str] = os.environ, coerced: bool | None = None) -> bool:
    """False when the locale is not UTF-8 or the terminal is a plain one: ASCII mode then.
    `coerced`: whether Python replaced LC_CTYPE (found out when not given)."""
    if environ.get("TERM", "") in ASCII_TERMINALS:
        return False
    if coerced is None:
        coerced = python_coerced(environ)
    return locale_codeset(environ, coerced) in UNICODE_CODESETS
