"""The predict engine: a cache entry's checks, bound to a new call's values and evaluated.

``predict.py`` answers one call, ``predict_range.py`` millions of sizes at once;
``entry_model.py`` reads an entry's guards into checks (``check.py``), which the compiled
check programs (``check_program.py``, ``check_eval.py``) evaluate over bound arguments.
"""
