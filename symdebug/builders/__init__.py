"""Builders: one compile's events become its facts (compiles, guards, symbols, kernels, ...).

Each builder reads the events of one compile (``compile_events`` groups them) through the
parsers of ``symdebug.torchtext``; the passes (``symdebug.processors``) run after them.
"""
