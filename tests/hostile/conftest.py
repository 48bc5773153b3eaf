"""The window fixtures of the GUI tests, for the hostile suite's window cases."""

from tests.gui.conftest import make_window

__all__ = ["make_window"]
