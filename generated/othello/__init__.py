"""Compiled rule sets of othello."""
