"""The rule bot's rules: what a competent player does, by kind of decision (``common`` for the
questions they share, ``operate`` for operators, ``stock`` for players, ``tweaks`` per title)."""
