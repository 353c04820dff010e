"""Bots: players that see only their seat's view and the legal actions, like a human client."""
