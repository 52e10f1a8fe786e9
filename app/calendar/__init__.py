"""What the calendar draws, without Qt: the date grid and the light post cards."""
