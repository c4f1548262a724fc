"""The knowledge base: its schema, every kind of entity, loading, validating and checking YAML, the
compiled cache everyday commands read, and a context resolved against it."""
