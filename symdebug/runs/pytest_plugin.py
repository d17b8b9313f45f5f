"""pytest plugin (placeholder while it is written)."""
