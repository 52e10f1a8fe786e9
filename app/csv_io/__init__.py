"""CSV import (one row = one batch, through the outbox) and export of the calendar."""
