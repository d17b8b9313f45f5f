"""Renderers: turn facts into text, JSON or HTML.  They read; they never compute facts."""
