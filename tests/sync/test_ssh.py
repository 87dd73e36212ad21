"""Sync over real ssh: an OpenSSH server on a loopback port, logins with generated keys.

The server is the system's `/usr/sbin/sshd` (`.ci/run` installs openssh-server when it
can; without it these tests skip and say why), run in the foreground with its own config,
host key and authorized_keys under tmp: only key logins, only on 127.0.0.1.

OpenSSH finds `~/.ssh` through the passwd entry, not `$HOME`, so the isolated HOME of the
test session cannot hold a known_hosts file. The test's client config is handed to ssh the
way a user's `~/.ssh/config` would be: an `ssh` first on PATH that runs the real one with
`-F CONFIG` (this server's host key only, strict host key checking, no ssh-agent).
memrepo's own command, `ssh -i KEY -o IdentitiesOnly=yes` built from the key path in its
config, runs unchanged on top of it.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from shlex import quote

import pytest

from memrepo import MemoryRepo
from memrepo.errors import CredentialMissing

from .conftest import CLOCK, STARTUP_SECONDS, free_port, make_bare, snapshot, texts
from .test_sync_machines import assert_same_memory, write_round

Git = Callable[..., str]
SSHD = Path("/usr/sbin/sshd")
PRIVSEP_DIR = Path("/run/sshd")

pytestmark = pytest.mark.integration


def keygen(path: Path) -> Path:
    """A new passphrase-less ed25519 key pair; returns the private key's path."""
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "memrepo-test", "-f", str(path)],
        check=True, capture_output=True,
    )  # fmt: skip
    return path


@dataclass
class SshServer:
    """A running sshd that accepts `user` logging in with `user_key` and nothing else."""

    root: Path
    port: int
    user: str
    user_key: Path
    process: subprocess.Popen[bytes]

    def url(self, bare: Path) -> str:
        return f"ssh://{self.user}@127.0.0.1:{self.port}{bare.resolve()}"

    def log(self) -> str:
        return (self.root / "sshd.log").read_text(errors="replace")

    def ls_remote(self, url: str) -> set[str]:
        """The remote's refs as plain `git ls-remote` over ssh lists them (HEAD excluded)."""
        env = {
            **os.environ,
            "GIT_SSH_COMMAND": f"ssh -i {quote(str(self.user_key))} -o IdentitiesOnly=yes",
        }
        out = subprocess.run(
            ["git", "ls-remote", url], check=True, capture_output=True, text=True, env=env
        ).stdout
        return {line.split("\t")[1] for line in out.splitlines() if not line.endswith("\tHEAD")}

    def stop(self) -> None:
        """SIGTERM sshd and the sessions it forked (its own process group)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=STARTUP_SECONDS)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=STARTUP_SECONDS)


def server_config(root: Path, port: int, host_key: Path, authorized: Path) -> Path:
    lines = [
        f"Port {port}",
        "ListenAddress 127.0.0.1",
        f"HostKey {host_key}",
        f"PidFile {root / 'sshd.pid'}",
        f"AuthorizedKeysFile {authorized}",
        "PubkeyAuthentication yes",
        "PasswordAuthentication no",
        "KbdInteractiveAuthentication no",
        "UsePAM no",
        "StrictModes no",
        "LogLevel VERBOSE",
    ]
    if os.geteuid() == 0:
        lines.append("PermitRootLogin prohibit-password")
    config = root / "sshd_config"
    config.write_text("\n".join(lines) + "\n")
    return config


def client_config(root: Path, port: int, host_key: Path) -> Path:
    """ssh's config for the tests, and an `ssh` on PATH that uses it (see the docstring)."""
    known_hosts = root / "known_hosts"
    key_type, key_body = host_key.with_suffix(".pub").read_text().split()[:2]
    known_hosts.write_text(f"[127.0.0.1]:{port} {key_type} {key_body}\n")
    config = root / "ssh_config"
    config.write_text(
        "Host *\n"
        f"    UserKnownHostsFile {known_hosts}\n"
        "    GlobalKnownHostsFile /dev/null\n"
        "    StrictHostKeyChecking yes\n"
        "    IdentityAgent none\n"
    )
    real_ssh = shutil.which("ssh")
    if real_ssh is None:
        pytest.skip("the ssh client is not installed")
    bin_dir = root / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "ssh"
    wrapper.write_text(f'#!/bin/sh\nexec {quote(real_ssh)} -F {quote(str(config))} "$@"\n')
    wrapper.chmod(0o755)
    return bin_dir


def wait_until_listening(process: subprocess.Popen[bytes], port: int, log: Path) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"sshd exited with {process.returncode}: {log.read_text()}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return
        time.sleep(0.05)
    raise RuntimeError(f"sshd did not listen on port {port}: {log.read_text()}")


