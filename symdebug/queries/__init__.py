"""Queries: read the facts and answer one question each (they never change the facts)."""
