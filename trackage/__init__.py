"""trackage: an exact, fast engine for 18xx railway board games (see README.md)."""

from . import twins as _twins

# the compiled twins of the engine's modules, where built and current (see trackage/twins.py)
_twins.install()
