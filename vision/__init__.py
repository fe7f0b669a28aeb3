"""Adapter package: vision (see docs/architecture.md)."""
