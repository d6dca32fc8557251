"""`python -m bot` runs the `tutor` command."""

from bot.cli import main

raise SystemExit(main())
