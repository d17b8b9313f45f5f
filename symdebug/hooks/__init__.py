"""Capture: the handler on torch's structured trace logger that turns compiles into events.

This package produces events only (:mod:`symdebug.events`); :mod:`symdebug.live` attaches
it, builds the facts and answers what only a live capture can.  Its modules import torch;
this file does not, so ``import symdebug`` stays free of torch (see ``symdebug/__init__``).
"""
