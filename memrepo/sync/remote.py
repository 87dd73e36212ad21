"""The user's remote: which URLs memrepo accepts, and fetching and pushing `main` only.

Every transfer is one `git` command (see `memrepo.sync.credentials` for why) naming the
URL and an explicit refspec, never a configured remote's default refspecs: the fetch
reads the remote's main into `refs/memrepo/incoming/main`, the push sends main (as
`refs/heads/main`, or the commit sync integrated, by id) to the remote's
`refs/heads/main` and nothing else, without `+` and without `--force`,
so review branches (`dream/*`), conflict branches (`sync/*`) and memrepo's own refs can
never leave the machine, and a push that is not a fast-forward on the remote is rejected
by git itself.
"""

from __future__ import annotations

import os
import posixpath
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit

from memrepo.errors import RemoteUnreachable, SyncError, UnsafeRemote
from memrepo.hygiene import find_secrets
from memrepo.sync.credentials import (
    CredentialProvider,
    UserCredentials,
    classify_failure,
    git_environment,
)

MAIN_REFSPEC = "refs/heads/main:refs/heads/main"
#: Seconds one fetch or push may take before it counts as an unreachable remote.
DEFAULT_TIMEOUT = 300.0
_SCP_LIKE = re.compile(r"^(?:(?P<user>[^@/:]+)@)?(?P<host>[^/:]+):(?P<path>.+)$")
_SECRET_PARAMS = ("token", "key", "password", "passwd", "secret", "auth", "signature", "sig")
_SCHEMES = ("ssh", "git", "http", "https", "file", "git+ssh", "ssh+git")
_SSH_SCHEMES = ("ssh", "git+ssh", "ssh+git")
#: Host names that are this machine (``localhost`` after normalising).
_LOCAL_HOSTS = frozenset({"", "localhost", "127.0.0.1", "::1", "0:0:0:0:0:0:0:1"})
_TOKEN_LIKE = re.compile(r"^[A-Za-z0-9_\-.=]{20,}$")
_NO_MAIN = "couldn't find remote ref"


def check_url(url: str) -> str:
    """The URL, stripped, or UnsafeRemote saying why it is refused.

    Refused: credentials inside the URL (a password, a token as user name or in the
    query), since memrepo would then store a secret in its config and show it in every
    message; helper transports (`ext::`) that run commands; an option-looking string.
    """
    url = url.strip()
    if not url or url.startswith("-") or any(ch in url for ch in "\x00\n\r"):
        raise UnsafeRemote(f"{url!r}: not a usable git URL")
    if "::" in url.split("/", 1)[0]:
        raise UnsafeRemote(
            f"{url}: remote helpers (`<transport>::`) can run commands; use an ssh://, "
            "https:// or git:// URL or a path"
        )
    parts = urlsplit(url)
    if parts.scheme and "://" in url:
        _check_url_parts(url, parts.scheme.lower(), parts.username, parts.password, parts.query)
    else:
        match = _SCP_LIKE.match(url)
        if match and "/" not in match.group("host") and not Path(url).exists():
            user = match.group("user") or ""
            if ":" in user or _looks_secret(user):
                raise _credentials_in(url)
    return url


def _check_url_parts(
    url: str, scheme: str, user: str | None, password: str | None, query: str
) -> None:
    if scheme not in _SCHEMES:
        raise UnsafeRemote(f"{url}: scheme {scheme!r} is not supported; use ssh, https or git")
    if password is not None:
        raise _credentials_in(url)
    if user and scheme.startswith("http") and _looks_secret(user):
        raise _credentials_in(url)
    for name, _value in parse_qsl(query, keep_blank_values=True):
        if any(word in name.casefold() for word in _SECRET_PARAMS):
            raise _credentials_in(url)


def _looks_secret(user: str) -> bool:
    return bool(user) and (bool(find_secrets(user)) or bool(_TOKEN_LIKE.match(user)))


def _credentials_in(url: str) -> UnsafeRemote:
    return UnsafeRemote(
        f"{_without_secrets(url)}: the URL carries credentials; memrepo would have to "
        "store them in its config and print them in messages. Use the URL without them "
        "and let ssh-agent, an ssh key (--ssh-key) or your git credential helper supply them"
    )


def _without_secrets(url: str) -> str:
    """The URL with user info and query replaced by `***`, for messages."""
    if "://" in url:
        parts = urlsplit(url)
        host = parts.netloc.rpartition("@")[2]
        user = "***@" if "@" in parts.netloc else ""
        query = "?***" if parts.query else ""
        return f"{parts.scheme}://{user}{host}{parts.path}{query}"
    return re.sub(r"^[^@/:]+@", "***@", url)


def same_remote(a: str, b: str) -> bool:
    """Whether two URLs may name the same repository, so a team repo cannot be configured
    as the user's own remote under another spelling (see :func:`location`). Two local
    repositories that exist are compared as folders (one folder under two mount points
    is one; ``x`` and ``x.git`` side by side are two)."""
    first, second = _local_git_dir(a), _local_git_dir(b)
    if first is not None and second is not None:
        return os.path.samefile(first, second)
    return location(a) == location(b)


