"""Speed benchmarks: `make bench` (never part of `make test`)."""
