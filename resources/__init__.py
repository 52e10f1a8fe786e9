"""The app's own files (style, icons, .desktop file), shipped as the package postdesk_resources."""
