"""The PostgreSQL database under the store and the vault: connecting to it, the schema warlog
creates and upgrades there itself, and the one-line StoreError for every way a server fails.

A database is named by a libpq URI (``postgresql://user@host:port/name`` or
``postgres://…``, parameters such as ``?host=/run/postgresql`` or ``sslmode`` included). The
password, if the URI holds one, is never printed: messages name the database by
``redacted(dsn)``. No ``psycopg.Error`` leaves the PostgreSQL modules without becoming a
StoreError (exit 1), an InputError or a ConflictError (exit 5).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlsplit

from warlog.domain.core.errors import StoreError

if TYPE_CHECKING:
    import psycopg

SCHEMES = ("postgresql://", "postgres://")
#: seconds to wait for a server that does not answer
CONNECT_TIMEOUT = 10


def is_postgres(location: str) -> bool:
    """True when ``location`` names a PostgreSQL database rather than an SQLite file."""
    return location.startswith(SCHEMES)


def redacted(dsn: str) -> str:
    """``postgresql://user@host:port/name`` of ``dsn``: no password, no other parameter but
    the host (a socket folder) when it is given as one."""
    try:
        parts = urlsplit(dsn)
        user = parts.username or ""
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
        query = dict(parse_qsl(parts.query))
    except ValueError:
        return "postgresql://…"
    where = f"{user}@" if user else ""
    socket = f"?host={query['host']}" if "host" in query and not host else ""
    return f"postgresql://{where}{host}{port}{parts.path}{socket}"


def scrubbed(text: str, dsn: str, name: str) -> str:
    """``text`` (a driver's message) with the URI ``dsn`` shown as ``name`` and no password in
    it: psycopg quotes a URI it cannot parse whole, and a password may follow ``user:`` in any
    URI it quotes."""
    text = text.replace(dsn, name)
    with contextlib.suppress(ValueError):
        password = urlsplit(dsn).password
        if password:
            text = text.replace(password, "…")
    return re.sub(r"(://[^:/@\s\"']*):[^@\s\"']*@", r"\1:…@", text)


def psycopg_module() -> Any:
    """psycopg, or a StoreError saying how to install it."""
    try:
        import psycopg
    except ImportError:
        raise StoreError(
            "a postgresql:// database needs psycopg: pip install 'warlog[postgres]'",
            "store/no_driver",
        ) from None
    return psycopg


class Schema:
    """A versioned set of tables in one database: ``migrations[v]`` holds the statements that
    take version v-1 to v (version 1: create everything). ``meta`` is the name of its
    ``(key, value)`` table, which says ``app`` and ``schema_version``."""

    def __init__(
        self,
        app: str,
        meta: str,
        migrations: dict[int, Sequence[str]],
        *,
        first_rows: Callable[[], dict[str, str]] = dict,
        missing: str = "no warlog database at {name}; create one with `warlog new`",
    ) -> None:
        self.app = app
        self.meta = meta
        self.migrations = migrations
        self.version = max(migrations)
        self.first_rows = first_rows
        self.missing = missing


class PostgresDatabase:
    """One database at ``dsn``: ``connect`` to it (creating or upgrading ``schema`` there, if
    asked) and turn a psycopg failure into its one-line StoreError (``error``)."""

    def __init__(self, dsn: str, schema: Schema) -> None:
        self.dsn = dsn
        self.name = redacted(dsn)
        self.schema = schema

    def connect(self, *, create: bool) -> psycopg.Connection[Any]:
        """An autocommit connection, the schema checked (``create``: made if missing, in any
        case upgraded if older). StoreError if the server or the schema cannot be used."""
        psycopg = psycopg_module()
        try:
            conn = psycopg.connect(
                self.dsn,
                autocommit=True,
                connect_timeout=CONNECT_TIMEOUT,
                client_encoding="UTF8",
                application_name="warlog",
            )
        except psycopg.Error as exc:
            raise self.error(exc) from None
        except ValueError as exc:  # a URI psycopg cannot encode (a byte that is no UTF-8)
            why = scrubbed(str(exc), self.dsn, self.name)
            raise StoreError(f"bad database URI {self.name}: {why}", "store/bad_uri") from None
        try:
            with self.guard():
                self._check_encoding(conn)
                self.ensure_schema(conn, create=create)
        except BaseException:
            conn.close()
            raise
        return conn

    def meta(self, conn: psycopg.Connection[Any]) -> dict[str, str] | None:
        """The schema's ``meta`` rows, or None if the table does not exist (in the schema the
        connection's search_path names first). StoreError if it is someone else's table."""
        found = conn.execute("SELECT to_regclass(%s)", (self.schema.meta,)).fetchone()
        if found is None or found[0] is None:
            return None
        try:
            with conn.transaction():
                rows = conn.execute(f"SELECT key, value FROM {self.schema.meta}").fetchall()
        except psycopg_module().errors.UndefinedColumn:
            raise self._not_ours() from None
        return {str(k): str(v) for k, v in rows}

    def ensure_schema(self, conn: psycopg.Connection[Any], *, create: bool) -> None:
        """Check the schema; create it (``create``) or bring it to this warlog's version, each
        change in one transaction under an advisory lock, so racing processes do it once."""
        meta = self.meta(conn)
        if meta is not None and self._version(meta) == self.schema.version:
            return
        if meta is None and not create:
            raise StoreError(self.schema.missing.format(name=self.name), "store/missing")
        with self._changing_schema(conn), conn.transaction():
            meta = self.meta(conn)
            version = 0 if meta is None else self._version(meta)
            try:
                for step in range(version + 1, self.schema.version + 1):
                    for statement in self.schema.migrations[step]:
                        conn.execute(statement)
            except psycopg_module().errors.InsufficientPrivilege:
                raise StoreError(
                    f"{self.name} has {self.schema.app} schema version {version}; this warlog "
                    f"needs version {self.schema.version}, an upgrade only the owner of its "
                    "tables may make: run one warlog command on it (e.g. `warlog games`) as "
                    "that role",
                    "store/upgrade_needs_owner",
                ) from None
            if meta is None:
                rows = {"app": self.schema.app, **self.schema.first_rows()}
                conn.cursor().executemany(
                    f"INSERT INTO {self.schema.meta} (key, value) VALUES (%s, %s)",
                    list(rows.items()),
                )
            conn.execute(
                f"INSERT INTO {self.schema.meta} (key, value) VALUES ('schema_version', %s)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (str(self.schema.version),),
            )

    @contextlib.contextmanager
    def _changing_schema(self, conn: psycopg.Connection[Any]) -> Iterator[None]:
        """Hold the schema's advisory lock (one per app in the database) around a change.

        Taken for the session, before the change's transaction begins: a transaction begun
        before the lock was granted kept PostgreSQL's cached "no such table" for the ``meta``
        table the winner had made meanwhile, and made the schema a second time (a test shows it).
        """
        unlock = "SELECT pg_advisory_unlock(hashtext(%s))"
        conn.execute("SELECT pg_advisory_lock(hashtext(%s))", (self.schema.app,))
        try:
            yield
        except BaseException:
            # the change's own error is the one to tell; closing the connection, as ``connect``
            # does on any error, lets go of the lock if this cannot
            with contextlib.suppress(psycopg_module().Error):
                if not conn.broken:
                    conn.execute(unlock, (self.schema.app,))
            raise
        conn.execute(unlock, (self.schema.app,))

    def _version(self, meta: dict[str, str]) -> int:
        """The schema version ``meta`` records; StoreError if it is not ours or is newer."""
        if meta.get("app") != self.schema.app:
            raise self._not_ours()
        version = meta.get("schema_version", "")
        if not version.isdigit():
            raise self._not_ours()
        if int(version) > self.schema.version:
            raise StoreError(
                f"{self.name} has {self.schema.app} schema version {version}; this warlog reads "
                f"version {self.schema.version}; upgrade warlog",
                "store/schema_version",
            )
        return int(version)

    def _not_ours(self) -> StoreError:
        return StoreError(
            f"{self.name} is not a warlog database (its table {self.schema.meta} is not warlog's)",
            "store/not_warlog",
        )

    def _check_encoding(self, conn: psycopg.Connection[Any]) -> None:
        row = conn.execute("SHOW server_encoding").fetchone()
        if row is None or row[0] != "UTF8":
            raise StoreError(
                f"{self.name} is encoded in {row[0] if row else '?'}; warlog needs a UTF8 "
                "database (CREATE DATABASE … ENCODING UTF8)",
                "store/encoding",
            )

    @contextlib.contextmanager
    def guard(self) -> Iterator[None]:
        """Turn any psycopg failure inside into this database's one-line StoreError."""
        psycopg = psycopg_module()
        try:
            yield
        except psycopg.Error as exc:
            raise self.error(exc) from None

    def error(self, exc: Exception) -> StoreError:
        """The one-line StoreError for a psycopg failure on this database."""
        psycopg = psycopg_module()
        errors = psycopg.errors
        reason = scrubbed(" ".join(str(exc).split()) or type(exc).__name__, self.dsn, self.name)
        name = self.name
        if isinstance(exc, errors.InsufficientPrivilege):
            return StoreError(f"database {name}: permission denied ({reason})", "store/unreadable")
        if isinstance(exc, errors.ReadOnlySqlTransaction):
            return StoreError(f"database {name} is read-only ({reason})", "store/read_only")
        if isinstance(exc, (errors.DiskFull, errors.OutOfMemory)):
            return StoreError(
                f"database {name}: the server is out of space ({reason}); nothing was written",
                "store/disk_full",
            )
        if isinstance(exc, (errors.LockNotAvailable, errors.QueryCanceled)):
            return StoreError(
                f"database {name} is busy ({reason}); nothing was written", "store/locked"
            )
        if isinstance(exc, psycopg.OperationalError):
            return StoreError(f"cannot use database {name} ({reason})", "store/cantopen")
        return StoreError(f"database {name}: {reason}", "store/unavailable")
