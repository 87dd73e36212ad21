"""The user's own credentials, used through the git command line; memrepo stores none.

Why the git command line and not libgit2 remotes (pygit2 with credential callbacks):

- ssh: OpenSSH reads the user's ``~/.ssh/config`` (host aliases, ``ProxyJump``,
  ``IdentityFile``, known_hosts) and talks to their ssh-agent; libgit2's libssh2 reads
  none of that, so a remote that works in the user's terminal could fail in memrepo. A
  key path set in memrepo's config is handed to ssh with ``-i``; the key stays where it
  is and only its path is stored.
- HTTPS: git asks the user's credential helpers exactly as ``git credential fill``
  does (OS keychain, Git Credential Manager, the store or cache helper they chose), so
  there is nothing to reimplement and nothing for memrepo to keep.
- Failures are explicit: prompts are disabled (``GIT_TERMINAL_PROMPT=0``, stdin closed)
  and messages are in English (``LC_ALL=C``), so a missing credential fails at once with
  a message this module classifies (`CredentialMissing`), instead of a prompt hanging an
  agent that has no terminal.

The cost is one process per fetch or push (a few milliseconds against a network round
trip), and ``benchmarks/bench_sync.py`` compares the whole sync with plain git anyway.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from memrepo.errors import CredentialMissing, RemoteUnreachable, SyncError

#: Phrases of git and ssh (LC_ALL=C) that mean the remote wanted a credential it did not get.
_CREDENTIAL_SIGNS = (
    "terminal prompts disabled",
    "could not read username",
    "could not read password",
    "authentication failed",
    "invalid username or password",
    "permission denied (publickey",
    "permission denied, please try again",
    "no more authentication methods",
    "http basic: access denied",
    "the requested url returned error: 401",
    "the requested url returned error: 403",
)
#: Phrases that mean the remote could not be reached (or stopped answering mid-transfer).
_UNREACHABLE_SIGNS = (
    "could not resolve host",
    "couldn't connect to server",
    "failed to connect",
    "connection refused",
    "connection timed out",
    "connection reset",
    "unable to connect",
    "unable to access",
    "network is unreachable",
    "no route to host",
    "early eof",
    "the remote end hung up",
    "unexpected disconnect",
    "could not read from remote repository",
    "does not appear to be a git repository",
    "broken pipe",
    "index-pack failed",
    "fetch-pack: invalid index-pack output",
    "protocol error",
)


class CredentialProvider(Protocol):
    """What a git command talking to a remote gets in its environment.

    The seam for hosts (and tests) that bring credentials another way, e.g. a helper
    configured through ``GIT_CONFIG_COUNT``; it must never write a secret to disk.
    """

    def environment(self, url: str) -> Mapping[str, str]:
        """Environment variables to add for a git command that talks to `url`."""
        ...


@dataclass(frozen=True, slots=True)
class UserCredentials:
    """The user's own setup: ssh-agent and ssh config, an optional key path, and git's
    credential helpers for HTTPS."""

    ssh_key: str | None = None

    def environment(self, url: str) -> Mapping[str, str]:
        env = {"GIT_TERMINAL_PROMPT": "0", "GCM_INTERACTIVE": "never"}
        if self.ssh_key:
            key = os.path.expanduser(self.ssh_key)
            env["GIT_SSH_COMMAND"] = f"ssh -i {shlex.quote(key)} -o IdentitiesOnly=yes"
        return env


def git_environment(credentials: CredentialProvider, url: str) -> dict[str, str]:
    """The full environment of a git command: the user's, English messages, credentials."""
    env = dict(os.environ)
    env.update({"LC_ALL": "C", "LANGUAGE": "C"})
    env.update(credentials.environment(url))
    return env


def classify_failure(url: str, action: str, stderr: str) -> SyncError:
    """The error a failed git fetch/push stands for, with git's own words in it."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    said = " / ".join(line for line in lines if not line.startswith("hint:"))[:500]
    folded = stderr.casefold()
    if any(sign in folded for sign in _CREDENTIAL_SIGNS):
        return CredentialMissing(
            f"{action} {url}: the remote asked for credentials and none were available "
            f"({said}); load your ssh key into ssh-agent, set its path with "
            "`memrepo remote set URL --ssh-key PATH --i-own-this-private-repo`, or store "
            "an HTTPS token in your git credential helper (memrepo never stores one)"
        )
    if "host key verification failed" in folded:
        return RemoteUnreachable(
            f"{action} {url}: ssh does not know this server's host key ({said}); connect "
            "once with `ssh` yourself to check and accept its fingerprint, then sync again"
        )
    if any(sign in folded for sign in _UNREACHABLE_SIGNS):
        return RemoteUnreachable(
            f"{action} {url}: the remote could not be reached ({said}); local memory is "
            "unchanged and every local command keeps working; sync again when it is back"
        )
    return SyncError(f"{action} {url} failed: {said or 'git gave no reason'}")
