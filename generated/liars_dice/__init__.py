"""Compiled rule sets of liars-dice."""
