"""RigForge core: models, catalog and calculations. Never imports Qt."""

__version__ = "0.1.0"
