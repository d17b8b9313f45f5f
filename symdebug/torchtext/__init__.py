"""Torch's text, read: guard trees, graph dumps, output code, recompile reasons and stacks.

Parsers of what torch prints or logs, and of the paths in it (the user's code or a
library's).  They know the facts' value types (``symdebug.model``) and nothing above them.
"""
