"""Work that spans runs: the diff of two runs, the pytest compile budget, suite sweeps.

Imports nothing: pytest loads :mod:`symdebug.runs.pytest_plugin` in every session where
symdebug is installed, and a test run that never asks for a budget must not pay for torch.
"""
