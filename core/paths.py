"""Where bundled rule files and generated modules live, in a checkout or an installed wheel."""

from __future__ import annotations

import keyword
import os
import re
from pathlib import Path

# A game id, as build_ir checks it (a keyword is refused by the driver: it is a module name).
GAME_ID = re.compile(r"[a-z][a-z0-9-]*")
# A rule set id: `game` or `game/variant` (`china-cornett`, `mandarin/money`), lowercase
# letters, digits, `-` and `_`, always matched whole. No `.`, no second `/`: an id can only name
# a module of the generated package.
RULESET_ID = re.compile(r"[a-z0-9][a-z0-9_-]*(?:/[a-z0-9][a-z0-9_-]*)?")
MAX_ID_LENGTH = 128
# What a rule file's path may hold, as shown in messages and in generated comments: ASCII
# letters, digits, `-`, `_`, `.` and `/`. No space, quote, backslash, newline or other control
# character can reach a `# comment` of a generated module.
_PLAIN_PATH = re.compile(r"[A-Za-z0-9._/-]+")
# A rule file's name without `.yaml`: it becomes the variant and a module name.
_FILE_STEM = re.compile(r"[a-z_][a-z0-9_-]*")
RULE_FILE_SUFFIXES = (".yaml", ".yml")


def is_ruleset_id(text: str) -> bool:
    return len(text) <= MAX_ID_LENGTH and RULESET_ID.fullmatch(text) is not None


def package_root() -> Path:
    """The folder of the `rulewright` package as installed (possibly a link tree)."""
    return Path(__file__).parent.parent


def checkout_root() -> Path | None:
    """The repository this package runs from (an editable install), else None."""
    real = Path(os.path.realpath(__file__)).parent.parent  # core/ -> repository root
    if (real / "pyproject.toml").is_file() and (real / "rules").is_dir() and (real / "compiler").is_dir():
        return real
    return None


def rules_dir() -> Path:
    root = checkout_root()
    return root / "rules" if root else package_root() / "rules"


def bundled_rulesets() -> list[tuple[str, Path]]:
    """Every bundled rule set (`china-cornett`, `mandarin/money`) and its rule file
    (rules/<game>/<name>.yaml): a game's base rule set first, then its variants."""
    root = rules_dir()
    found: list[tuple[str, Path]] = []
    if not root.is_dir():
        return found
    for game_dir in sorted(p for p in root.iterdir() if p.is_dir() and p.name[:1] not in "._"):
        files = sorted(game_dir.glob("*.yaml"), key=lambda f: (f.stem != "base", f.stem))
        for f in files:
            found.append((game_dir.name if f.stem == "base" else f"{game_dir.name}/{f.stem}", f))
    return found


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


def is_module_name(name: str) -> bool:
    """Whether `name` (a game id or variant, `-` read as `_`) is a module name we write: an
    identifier, not a keyword, not a dunder (`__init__`)."""
    module = module_name(name)
    return module.isidentifier() and module.isascii() and not keyword.iskeyword(module) \
        and not module.startswith("__")


def shown_safely(text: str) -> str:
    """`text` with every character that is not printable escaped (`\\n`, `\\x00`): safe to
    print in one message line."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def path_problem(path: Path) -> tuple[str, str] | None:
    """Why a rule file's path cannot name a rule set (a message and a hint), or None.

    Its path is written into the comments of generated code and its name (without `.yaml`) is
    the variant's module name, so the name must be a lowercase module name ending in `.yaml`
    (`my-variant.yaml`) and the whole path as shown plain: ASCII letters, digits, `-`, `_`,
    `.` and `/`. Such a path is refused, never rewritten: a rule file is named as it is."""
    shown = display(path)
    name = Path(shown).name
    stem, suffix = os.path.splitext(name)
    rename = "rename the file, e.g. `my-variant.yaml`"
    if suffix not in RULE_FILE_SUFFIXES or not _FILE_STEM.fullmatch(stem):
        return (f"file name `{shown_safely(name)}` cannot name a rule set: a rule file's name is lowercase "
                "letters, digits, `-` and `_`, ending in `.yaml` (it is the variant's module name)", rename)
    if not is_module_name(stem):
        return f"file name `{name}` cannot name a rule set: `{module_name(stem)}` is reserved in Python", rename
    if not _PLAIN_PATH.fullmatch(shown):
        return (f"path `{shown_safely(shown)}` cannot be written into generated code: a rule file's path holds "
                "only ASCII letters, digits, `-`, `_`, `.` and `/`",
                "move the file, or run rulewright from its folder")
    return None


# The journal an interrupted `compile` leaves in the output folder (compiler/driver.py).
JOURNAL = ".rulewright-journal.json"
