"""One commit shown whole: its trailers and each file's unified diff, bounded.

The hub's commit page (issue #19) and a host that shows "what did the agent change" read
this. The diff is git's own (pygit2, parent tree to commit tree, renames found the way
`git log --follow` finds them, docs/architecture.md), cut to `MAX_FILE_LINES` per file
and `MAX_TOTAL_LINES` in all so a bulk import cannot make a page of megabytes.
"""

from __future__ import annotations

import pygit2
from pygit2.enums import DeltaStatus, DiffFind

from memrepo.errors import EntryNotFound
from memrepo.folder.messages import commit_info
from memrepo.models.commits import CommitDetail, FileChange, FileStatus

MAX_FILE_LINES = 400
MAX_TOTAL_LINES = 2000

_STATUS: dict[DeltaStatus, FileStatus] = {
    DeltaStatus.ADDED: "added",
    DeltaStatus.DELETED: "deleted",
    DeltaStatus.RENAMED: "renamed",
}


def resolve_commit(repo: pygit2.Repository, spec: str) -> pygit2.Commit:
    """The commit a full id, a unique id prefix or a revision (`HEAD~1`) names."""
    try:
        commit = repo.revparse_single(spec).peel(pygit2.Commit)
    except (KeyError, ValueError, pygit2.GitError) as exc:
        raise EntryNotFound(spec, "no such commit (or the id prefix is ambiguous)") from exc
    assert isinstance(commit, pygit2.Commit)
    return commit


def show_commit(
    repo: pygit2.Repository,
    spec: str,
    *,
    file_lines: int = MAX_FILE_LINES,
    total_lines: int = MAX_TOTAL_LINES,
) -> CommitDetail:
    """`spec`'s commit with every file it changed against its first parent (the first
    commit against the empty tree), each diff cut to the caps."""
    commit = resolve_commit(repo, spec)
    if commit.parents:
        diff = commit.parents[0].tree.diff_to_tree(commit.tree)
    else:
        diff = commit.tree.diff_to_tree(swap=True)  # no tree given: the empty tree
    diff.find_similar(DiffFind.FIND_RENAMES)
    files: list[FileChange] = []
    budget = total_lines
    for patch in diff:
        if patch is None:
            continue
        change = _file_change(patch, min(file_lines, budget))
        budget -= len(change.diff.splitlines())
        files.append(change)
    info = commit_info(commit, tuple(sorted({f.path for f in files})))
    return CommitDetail(
        **info.model_dump(), files=tuple(files), truncated=any(f.truncated for f in files)
    )


def _file_change(patch: pygit2.Patch, cap: int) -> FileChange:
    delta = patch.delta
    status = _STATUS.get(delta.status, "modified")
    path = delta.new_file.path if status != "deleted" else delta.old_file.path
    old_path = delta.old_file.path if status == "renamed" else None
    _, additions, deletions = patch.line_stats
    base = FileChange(
        path=path, status=status, old_path=old_path, additions=additions, deletions=deletions
    )
    if delta.is_binary:
        return base.model_copy(update={"binary": True})
    lines = _hunk_lines(patch)
    kept = lines[: max(cap, 0)]
    return base.model_copy(update={"diff": "\n".join(kept), "truncated": len(kept) < len(lines)})


def _hunk_lines(patch: pygit2.Patch) -> list[str]:
    """The hunks of a patch as text: its `diff --git`, index and ---/+++ header is left
    out (path and status are fields), and bytes that are not UTF-8 are replaced."""
    lines = patch.data.decode("utf-8", "replace").splitlines()
    for n, line in enumerate(lines):
        if line.startswith("@@"):
            return lines[n:]
    return []
