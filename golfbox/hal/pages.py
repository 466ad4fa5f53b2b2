"""SSD1306-style display memory: the layout both I2C panels and seat nodes use."""

from __future__ import annotations

from PIL import Image


def pack_pages(image: Image.Image) -> list[bytes]:
    """A mono image as display memory: per 8-row page, one byte per column, top pixel = bit 0."""
    image = image.convert("1")
    width, height = image.size
    pages = []
    for top in range(0, height, 8):
        strip = image.crop((0, top, width, top + 8))
        # Transposed, each column becomes an 8-pixel row that tobytes() packs MSB-first;
        # mirrored first so the top pixel lands in bit 0.
        pages.append(strip.transpose(Image.Transpose.TRANSPOSE)
                     .transpose(Image.Transpose.FLIP_LEFT_RIGHT).tobytes())
    return pages
