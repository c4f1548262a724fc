"""Planning: the rules engine, plans for every device of an observed host, the answer about them, and
plans for a fleet (hosts alike planned once)."""
