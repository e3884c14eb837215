"""``python -m warlog``: the command line."""

from warlog.cli.main import main

main()
