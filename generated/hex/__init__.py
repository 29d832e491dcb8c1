"""Compiled rule sets of hex."""
