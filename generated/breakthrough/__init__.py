"""Compiled rule sets of breakthrough."""
