"""What it costs the host to make each journal record durable before the players hear of it.

Appends realistic action records (about 80 bytes) to a journal in a temporary folder (or
--folder, to measure another disk), flushed only and flushed and synced, and prints the time
per record. A flush protects the record from the host process dying; the sync also from the
computer losing power or crashing.

Run: .venv/bin/python -m bench.journal [--records N] [--folder DIR]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from protocol.journal_file import JournalWriter


def per_record(folder: Path, records: int, sync: bool) -> list[float]:
    writer = JournalWriter(folder / f"bench-{'sync' if sync else 'flush'}.journal", sync=sync)
    times = []
    try:
        for n in range(records):
            record = {
                "type": "action",
                "n": n + 1,
                "seat": n % 4,
                "action": {"kind": "walk", "card": n % 60},
            }
            t = time.perf_counter()
            writer.append(record)
            times.append(time.perf_counter() - t)
    finally:
        writer.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=500)
    parser.add_argument("--folder", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.folder) as tmp:
        for sync in (False, True):
            times = per_record(Path(tmp), args.records, sync)
            label = "flush + fsync" if sync else "flush only   "
            print(
                f"{label}: median {statistics.median(times) * 1000:7.3f} ms, "
                f"95th percentile {sorted(times)[int(len(times) * 0.95)] * 1000:7.3f} ms per record "
                f"({args.records} records)"
            )


if __name__ == "__main__":
    main()
