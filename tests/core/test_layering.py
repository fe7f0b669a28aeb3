"""The core stays pure: no adapter or IO library is imported from companion/."""

from __future__ import annotations

import ast
from pathlib import Path

FORBIDDEN = {"kivy", "cv2", "gpiozero", "serial", "hardware", "vision", "ui", "numpy", "socket", "urllib", "http"}
ROOT = Path(__file__).resolve().parents[2] / "companion"


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_companion_imports_no_adapter_or_io_library() -> None:
    offenders = {
        str(path.relative_to(ROOT.parent)): sorted(imported_roots(path) & FORBIDDEN)
        for path in ROOT.rglob("*.py")
        if imported_roots(path) & FORBIDDEN
    }
    assert offenders == {}
