"""``python -m symdebug``: the command line."""

from symdebug.cli import main

raise SystemExit(main())
