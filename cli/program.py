"""The ``warlog`` program: what a process does around its one command line.

A ``warlog`` process lives for one command (or one ``play -`` session, or one server). Python's
cyclic garbage collector costs such a process time twice without freeing anything it needs
freed (docs/performance.md, "CLI start"):

- importing the command line, the application and the libraries creates tens of thousands of
  objects that live as long as the process (modules, classes, functions, msgspec's types); the
  collector's passes over them while they are being created free nothing;
- at exit, the interpreter's last collections walk every object still alive once more before it
  frees the modules.

So the collector is paused while the command line is imported, what the imports made is moved
out of its reach (``gc.freeze``: objects alive until the process ends anyway) and it resumes for
the command, so that a server or a long ``play -`` session collects its garbage as any program
does. When the command ends, what is still alive is frozen too, so that the exit does not walk
it. Nothing else of the exit changes: the command has closed its database and key file (when its
click context closed), and the interpreter still flushes stdout and stderr and runs ``atexit``
functions.
"""

from __future__ import annotations

import gc


def main() -> None:
    """The ``warlog`` console script and ``python -m warlog``."""
    gc.disable()
    try:
        from warlog.cli.main import cli
    finally:
        gc.freeze()
        gc.enable()
    try:
        cli(prog_name="warlog")
    finally:
        gc.freeze()
