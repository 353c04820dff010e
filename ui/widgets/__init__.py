"""Widgets shared by the game screens."""
