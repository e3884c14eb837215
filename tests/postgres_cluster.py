"""A throwaway PostgreSQL cluster for the tests: initdb in a temporary directory, a server on a
unix socket there (no TCP), every database and schema made for one test, all removed after.

Any developer runs it the same way: it needs the server binaries of the distribution's
``postgresql`` package (found on $PATH, under /usr/lib/postgresql/*/bin, or in
$WARLOG_PG_BIN) and psycopg. PostgreSQL refuses to run as root: as root, the cluster runs as the
``postgres`` system user the package creates (else ``nobody``), in a directory given to it.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

REQUIRE = "WARLOG_REQUIRE_POSTGRES"
SUPERUSER = "warlog"
#: test settings: nothing here needs to survive a crash of the machine
FAST = "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"


def server_binaries() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``, or None if PostgreSQL is not installed."""
    given = os.environ.get("WARLOG_PG_BIN")
    candidates = [given] if given else []
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(os.path.dirname(on_path))
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    for folder in candidates:
        if all(os.access(os.path.join(folder, b), os.X_OK) for b in ("initdb", "pg_ctl")):
            return Path(folder)
    return None


def why_not() -> str | None:
    """Why the PostgreSQL tests cannot run here (one line), or None when they can."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install -e '.[postgres]')"
    if server_binaries() is None:
        return (
            "no PostgreSQL server binaries (initdb, pg_ctl) are installed "
            "(apt-get install postgresql, or set WARLOG_PG_BIN)"
        )
    return None


class Cluster:
    """A running throwaway cluster: ``dsn(database)`` connects to it over its unix socket."""

    def __init__(self, folder: Path, run_as: str | None) -> None:
        self.folder = folder
        self.run_as = run_as
        self._numbers = itertools.count()
        self._schemas_made = False

    def dsn(self, database: str = "postgres", **params: str) -> str:
        query = "&".join(
            f"{k}={quote(v, safe='')}" for k, v in {"host": str(self.folder), **params}.items()
        )
        return f"postgresql://{SUPERUSER}@/{database}?{query}"

    def new_database(self) -> str:
        """A new empty database; its DSN."""
        import psycopg

        name = f"t{os.getpid()}_{next(self._numbers)}"
        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE template0 ENCODING UTF8')
        return self.dsn(name)

    def new_schema(self) -> str:
        """A new empty schema in the shared database ``schemas`` (cheaper than a database: the
        contract tests make hundreds); a DSN whose search_path is that schema."""
        import psycopg

        if not self._schemas_made:
            with psycopg.connect(self.dsn(), autocommit=True) as conn:
                conn.execute("CREATE DATABASE schemas TEMPLATE template0 ENCODING UTF8")
            self._schemas_made = True
        name = f"s{os.getpid()}_{next(self._numbers)}"
        with psycopg.connect(self.dsn("schemas"), autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{name}"')
        return self.dsn("schemas", options=f"-c search_path={name}")

    def run(self, *argv: str, **options: object) -> subprocess.CompletedProcess[str]:
        """A command as the cluster's owner."""
        prefix = ["runuser", "-u", self.run_as, "--"] if self.run_as else []
        return subprocess.run(
            [*prefix, *argv], check=True, capture_output=True, text=True, timeout=120, **options
        )  # type: ignore[call-overload]


def owner() -> str | None:
    """The user to run the server as: None (ourselves) unless we are root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    raise RuntimeError("running as root, and there is no postgres or nobody user to run PostgreSQL")


@contextlib.contextmanager
def throwaway_cluster(settings: str = FAST) -> Iterator[Cluster]:
    """initdb + pg_ctl start in a new temporary directory; stopped and removed after."""
    binaries = server_binaries()
    assert binaries is not None, why_not()
    run_as = owner()
    folder = Path(tempfile.mkdtemp(prefix="warlog-pg-"))
    if run_as is not None:
        entry = pwd.getpwnam(run_as)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    cluster = Cluster(folder, run_as)
    data = folder / "data"
    started = False
    try:
        cluster.run(
            str(binaries / "initdb"), "-D", str(data), "-U", SUPERUSER, "--auth=trust",
            "-E", "UTF8", "--locale=C", "--no-sync",
        )  # fmt: skip
        cluster.run(
            str(binaries / "pg_ctl"), "start", "-w", "-t", "60", "-D", str(data),
            "-l", str(folder / "server.log"),
            "-o", f"-k {folder} -c listen_addresses='' {settings}",
        )  # fmt: skip
        started = True
        yield cluster
    finally:
        if started:
            with contextlib.suppress(subprocess.SubprocessError):
                cluster.run(str(binaries / "pg_ctl"), "stop", "-D", str(data), "-m", "immediate")
        shutil.rmtree(folder, ignore_errors=True)
