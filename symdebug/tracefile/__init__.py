"""Reading torch's structured trace logs (``TORCH_TRACE``) into an event stream."""

from __future__ import annotations

from symdebug.tracefile.folder import folder_logs
from symdebug.tracefile.reader import (
    discover_trace_files,
    iter_trace_events,
    rank_of,
    read_trace_file,
)

__all__ = [
    "discover_trace_files",
    "folder_logs",
    "iter_trace_events",
    "rank_of",
    "read_trace_file",
]
