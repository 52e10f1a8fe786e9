"""Desktop notifications for what needs attention: posts that failed or partially published,
webhooks that became paused. `changes` decides (no Qt); `tray` shows."""
