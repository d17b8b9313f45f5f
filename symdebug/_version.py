"""The version of symdebug, in one place (pyproject reads it; extension/package.json equals it)."""

__version__ = "0.1.0"
