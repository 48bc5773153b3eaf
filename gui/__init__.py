"""RigForge's Qt front end; sits on ``core``."""
