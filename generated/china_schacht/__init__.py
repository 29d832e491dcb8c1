"""Compiled rule sets of china-schacht."""