def location(url: str) -> str:
    """Where a URL's repository lives, one spelling per place.

    A guard, so it errs towards "the same": local paths and ``file://`` URLs (git ignores
    their host and decodes ``%XX``) become the real path of the repository (symlinks and
    ``..`` resolved, ``repo`` and ``repo.git`` and ``repo/.git`` one place); a network
    URL becomes its host (``localhost``, ``127.0.0.1`` and ``::1`` one host) and its path
    without ``~/``, a leading or trailing ``/`` or ``.git``, compared without case, and
    without scheme, user or port (``git@host:x``, ``ssh://host/x`` and ``https://host/x``
    are one repository on the usual forges). ``ssh`` to this machine is a local path.
    """
    url = url.strip()
    if "://" in url:
        parts = urlsplit(url)
        scheme, path = parts.scheme.lower(), unquote(parts.path)
        if scheme == "file":
            return _local_location(path)
        host = _host(parts.hostname or "")
        if host == "localhost" and scheme in _SSH_SCHEMES and path.startswith("/"):
            return _local_location(path)
        return _network_location(host, path)
    match = _SCP_LIKE.match(url)
    if match and "/" not in match.group("host") and not Path(url).exists():
        host, path = _host(match.group("host")), match.group("path")
        if host == "localhost" and path.startswith("/"):
            return _local_location(path)
        return _network_location(host, path)
    return _local_location(url)


def _host(host: str) -> str:
    host = host.strip("[]").casefold()
    return "localhost" if host in _LOCAL_HOSTS else host


def _network_location(host: str, path: str) -> str:
    path = path.removeprefix("/").removeprefix("~/")
    path = posixpath.normpath("/" + path).strip("/")
    path = path.removesuffix("/.git").removesuffix(".git").rstrip("/")
    return f"//{host}/{path.casefold()}"


def _local_location(path: str) -> str:
    found = _git_dir_of(path)
    real = os.path.realpath(found if found is not None else os.path.expanduser(path))
    real = real.removesuffix("/.git").removesuffix(".git").rstrip("/")
    return real or "/"


def _git_dir_of(path: str) -> str | None:
    """The folder git opens for a local path (``path``, ``path.git``, ``path/.git``, as
    git tries them), or None when none exists."""
    path = os.path.expanduser(path).rstrip("/") or "/"
    for candidate in (os.path.join(path, ".git"), path, path + ".git"):
        if os.path.isdir(candidate):
            return candidate
    return None


def _local_git_dir(url: str) -> str | None:
    url = url.strip()
    if url.startswith("file://"):
        return _git_dir_of(unquote(urlsplit(url).path))
    if "://" in url or (_SCP_LIKE.match(url) and not Path(url).exists()):
        return None
    return _git_dir_of(url)


@dataclass(frozen=True, slots=True)
class PushOutcome:
    """Whether the remote took main; `reason` is git's word when it did not."""

    accepted: bool
    reason: str = ""


class GitRemote:
    """One remote URL, spoken to by the git command line for the repo at `git_dir`."""

    def __init__(
        self,
        git_dir: Path,
        url: str,
        credentials: CredentialProvider | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> None:
        self.git_dir = git_dir
        self.url = url
        self.credentials: CredentialProvider = credentials or UserCredentials()
        self.timeout = timeout

    def fetch_main(self, into: str) -> bool:
        """Fetch the remote's main into ref `into`; False when the remote has no main."""
        args = ["fetch", "--no-tags", "--no-write-fetch-head", "--quiet"]
        result = self._git([*args, "--", self.url, f"+refs/heads/main:{into}"], "fetch from")
        if result.returncode == 0:
            return True
        if _NO_MAIN in result.stderr:
            return False
        raise classify_failure(self.url, "fetch from", result.stderr)

    def push_main(self, commit: str | None = None) -> PushOutcome:
        """Push main (or exactly `commit`, which main holds or descends from) to the
        remote's main, never forced; a rejection is an outcome."""
        spec = f"{commit}:refs/heads/main" if commit is not None else MAIN_REFSPEC
        result = self._git(["push", "--porcelain", "--", self.url, spec], "push to")
        for line in result.stdout.splitlines():
            flag, _, rest = line.partition("\t")
            if not rest.startswith(spec):
                continue
            if flag in ("*", " ", "=", "+"):
                return PushOutcome(True)
            if flag == "!":
                return PushOutcome(False, rest.split("\t", 1)[-1].strip())
        if result.returncode == 0:
            return PushOutcome(True)
        raise classify_failure(self.url, "push to", result.stderr)

    def _git(self, args: list[str], action: str) -> subprocess.CompletedProcess[str]:
        command = ["git", f"--git-dir={self.git_dir}", "-c", "protocol.ext.allow=never", *args]
        try:
            return subprocess.run(
                command,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                errors="replace",
                env=git_environment(self.credentials, self.url),
                timeout=self.timeout,
                check=False,
                # ssh reads passphrases, passwords and host-key questions from /dev/tty,
                # not stdin: without a terminal of its own it fails at once instead of
                # stalling an agent's sync until the timeout.
                start_new_session=True,
            )
        except subprocess.TimeoutExpired as exc:
            raise RemoteUnreachable(
                f"{action} {self.url}: no answer within {self.timeout:.0f}s; local memory is "
                "unchanged; sync again later"
            ) from exc
        except OSError as exc:
            raise SyncError(f"cannot run git ({exc}); is the git command line installed?") from exc
