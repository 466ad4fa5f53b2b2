"""golfbox: deals, referees and scores the card game Golf at a real table."""

__version__ = "0.1.0"
