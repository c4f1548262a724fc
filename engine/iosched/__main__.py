from iosched.cli import main

raise SystemExit(main())
