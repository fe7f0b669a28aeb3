"""Adapter package: ui (see docs/architecture.md)."""
