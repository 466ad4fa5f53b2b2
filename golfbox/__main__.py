from golfbox.cli import main

raise SystemExit(main())
