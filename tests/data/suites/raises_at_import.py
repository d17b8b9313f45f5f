"""A workload file that fails while it is imported: the suite reports the error and runs
nothing."""

raise RuntimeError("raises_at_import: this workload file fails on import, on purpose")
