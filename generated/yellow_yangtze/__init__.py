"""Compiled rule sets of yellow-yangtze."""
