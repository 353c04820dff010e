"""The real-terminal tests need a POSIX pseudo-terminal."""

from __future__ import annotations

import sys

import pytest

if sys.platform == "win32":  # pragma: no cover
    pytest.skip("pseudo-terminals are POSIX only", allow_module_level=True)
