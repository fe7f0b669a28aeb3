"""Table Companion: the rules core, with no IO beyond its own data files."""
