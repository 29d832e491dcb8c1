"""Compiled rule sets of backgammon."""
