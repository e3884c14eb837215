#!/usr/bin/env python3
"""Run warlog's benchmark: ``python bench/run.py [--repeats N] [--quick]`` (see bench/suite.py)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.suite import main

if __name__ == "__main__":
    sys.exit(main())
