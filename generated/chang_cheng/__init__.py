"""Compiled rule sets of chang-cheng."""
