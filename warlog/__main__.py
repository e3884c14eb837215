"""``python -m warlog``: the command line."""

from warlog.cli.program import main

main()
