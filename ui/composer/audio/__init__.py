"""Pieces of the Instagram audio picker: the results model and preview playback."""
