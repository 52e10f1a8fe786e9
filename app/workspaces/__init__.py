"""Connected workspaces: profiles and paths, the key vault, key verification, the demo sandbox."""