def start_sshd(root: Path) -> SshServer:
    if not SSHD.exists():
        pytest.skip(f"{SSHD} is not installed (install openssh-server to run the ssh tests)")
    if not PRIVSEP_DIR.is_dir():
        if os.geteuid() != 0:
            pytest.skip(f"sshd needs its privilege separation dir {PRIVSEP_DIR} (root only)")
        PRIVSEP_DIR.mkdir(mode=0o755, parents=True)
    host_key = keygen(root / "host_ed25519")
    user_key = keygen(root / "user_ed25519")
    authorized = root / "authorized_keys"
    authorized.write_text(user_key.with_suffix(".pub").read_text())
    port = free_port()
    config = server_config(root, port, host_key, authorized)
    log = root / "sshd.log"
    with log.open("wb") as sink:  # sshd keeps its own descriptor
        process = subprocess.Popen(
            [str(SSHD), "-D", "-e", "-f", str(config)],
            stdin=subprocess.DEVNULL, stdout=sink, stderr=sink, start_new_session=True,
        )  # fmt: skip
    server = SshServer(root, port, pwd.getpwuid(os.getuid()).pw_name, user_key, process)
    try:
        wait_until_listening(process, port, log)
    except RuntimeError:
        server.stop()
        raise
    return server


@pytest.fixture(scope="module")
def sshd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SshServer]:
    """A real sshd on 127.0.0.1, and ssh on PATH set up to trust only its host key."""
    root = tmp_path_factory.mktemp("sshd")
    server = start_sshd(root)
    try:
        bin_dir = client_config(root, server.port, root / "host_ed25519")
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
            mp.delenv("SSH_AUTH_SOCK", raising=False)
            yield server
    finally:
        server.stop()


@pytest.mark.slow
def test_two_machines_sync_over_ssh_with_the_configured_key(
    tmp_path: Path, sshd: SshServer, git: Git
) -> None:
    url = sshd.url(make_bare(tmp_path / "remote.git"))
    key = str(sshd.user_key.resolve())
    a = MemoryRepo.init(tmp_path / "a", clock=CLOCK)
    assert a.set_remote(url, confirm_private=True, ssh_key=key).ssh_key == key
    assert a.sync().pushed
    b = MemoryRepo.clone(url, tmp_path / "b", confirm_private=True, ssh_key=key, clock=CLOCK)
    remote = b.remote()
    assert remote is not None and remote.ssh_key == key  # b's later syncs use it too
    expected: set[str] = set()
    for rnd in range(2):
        # Both write before either syncs, so every round merges over ssh.
        expected |= write_round(a, "A", rnd, 3)
        expected |= write_round(b, "B", rnd, 3)
        git(a.root, "branch", "-f", f"dream/2026-03-0{rnd + 1}-1", "main")
        assert a.sync().pushed
        second = b.sync()
        assert second.integration == "merged" and second.pushed and second.conflicts == ()
        assert a.sync().integration == "fast_forward"
        assert_same_memory(a, b, expected, git)
        assert sshd.ls_remote(url) == {"refs/heads/main"}
    # The transfers really went through this sshd, logged in with the user key.
    assert "Accepted publickey for" in sshd.log()


@pytest.mark.parametrize("key_case", ["key not authorized", "key file gone"])
@pytest.mark.slow
def test_a_key_the_server_refuses_fails_clearly_and_changes_nothing(
    tmp_path: Path, sshd: SshServer, git: Git, key_case: str
) -> None:
    bare = make_bare(tmp_path / "remote.git")
    url = sshd.url(bare)
    (tmp_path / "keys").mkdir()
    stranger = keygen(tmp_path / "keys" / "stranger_ed25519")
    repo = MemoryRepo.init(tmp_path / "mem", clock=CLOCK)
    repo.remember("A fact that stays on this machine")
    repo.set_remote(url, confirm_private=True, ssh_key=str(stranger))
    if key_case == "key file gone":
        stranger.unlink()  # moved or deleted after it was configured
    before = (repo.folder.store.main_id(), texts(repo), snapshot(bare))
    # Had ssh waited for a password or passphrase, git's timeout would have ended it as
    # RemoteUnreachable; CredentialMissing means ssh gave up by itself at once.
    with pytest.raises(CredentialMissing, match=r"Permission denied \(publickey\)"):
        repo.sync()
    assert repo.sync_status().last_error_kind == "CredentialMissing"
    assert (repo.folder.store.main_id(), texts(repo), snapshot(bare)) == before
    assert git(repo.root, "status", "--porcelain") == ""
    assert "A fact that stays on this machine" in texts(repo)


@pytest.mark.slow
def test_a_clone_with_a_refused_key_leaves_no_folder_behind(
    tmp_path: Path, sshd: SshServer
) -> None:
    url = sshd.url(make_bare(tmp_path / "remote.git"))
    stranger = keygen(tmp_path / "stranger_ed25519")
    target = tmp_path / "second-machine"
    with pytest.raises(CredentialMissing, match="ssh key"):
        MemoryRepo.clone(url, target, confirm_private=True, ssh_key=str(stranger))
    assert not target.exists()
