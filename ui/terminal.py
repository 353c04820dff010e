"""Whether this terminal can show more than ASCII, decided the way the C library decides.

Python reports UTF-8 even in the C locale (PEP 538 and 540 coerce it), so its preferred encoding
says nothing about the terminal. The character set is the codeset of the first locale variable
that is set among LC_ALL, LC_CTYPE and LANG; none set is the C locale, which is ASCII. Started
in the C locale, Python also sets LC_CTYPE=C.UTF-8 in its own environment (and turns on its
UTF-8 mode): that LC_CTYPE is Python's, not the user's. The user's own (`LC_CTYPE=C` beside a
UTF-8 `LANG` means ASCII) is read from the environment the process was started with, which
Linux keeps in /proc/self/environ; where that cannot be read, Python's LC_CTYPE is skipped. A
few terminal types draw no Unicode whatever the locale says.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

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


def started_environ() -> Mapping[str, str] | None:
    """The environment this process was started with, before Python changed LC_CTYPE (None
    where the system does not keep it)."""
    try:
        block = Path("/proc/self/environ").read_bytes()
    except OSError:
        return None
    pairs = (entry.decode(errors="surrogateescape").partition("=") for entry in block.split(b"\0"))
    return {name: value for name, sep, value in pairs if sep}


def locale_codeset(
    environ: Mapping[str, str],
    coerced: bool = False,
    started: Mapping[str, str] | None = None,
) -> str:
    """`en_GB.UTF-8@euro` -> `utf8`; no codeset (`C`, `POSIX`, `fr_FR`) -> ``. When Python
    replaced LC_CTYPE, the one in `started` (the environment at start) counts instead."""
    if coerced:
        environ = {k: v for k, v in environ.items() if k != "LC_CTYPE"}
        if started is not None and started.get("LC_CTYPE"):
            environ["LC_CTYPE"] = started["LC_CTYPE"]
    value = next((environ[n] for n in LOCALE_VARIABLES if environ.get(n)), "")
    codeset = value.partition(".")[2].partition("@")[0]
    return codeset.lower().replace("-", "").replace("_", "")


def unicode_ok(
    environ: Mapping[str, str] = os.environ,
    coerced: bool | None = None,
    started: Mapping[str, str] | None = None,
) -> bool:
    """False when the locale is not UTF-8 or the terminal is a plain one: ASCII mode then.
    `coerced`: whether Python replaced LC_CTYPE, and `started`: the environment the process
    was started with (both found out when not given)."""
    if environ.get("TERM", "") in ASCII_TERMINALS:
        return False
    if coerced is None:
        coerced = python_coerced(environ)
    if coerced and started is None:
        started = started_environ()
    return locale_codeset(environ, coerced, started) in UNICODE_CODESETS
