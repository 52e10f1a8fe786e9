"""Post content as text: editor HTML made safe to show."""
