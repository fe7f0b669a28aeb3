"""One package per game; each exposes ``GAME``, its Game subclass."""
