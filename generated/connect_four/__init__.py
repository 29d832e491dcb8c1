"""Compiled rule sets of connect-four."""
