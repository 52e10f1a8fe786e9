"""Post media as the desktop shows it: thumbnails downloaded once into the workspace's cache."""
