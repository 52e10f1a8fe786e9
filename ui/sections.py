"""The sidebar's sections, in order (also the `--view` choices); nothing heavy imported here."""

SECTIONS = ("calendar", "compose", "labels", "signatures", "accounts", "webhooks", "repurposes")
