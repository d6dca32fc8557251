"""`python -m bench`: run the main() of every bench/*.py module that has one, in name order."""

from __future__ import annotations

import importlib
from pathlib import Path


def main() -> None:
    for path in sorted(Path(__file__).parent.glob("*.py")):
        if path.stem.startswith("_"):
            continue
        module = importlib.import_module(f"bench.{path.stem}")
        if callable(getattr(module, "main", None)):
            print(f"== bench.{path.stem}")
            module.main()


if __name__ == "__main__":
    main()
