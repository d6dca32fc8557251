"""`python -m bench`: run every benchmark module's main(), in name order."""

from __future__ import annotations

import importlib
from pathlib import Path


def main() -> None:
    for path in sorted(Path(__file__).parent.glob("*.py")):
        if path.stem.startswith("_"):
            continue
        print(f"== bench.{path.stem}")
        importlib.import_module(f"bench.{path.stem}").main()


if __name__ == "__main__":
    main()
