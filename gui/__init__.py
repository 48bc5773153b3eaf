"""RigForge's Qt front end; sits on ``core``."""

# pydantic before Qt: once PySide6 is imported its import hook inspects every module that
# loads after it, and inspecting pydantic's lazily loaded parts mid-import is a circular
# import (seen with a plain, non-editable install). core.models loads what pydantic needs.
import core.models  # noqa: F401
