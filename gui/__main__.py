from gui.main import main

raise SystemExit(main())
