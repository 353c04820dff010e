"""Keys named in the player's language, wherever the app names a key: the key bar, `?`, the
command palette and a game's rules page.

Textual names a key the English way (`esc`, `space`, `pgup`; `enter` and the arrows in ASCII
mode, where their glyphs are replaced). A French keyboard says Entrée, Échap and Espace, and a
Dutch one spatie: the catalogues translate each name in the context "key" (the name alone, as
a key bar shows it, in lower case as Textual writes them). Glyphs (⏎ ← →), letters, digits and
ctrl+ keys (^o) read the same in every language and are left alone.
"""

from __future__ import annotations

from ui.i18n import NP_, pgettext

KEY_NAMES = frozenset(
    (
        NP_("key", "esc"),
        NP_("key", "enter"),
        NP_("key", "space"),
        NP_("key", "tab"),
        NP_("key", "shift+tab"),
        NP_("key", "home"),
        NP_("key", "end"),
        NP_("key", "pgup"),
        NP_("key", "pgdn"),
        NP_("key", "left"),
        NP_("key", "right"),
        NP_("key", "up"),
        NP_("key", "down"),
        NP_("key", "del"),
    )
)
"""Every key name Textual (or the app's ASCII mode) shows for a key netcards binds."""


def key_name(shown: str) -> str:
    """`shown` (a key as Textual names it) in the player's language."""
    return pgettext("key", shown) if shown in KEY_NAMES else shown
