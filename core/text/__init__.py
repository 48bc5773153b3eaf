"""Text for people, rendered in one place from core's codes and numbers.

GUI, CLI and PDF all format through here so a figure reads the same everywhere.
"""
