"""Bundled examples."""
