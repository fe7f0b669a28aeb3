"""A picture file's size is read from its header, and one too large to decode is refused before decoding."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.eval_dice import read_image
from vision.frames import MAX_PIXELS, decode_image, header_size, image_file, too_large
from vision.sources import SingleImageSource, SourceError


def encoded(suffix: str, params: list[int] | None = None, size: tuple[int, int] = (37, 23)) -> bytes:
    width, height = size
    picture = np.random.default_rng(1).integers(0, 255, (height, width, 3), dtype=np.uint8)
    ok, data = cv2.imencode(suffix, picture, params or [])
    assert ok
    return data.tobytes()


def with_exif(jpeg: bytes) -> bytes:
    """The JPEG with an APP1 segment before its frame header, as a phone writes one."""
    payload = b"Exif\0\0" + bytes(300)
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:]


@pytest.mark.parametrize(
    "data",
    [
        encoded(".png"),
        encoded(".jpg"),
        encoded(".jpg", [cv2.IMWRITE_JPEG_PROGRESSIVE, 1]),
        with_exif(encoded(".jpg")),
        encoded(".bmp"),
        encoded(".webp", [cv2.IMWRITE_WEBP_QUALITY, 80]),
        encoded(".webp", [cv2.IMWRITE_WEBP_QUALITY, 101]),  # lossless
    ],
    ids=["png", "jpeg", "progressive", "exif", "bmp", "webp", "webp-lossless"],
)
def test_the_header_gives_the_size_opencv_decodes(data: bytes) -> None:
    assert header_size(data) == (37, 23)
    assert decode_image(data).shape[:2] == (23, 37)
    assert too_large(data) is None


def png_claiming(width: int, height: int) -> bytes:
    """A real PNG whose header (with a right checksum) says ``width`` x ``height``; its pixels are a 4 x 4's."""
    data = bytearray(encoded(".png", size=(4, 4)))
    header = b"IHDR" + struct.pack(">II", width, height) + bytes(data[24:29])
    data[16:24] = header[4:12]
    data[29:33] = struct.pack(">I", zlib.crc32(header))
    return bytes(data)


def test_a_photo_whose_header_asks_for_hundreds_of_megapixels_is_never_decoded(tmp_path: Path) -> None:
    data = png_claiming(20000, 20000)
    assert MAX_PIXELS < 20000 * 20000
    why = too_large(data)
    assert why is not None and why.startswith("20000 x 20000 pixels (400 megapixels), more than the 128 read")
    assert decode_image(data) is None
    photo = tmp_path / "giant.png"
    photo.write_bytes(data)
    assert image_file(photo) is None
    with pytest.raises(SourceError, match="400 megapixels"):
        SingleImageSource(photo)
    image, reason = read_image(photo)
    assert image is None and reason.startswith("20000 x 20000 pixels")


def test_files_without_a_known_header_are_left_to_opencv() -> None:
    assert header_size(b"") is None and header_size(b"\xff\xd8\xff") is None
    assert header_size(b"\xff\xd8" + b"\xff\xe1\x00\x02" * 3) is None  # segments and no frame header
    tiff = encoded(".tiff")
    assert header_size(tiff) is None and decode_image(tiff).shape[:2] == (23, 37)
