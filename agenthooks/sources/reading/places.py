"""Where a format's folders are found from: the top of the git work tree a folder is in (Cline
reads the hooks folders of the git root alone; `init` writes its files there)."""

from __future__ import annotations

import os


def git_root(folder: str) -> str | None:
    """The nearest folder from `folder` upward that holds `.git` (a folder, or a worktree's
    file); None outside a repository."""
    here = os.path.abspath(folder)
    while True:
        if os.path.lexists(os.path.join(here, ".git")):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent
