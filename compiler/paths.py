"""Where bundled rule files and generated modules live, in a checkout or an installed wheel."""

from __future__ import annotations

import os
from pathlib import Path


def package_root() -> Path:
    """The folder of the `rulewright` package as installed (possibly a link tree)."""
    return Path(__file__).parent.parent


def checkout_root() -> Path | None:
    """The repository this package runs from (an editable install), else None."""
    real = Path(os.path.realpath(__file__)).parent.parent  # compiler/ -> repository root
    if (real / "pyproject.toml").is_file() and (real / "rules").is_dir() and (real / "compiler").is_dir():
        return real
    return None


def rules_dir() -> Path:
    root = checkout_root()
    return root / "rules" if root else package_root() / "rules"


def generated_dir() -> Path:
    root = checkout_root()
    return root / "generated" if root else package_root() / "generated"


def display(path: Path) -> str:
    """The path as shown in messages and generated comments: relative to the checkout for
    bundled rules (so generated code does not depend on where the repository is), relative to
    the working directory when possible, else absolute."""
    path = Path(os.path.abspath(path))
    for base in (checkout_root(), package_root().resolve(), Path.cwd()):
        if base is None:
            continue
        try:
            return path.relative_to(base).as_posix()
        except ValueError:
            continue
    return path.as_posix()


def ruleset_file(ruleset: str) -> Path:
    """`china-cornett` -> rules/china-cornett/base.yaml; `mandarin/money` -> rules/mandarin/money.yaml."""
    game, _, variant = ruleset.partition("/")
    return rules_dir() / game / f"{variant or 'base'}.yaml"


def module_name(game: str) -> str:
    return game.replace("-", "_")
