"""Compiled rule sets of mandarin."""
