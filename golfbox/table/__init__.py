"""The table service: threads, timers and persistence around the engine."""
