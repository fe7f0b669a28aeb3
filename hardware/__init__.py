"""Adapter package: hardware (see docs/architecture.md)."""
