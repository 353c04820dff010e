"""Finding the rules pages, whether netcards runs from a checkout or from an installed wheel.

The pages live in docs/rules/ (one source for the website, the repository and the app); a wheel
carries a copy inside the `ui` package.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def rules_text(game_id: str, language: str = "en") -> str | None:
    """The Markdown rules page of a game in `language` (else English), or None if none ships."""
    if language != "en":
        translated = _page(f"{game_id}.{language}.md")
        if translated is not None:
            return translated
    return _page(f"{game_id}.md")


def _page(name: str) -> str | None:
    packaged = resources.files("ui").joinpath("rules_docs", name)
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    checkout = Path(__file__).resolve().parent.parent / "docs" / "rules" / name
    if checkout.is_file():
        return checkout.read_text(encoding="utf-8")
    return None
