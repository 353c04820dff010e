"""The titles. Each is a package with its cards, actions, state and rules behind `Game`."""
