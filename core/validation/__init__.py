"""Checking the performance model against published measurements."""
