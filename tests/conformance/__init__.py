"""The conformance tier: every supported torch release runs the corpus, judged by its own truth."""
