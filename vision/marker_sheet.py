"""`vision markers OUT.pdf`: a printable A4 sheet with the four board markers and how to stick them.

Written as a hand-made PDF (vector squares plus Helvetica text) so it needs no
library beyond the standard one, and prints crisp at any printer resolution.
"""

from __future__ import annotations

import errno
from pathlib import Path

from companion.paths import write_whole
from vision.markers import CORNER_NAMES, MARKER_IDS, marker_bits

MM = 72 / 25.4
A4 = (595.28, 841.89)

INSTRUCTIONS = [
    "Table Companion - temple board markers",
    "",
    "1. Print at 100% (no 'fit to page'); cut out the four squares along the thin grey lines.",
    "   Each marker's black square is then {size} mm a side: measure one to check the print was not shrunk.",
    "   Print in black on matte paper, on the printer that printed the cards if they are your own:",
    "   the camera judges how the cards' ink looks by the markers' black and white.",
    "2. Stick each marker just OUTSIDE the board, diagonally off the corner named under it,",
    "   so that one black corner of the marker touches the board's corner. Any rotation works.",
    "   North is the edge with slots 1-3; going clockwise: north-east, south-east, south-west.",
    "3. Keep the white margin around each marker visible and flat; nothing may cover a marker.",
    "4. Check with: companion vision watch SOURCE --reader cards (it names any marker it misses).",
]


def may_write_over(path: Path) -> bool:
    """Whether the sheet may be written to ``path``: nothing there, an empty file, or a sheet this command wrote
    (its title is in the page's text, which is not compressed), as when a café prints its markers again at
    another size. Any other file there (a café's menu.pdf) was written over unasked."""
    try:
        if not path.is_file() or path.stat().st_size == 0:
            return True
        with path.open("rb") as file:
            return file.read(4) == b"%PDF" and INSTRUCTIONS[0].encode("latin-1") in file.read(64 * 1024)
    except OSError:  # a file there that cannot be read is no sheet to write over
        return False


def escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def page_content(marker_mm: float) -> str:
    ops: list[str] = []
    w, h = A4
    y = h - 20 * MM
    for i, line in enumerate(INSTRUCTIONS):
        size = 14 if i == 0 else 10
        # The size printed on the sheet: "print at 100%" alone left a sheet shrunk to fit the page unnoticed,
        # its markers smaller than the café asked for, and smaller markers are missed sooner.
        line = line.format(size=f"{marker_mm:g}")
        ops.append(f"BT /F1 {size} Tf {20 * MM:.2f} {y:.2f} Td ({escape(line)}) Tj ET")
        y -= size * 1.5
    side = marker_mm * MM
    module = side / 6
    quiet = module
    gap_x = (w - 2 * (side + 2 * quiet)) / 3
    top = y - 15 * MM
    for index, marker_id in enumerate(MARKER_IDS):
        col, row = index % 2, index // 2
        x0 = gap_x + col * (side + 2 * quiet + gap_x) + quiet
        y0 = top - row * (side + 2 * quiet + 24 * MM) - side  # 24 mm: the 65 mm sheet keeps 10 mm at the foot
        ops.append(f"0.7 G 0.3 w {x0 - quiet:.2f} {y0 - quiet:.2f} {side + 2 * quiet:.2f} {side + 2 * quiet:.2f} re S")
        bits = marker_bits(marker_id)
        ops.append("0 g")
        for r in range(6):
            for c in range(6):
                if bits[r, c]:
                    ops.append(f"{x0 + c * module:.2f} {y0 + (5 - r) * module:.2f} {module:.2f} {module:.2f} re f")
        label = f"marker {marker_id}: {CORNER_NAMES[index]} corner"
        ops.append(f"BT /F1 10 Tf {x0:.2f} {y0 - quiet - 12:.2f} Td ({escape(label)}) Tj ET")
    return "\n".join(ops)


def write_marker_sheet(path: Path, marker_mm: float = 50.0) -> Path:
    """Write the sheet; `marker_mm` is the printed side of each marker (border included)."""
    content = page_content(marker_mm).encode("latin-1")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {A4[0]} {A4[1]}] "
        f"/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>".encode(),
        b"<< /Length " + str(len(content)).encode() + b" >>\nstream\n" + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    path = Path(path)
    if not path.parent.is_dir():  # a mistyped folder is refused, not made
        raise FileNotFoundError(errno.ENOENT, "no such folder", str(path.parent))
    # Whole or not at all: a write stopped half way (a full SD card) left a PDF cut short under the name, over
    # the café's earlier good sheet, looking like a sheet to print.
    write_whole(path, bytes(out))
    return path
