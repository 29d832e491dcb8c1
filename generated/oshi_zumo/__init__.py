"""Compiled rule sets of oshi-zumo."""
