"""The protocol core imports no UI toolkit, no event loop and no networking."""

from __future__ import annotations

import subprocess
import sys


def test_protocol_imports_nothing_it_should_not() -> None:
    code = (
        "import sys, protocol, protocol.fanout, protocol.liveness\n"
        "bad = [m for m in ('textual', 'ui', 'asyncio', 'socket', 'selectors') if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
