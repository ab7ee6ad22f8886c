from agenthooks.cli import main

raise SystemExit(main())
