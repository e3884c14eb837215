"""The key file is readable by its owner only: made so when the vault creates it or takes over
an empty one, and refused, untouched, when it already holds keys that others may read."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from tests.eventstore.sqlite_helpers import NOBODY, finish, keep_a_key, start_child
from tests.files import mode
from warlog.domain.core.errors import StoreError
from warlog.eventstore.sqlite_vault import SQLiteVault, vault_path

SEED = bytes(range(32))
COMMITMENT = hashlib.sha256(SEED).hexdigest()


@pytest.mark.parametrize("umask", [0o022, 0o277, 0o000], ids=lambda m: f"umask-{m:03o}")
def test_a_key_file_the_vault_creates_is_0600_whatever_the_umask(
    tmp_path: Path, umask: int
) -> None:
    old = os.umask(umask)
    try:
        vault = SQLiteVault(vault_path(tmp_path / "w.db"), create=True)
        vault.put_key(COMMITMENT, SEED, "g")
    finally:
        os.umask(old)
    assert mode(vault.path) == 0o600
    assert vault.key(COMMITMENT) == SEED
    vault.close()


@pytest.mark.usefixtures("umask_022")
@pytest.mark.parametrize("create", [True, False])
def test_an_empty_key_file_found_is_taken_over_owner_only(tmp_path: Path, create: bool) -> None:
    """Given an empty key file someone made readable by everyone (``: > w.db.keys`` under
    umask 022), when the vault opens it to keep a game's seed, then it is made 0600 first
    (with its -wal and -shm): it had kept the seed in a file others could read."""
    path = vault_path(tmp_path / "w.db")
    Path(path).touch()
    assert mode(path) == 0o644
    vault = SQLiteVault(path, create=create)
    vault.put_key(COMMITMENT, SEED, "g")
    assert mode(path) == 0o600
    for side in (f"{path}-wal", f"{path}-shm"):
        assert not os.path.exists(side) or mode(side) == 0o600
    vault.close()


def key_file(tmp_path: Path) -> str:
    vault = SQLiteVault(vault_path(tmp_path / "w.db"), create=True)
    vault.put_key(COMMITMENT, SEED, "g")
    vault.close()
    return vault.path


@pytest.mark.parametrize("loose", [0o644, 0o640, 0o604, 0o660], ids=lambda m: f"{m:o}")
def test_a_key_file_holding_keys_that_others_may_open_is_refused_untouched(
    tmp_path: Path, loose: int
) -> None:
    """Given a key file holding a game's seed whose mode lets others open it (copied without
    its mode, say), when the vault opens it, then it refuses in one line naming the file, its
    mode and the fix, and leaves it as it was: whoever could read it may know the seeds, which
    the referee must weigh before making it owner-only again."""
    path = key_file(tmp_path)
    os.chmod(path, loose)
    before = Path(path).read_bytes()
    with pytest.raises(StoreError) as caught:
        SQLiteVault(path).key(COMMITMENT)
    assert caught.value.code == "store/key_file_exposed"
    assert caught.value.message == (
        f"the key file {path} may be opened by others (mode {loose:o}): it holds the games' "
        "secret keys, which whoever could read it may know; make it owner-only "
        f"(chmod 600 {path}) to go on"
    )
    assert (mode(path), Path(path).read_bytes()) == (loose, before)
    os.chmod(path, 0o600)
    assert SQLiteVault(path).key(COMMITMENT) == SEED


def test_a_write_ahead_log_that_others_may_open_is_refused(tmp_path: Path) -> None:
    """Given a key file that is owner-only beside a -wal (which holds the pages last written:
    keys) that others may open, when the vault opens it, then the -wal is named."""
    path = key_file(tmp_path)
    wal = Path(f"{path}-wal")
    wal.write_bytes(b"")
    os.chmod(wal, 0o644)
    with pytest.raises(StoreError) as caught:
        SQLiteVault(path).key(COMMITMENT)
    assert caught.value.code == "store/key_file_exposed"
    assert f"the key file {wal} may be opened by others (mode 644)" in caught.value.message


def test_an_empty_key_file_whose_write_ahead_log_holds_keys_is_refused_untouched(
    tmp_path: Path,
) -> None:
    """Given a key file of no bytes yet (its pages not yet copied back from the -wal) beside
    a -wal that holds them, both open to others, when the vault opens it, then it refuses: it
    is not an empty file to take over, and quietly making the two owner-only would hide that
    others could read the keys."""
    path = vault_path(tmp_path / "w.db")
    Path(path).write_bytes(b"")
    wal = Path(f"{path}-wal")
    wal.write_bytes(b"pages holding keys")
    os.chmod(path, 0o644)
    os.chmod(wal, 0o644)
    with pytest.raises(StoreError) as caught:
        SQLiteVault(path).key(COMMITMENT)
    assert caught.value.code == "store/key_file_exposed"
    assert (mode(path), mode(wal)) == (0o644, 0o644)


def test_an_empty_key_file_its_user_cannot_make_owner_only_is_refused(shared_dir: Path) -> None:
    """Given an empty key file that another user made and left open to everyone (mode 666),
    when a user who may not change its mode opens the vault to keep a seed, then it is one
    line, store/key_file_exposed, naming the file and the system's reason, and nothing is
    kept in it (the file is root's, the vault runs as ``nobody``: two users are needed)."""
    if os.geteuid() != 0:
        pytest.skip("needs a file of another user's: run as root, the vault runs as nobody")
    path = vault_path(shared_dir / "w.db")
    Path(path).touch()
    os.chmod(path, 0o666)
    result = finish(start_child(keep_a_key, path, user=NOBODY, reach=shared_dir))
    if result[0] == "skip":
        pytest.skip(result[1])
    assert result == (
        "StoreError",
        "store/key_file_exposed",
        f"cannot make the key file {path} owner-only (Operation not permitted)",
    )
    assert (mode(path), os.path.getsize(path)) == (0o666, 0)
