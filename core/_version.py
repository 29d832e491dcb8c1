"""The version of rulewright, in one place: the package's metadata (pyproject.toml reads it from
here), `rulewright --version`, the language server and the header of every generated module
(compiler/codegen.py). A module of its own, importing nothing, so that every layer may import it."""

__version__ = "0.1.0"
