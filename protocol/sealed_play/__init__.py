"""A sealed table's game, sans-IO: the title's sealed engine driven by the sealing rounds.

`protocol.sealed` is the cryptography and its round drivers, knowing no game; this package puts
a title's sealed engine (`netcards.sealed_game.SealedGame`) beside them. `progress` is what every
program tells its engine instance between two moves, `host` the host (its relay and its bots'
seats), `seat` a player's seat, `audit` the end-of-game check every program runs. No socket, no
clock and no random source: the table's adapters feed them messages and carry their answers.
"""
