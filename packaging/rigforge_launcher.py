"""PyInstaller entry script: the same as the ``rigforge`` console script."""

from gui.main import main

raise SystemExit(main())
