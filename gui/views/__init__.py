"""Widgets that render what view-models emit."""
