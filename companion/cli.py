"""The ``companion`` command."""

from __future__ import annotations


def main(argv: list[str] | None = None) -> int:
    raise SystemExit("companion: the command line is being built")
