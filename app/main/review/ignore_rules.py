"""Which paths a snapshot leaves out: version-control folders always, and what the folder's own
`.gitignore` files say (each one for the paths below its folder, a deeper file's decision winning, as
git decides), whether or not the folder is a git checkout. What is left out is not tracked: the review
says how many."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported with the first .gitignore met, not at startup
    import pathspec

VCS_FOLDERS = frozenset({".git", ".hg", ".svn", ".jj"})
MAX_GITIGNORE_BYTES = 256 * 1024  # a larger .gitignore is not read (its rules would cost every path)


@dataclass(frozen=True)
class IgnoreRules:
    """The `.gitignore` specs that apply in one folder, outermost first, each with the folder it is in
    (a `/`-ended relative prefix, "" for the root)."""

    specs: tuple[tuple[str, pathspec.GitIgnoreSpec], ...] = ()

    def below(self, prefix: str, gitignore: bytes | None) -> IgnoreRules:
        """The rules for the folder `prefix`, given its own `.gitignore` (None: it has none)."""
        if not gitignore:
            return self
        import pathspec

        lines = gitignore.decode("utf-8", "replace").splitlines()
        return IgnoreRules((*self.specs, (prefix, pathspec.GitIgnoreSpec.from_lines(lines))))

    def ignored(self, relative: str, folder: bool) -> bool:
        """Whether `relative` (from the root, `/`-separated) is left out; a folder's rules see it with a
        trailing `/`, as git's do."""
        decision = None
        for prefix, spec in reversed(self.specs):
            if not relative.startswith(prefix):
                continue
            path = relative[len(prefix) :] + ("/" if folder else "")
            include = spec.check_file(path).include
            if include is not None:
                decision = include
                break
        return bool(decision)
