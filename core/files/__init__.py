"""RigForge files: the versioned JSON format, safe reading, atomic saving, URL loading."""
