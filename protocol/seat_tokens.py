"""Seat tokens kept on disk, so that a player whose program died rejoins their seat by simply
starting it again (`netcards join ADDRESS`, `netcards bot ADDRESS`).

Beside the token, in a file of its own, the client keeps its notes on the deal
(`DealWitness.to_data`): what the host committed to, what was pledged, and whether our part was
revealed. They are keyed as the token is, by the table's address as its key is pinned there
and the player's name, not by the token: a host that refuses our token (`bad_token`) or comes
back as a new table must not make us forget that it has seen our part. So forgetting the token
leaves the notes; they go only once the deal has been checked (`forget_deal`). A third file
says which of the seat's moves in that game were the program's own (`OwnMoves.to_data`), so
that a restarted program's log tells them from those a bot made for the player; it goes with
the deal notes. A fourth holds the seed of the seat's sealed game (`SealedSeedFile`): its
secrets, without which nobody can take a sealed seat back, and beside it what the host told
that seat (`ToldFile`), so that a restarted program holds the host to it. All are readable by
the user alone.
A restarted program then holds the host to
the same deal instead of believing whatever it is told next.

None of them is synced to the disk on the event loop, which a sync can stop for tens of
milliseconds. The deal notes and the seed are written whole at once (a fresh file renamed into
place: a killed program loses neither, nor anything of the token or the told file, which are
written at once too), and synced by the program's disk thread (`protocol.disk_worker.shared()`)
a moment later; whoever must not speak before one is on the disk waits for that thread without
blocking the loop (the client awaits `settled()` before its pledge, its part or its leave goes
out, and `SealedSeedFile.saved()` before its signing key does). The moves, which need neither,
are written by that thread. A power cut before a sync can leave a file empty, which reads as
no file: the notes or the seed are then lost, never wrong, and nothing that needed them had
gone out yet.

Two programs of one user at one table under one name would read the same file and hold the
same token, and each would push the other out of the seat in turn. So a program that plays a
seat claims its file first (`claim`): a lock the system drops when the program ends, however
it ends, so a crashed program's seat is free for the next one at once.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path
from typing import Any

from protocol.address import format_address, parse_address
from protocol.disk_worker import DiskWorker, shared
from protocol.sealed_play import told

try:
    import fcntl
except ImportError:  # not on Windows: there, claims hold nothing
    fcntl = None  # type: ignore[assignment]


def same_table(address: str) -> str:
    """One spelling of a table's address, as known hosts pin it: `127.0.0.1` and
    `127.0.0.1:47474` (the default port) are one table, so one seat file."""
    try:
        return format_address(*parse_address(address))
    except ValueError:
        return address


class SeatClaim:
    """This program's hold on one seat file, until `release` or the program's end."""

    def __init__(self, fd: int | None) -> None:
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the lock
            self._fd = None


class SeatTokens:
    def __init__(self, folder: Path, worker: DiskWorker | None = None) -> None:
        self.folder = folder
        self.worker = worker or shared()
        """The thread that writes the deal notes, moves and seed (the program's own)."""

    async def settled(self) -> None:
        """Every file saved so far is written (and synced, for those that are), without
        blocking the event loop."""
        await self.worker.settled()

    def _path(self, address: str, name: str, suffix: str = ".token") -> Path:
        key = hashlib.sha256(f"{same_table(address)}\n{name}".encode()).hexdigest()[:32]
        return self.folder / f"{key}{suffix}"

    def claim(self, address: str, name: str) -> SeatClaim | None:
        """The seat file of `name` at `address` for this program alone, or None while another
        program holds it."""
        if fcntl is None:
            return SeatClaim(None)
        self.folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(self._path(address, name, ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return None
        return SeatClaim(fd)

    def _read(self, address: str, name: str) -> dict[str, Any]:
        try:
            text = self._path(address, name).read_text().strip()
        except OSError:
            return {}
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        # Anything but our map is read as a file of an earlier release: the token alone, in hex.
        return data if isinstance(data, dict) else {"token": text}

    def load(self, address: str, name: str) -> bytes | None:
        try:
            token = bytes.fromhex(str(self._read(address, name).get("token")))
        except ValueError:
            return None
        return token if len(token) == 32 else None

    def load_deal(self, address: str, name: str) -> dict[str, Any] | None:
        """The deal notes kept for this table and name (an earlier release kept them inside the
        token's file), if any."""
        try:
            deal = json.loads(self._path(address, name, ".deal").read_text())
        except (OSError, ValueError):
            deal = self._read(address, name).get("deal")
        return deal if isinstance(deal, dict) else None

    def load_moves(self, address: str, name: str) -> dict[str, Any] | None:
        """Which of the seat's moves were the program's own (see `OwnMoves`), if kept."""
        self.worker.wait()  # ours still on their way are what is read
        try:
            moves = json.loads(self._path(address, name, ".moves").read_text())
        except (OSError, ValueError):
            return None
        return moves if isinstance(moves, dict) else None

    def save_moves(self, address: str, name: str, moves: dict[str, Any]) -> None:
        """Whole or not at all, as the deal notes, by the disk thread (and unsynced: losing
        the latest costs only the words of the log, not the deal's check)."""
        path = self._path(address, name, ".moves")
        text = json.dumps(moves)
        self._folder()
        self.worker.submit(lambda: self._replace(path, text), key=path)

    def save(
        self, address: str, name: str, token: bytes, deal: dict[str, Any] | None = None
    ) -> None:
        self._folder()
        self._write(self._path(address, name), json.dumps({"token": token.hex()}))
        if deal is not None:
            self.save_deal(address, name, deal)

    def save_deal(self, address: str, name: str, deal: dict[str, Any]) -> None:
        """The notes, whole in place now (a crash leaves the old ones or these), and on the
        disk once `settled()`."""
        self._save_and_sync(self._path(address, name, ".deal"), deal)

    def _save_and_sync(self, path: Path, data: dict[str, Any], folder: bool = False) -> None:
        """`data` in place of `path` now, whole; synced by the disk thread (its folder too)."""
        self._folder()
        self._replace(path, json.dumps(data))
        self.worker.submit(lambda: _sync_file(path, folder), key=("sync", path))

    def _replace(self, path: Path, text: str) -> None:
        fresh = path.with_suffix(path.suffix + "-new")
        self._write(fresh, text)
        os.replace(fresh, path)

    def _folder(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)

    def _write(self, path: Path, text: str) -> None:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(text)

    def forget(self, address: str, name: str) -> None:
        """The seat token only: the deal notes stay until the deal is checked."""
        self._path(address, name).unlink(missing_ok=True)

    def sealed_seed(self, address: str, name: str) -> SealedSeedFile:
        """The file of the seed of this seat's sealed game, keyed as the deal notes are."""
        return SealedSeedFile(self, self._path(address, name, ".sealed"))

    def forget_deal(self, address: str, name: str) -> None:
        """The notes now; the moves after those saved before (by the disk thread, in order)."""
        self._path(address, name, ".deal").unlink(missing_ok=True)
        moves = self._path(address, name, ".moves")
        self.worker.submit(lambda: moves.unlink(missing_ok=True))


class SealedSeedFile:
    """The seed of a seat's sealed game (`protocol/sealed/seed_stream.py`), beside its token.

    Keeping the seed is keeping the seat's secrets: whoever reads it can sign as that seat and
    unmask its cards for that game. So it is readable by the user alone, and whole on disk (or
    not there at all) before the seat's signing key is sent: `save` puts it in place at once
    and has the disk thread sync it and its folder, and the client awaits `saved()` before the
    key goes.
    It goes once the game is checked (its secrets are then published anyway), or the next
    sealed game's seed takes its place. What the host told the seat goes with it (`told`)."""

    def __init__(self, tokens: SeatTokens, path: Path) -> None:
        self._tokens, self.path = tokens, path
        self.told = ToldFile(path.with_suffix(".told"))

    def load(self) -> dict[str, Any] | None:
        try:
            data = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def save(self, data: dict[str, Any]) -> None:
        """In place of any other seed now, whole; on the disk once `saved()`."""
        self._tokens._save_and_sync(self.path, data, folder=True)

    async def saved(self) -> None:
        """The seed saved is on the disk (so are the files saved before it)."""
        await self._tokens.settled()

    def forget(self) -> None:
        self.path.unlink(missing_ok=True)
        self.told.forget()


class ToldFile:
    """What the host told a sealed seat, by place (`protocol/sealed_play/told.py`), for the
    game its seed is for: a program restarted during that game reads it back before it replays
    the history, so that a history that says otherwise names the host.

    A line per new place, appended as each message is taken and never synced: a killed program
    loses nothing the system holds, a machine that loses power may lose the last lines (a rewind
    to before them then goes unnoticed). It holds no secret and no card, only digests of what
    the host said, but it is the user's alone as the seed is."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def begin(self, game: dict[str, Any]) -> None:
        """A record for `game`, empty, in place of any other."""
        fresh = self.path.with_suffix(".told-new")
        fd = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, told.header(game))
        finally:
            os.close(fd)
        os.replace(fresh, self.path)

    def load(self, game: dict[str, Any]) -> dict[tuple[object, ...], bytes] | None:
        """The places kept for `game`, or None (no file, or a file of another game). A line cut
        short at its end is cut off, so that the next line appended starts a line of its own."""
        try:
            data = self.path.read_bytes()
        except OSError:
            return None
        found = told.read(data, game)
        if found is None:
            return None
        places, whole = found
        if whole < len(data):
            with contextlib.suppress(OSError):  # else the next line appended is lost with it
                os.truncate(self.path, whole)
        return places

    def append(self, lines: bytes) -> None:
        """Lines to the record begun (`begin`, `load`): none, when there is no record."""
        if not lines:
            return
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        except FileNotFoundError:
            return
        try:
            os.write(fd, lines)
        finally:
            os.close(fd)

    def forget(self) -> None:
        self.path.unlink(missing_ok=True)


def _sync_file(path: Path, folder: bool) -> None:
    """`path` as it is now on the disk (a file since replaced or removed: nothing to do), and
    with `folder` its name too."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    if folder:
        _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    """The new name survives a power cut too."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
