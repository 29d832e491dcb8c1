"""Compiled rule sets of china-cornett."""
