"""Judging schedulers from measurements: statistics, verdicts, the points method, evidence."""
