"""Compiled rule sets of leduc-poker."""
