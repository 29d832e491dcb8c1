"""Compiled rule sets, one subpackage per game, one module per rule set. Written by
`rulewright compile`; never edit by hand."""

import os as _os

# An editable install links files one by one; a game compiled after the install is found in
# the real folder too.
_real = _os.path.dirname(_os.path.realpath(__file__))
if _real not in __path__:
    __path__.append(_real)
