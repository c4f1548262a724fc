from iosched.cli import run

raise SystemExit(run())
