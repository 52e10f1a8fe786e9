"""Process-wide runtime policies (garbage collection after start-up)."""
