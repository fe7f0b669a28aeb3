"""The colours the screen draws pieces in, and how far apart two colours look to a person.

A café may give its own drawing colours (``#rrggbb``) in some data files: the
camels of Through the Desert, the spaces of the desert lap race. Checking
only their names let a café's camel ``#e02828`` beside the red player's
``#e62626`` pass, and a red rider's dot then vanished on a red camel. Distances
here are CIEDE2000 colour differences in CIE Lab (sRGB, D65 white), the
standard measure of how different two colours look: RGB distance calls a pair
of dark greys and a pair of yellows equally far apart when the eye does not.
Pure arithmetic on the standard library, so the validator can use it; the
boards import these colours too, so what is checked is what is drawn.
"""

from __future__ import annotations

import math

RGB = tuple[float, float, float]  # channels 0 to 1

# The screen colour of each player colour's pieces, on every board.
PIECE_RGB: dict[str, RGB] = {
    "yellow": (0.98, 0.84, 0.1),
    "red": (0.9, 0.15, 0.15),
    "green": (0.1, 0.7, 0.25),
    "blue": (0.2, 0.45, 0.95),
    "white": (0.95, 0.95, 0.95),
    "black": (0.1, 0.1, 0.1),
    "orange": (0.98, 0.55, 0.1),
    "purple": (0.6, 0.3, 0.8),
    "pink": (0.95, 0.5, 0.75),
    "brown": (0.55, 0.35, 0.2),
    "grey": (0.6, 0.6, 0.62),
    "gray": (0.6, 0.6, 0.62),
    "teal": (0.0, 0.62, 0.62),
}
# The shape of each player colour's pieces, on every board, where colour alone would not do. About 1 man in 12
# sees colours with one kind of cone missing or weak: simulated (Machado, Oliveira and Fernandes 2009), red and
# green pieces are 7 apart in CIEDE2000 to a deuteranope, grey and teal 2 and red and brown 2.5 to a protanope,
# green and blue 18 and purple and brown 16 to a tritanope, where 20 is about what a piece needs to be known at
# a glance. So no two colours one game offers that come closer than that under any of the three share a shape:
# the red player is a diamond and the green a square on every board, and the colour names stay true. A name not
# here is a disc, as every piece was.
PIECE_SHAPE: dict[str, str] = {
    "red": "diamond",
    "green": "square",
    "purple": "square",
    "grey": "square",
    "gray": "square",
    "teal": "diamond",
}
SHAPES = ("disc", "square", "diamond")
BACKGROUND: RGB = (0.07, 0.07, 0.09)  # the screen behind every board
UNKNOWN: RGB = (0.7, 0.7, 0.7)  # a colour name the screen has no colour for

# Below this CIEDE2000 difference two colours are refused as one on the table's screen. About 1 is the least
# difference a person sees side by side; up to about 10 two colours read as one at a glance, which is how a piece
# is read from a metre away on a small screen. The house colours closest together that players must tell apart
# are 17.7 apart (the orange rider on the sand), a café's red camel #c62a2a is 6.6 from the red rider's #e62626,
# and a lilac camel #b57edc 14.4 from the purple rider's #994dcc, plainly two colours.
APART = 10.0


def hex_rgb(code: object) -> RGB | None:
    """``#rrggbb`` from a café's data file as 0-1 channels; None for anything else (a drawing never raises)."""
    if not isinstance(code, str) or len(code) != 7 or code[0] != "#":
        return None
    try:
        return tuple(int(code[i : i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]
    except ValueError:
        return None


def piece_rgb(name: str) -> RGB:
    """The screen colour of a named colour's pieces; grey for a name it has none for."""
    return PIECE_RGB.get(str(name).lower(), UNKNOWN)


def piece_shape(name: str) -> str:
    """The shape of a named colour's pieces (``SHAPES``): what tells two players apart to a colour-blind eye."""
    return PIECE_SHAPE.get(str(name).lower(), "disc")


def hex_code(colour: RGB) -> str:
    """``#rrggbb`` of 0-1 channels, as a café would write it, for a message naming both colours."""
    return "#" + "".join(f"{round(max(0.0, min(1.0, c)) * 255):02x}" for c in colour)


def linear(c: float) -> float:
    """An sRGB channel decoded to linear light (IEC 61966-2-1)."""
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def lab(colour: RGB) -> RGB:
    """CIE L*a*b* of an sRGB colour, D65 white (IEC 61966-2-1 decoding, CIE 15 conversion)."""
    r, g, b = (linear(c) for c in colour)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(one: RGB, two: RGB) -> float:
    """How different two sRGB colours look: the CIEDE2000 difference of their Lab values."""
    return ciede2000(lab(one), lab(two))


def ciede2000(one: RGB, two: RGB) -> float:
    """The CIEDE2000 difference of two Lab colours (Sharma, Wu and Dalal 2005, with kL = kC = kH = 1)."""
    l1, a1, b1 = one
    l2, a2, b2 = two
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dlp, dcp = l2 - l1, c2p - c1p
    dh = h2p - h1p
    if c1p * c2p == 0:
        dh = 0.0
    elif dh > 180:
        dh -= 360
    elif dh < -180:
        dh += 360
    dhp = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    lp_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hp_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hp_mean = (h1p + h2p) / 2
    else:
        hp_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(hp_mean - 30))
        + 0.24 * math.cos(math.radians(2 * hp_mean))
        + 0.32 * math.cos(math.radians(3 * hp_mean + 6))
        - 0.20 * math.cos(math.radians(4 * hp_mean - 63))
    )
    d_theta = 30 * math.exp(-(((hp_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean**7 / (cp_mean**7 + 25**7))
    s_l = 1 + 0.015 * (lp_mean - 50) ** 2 / math.sqrt(20 + (lp_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt(
        (dlp / s_l) ** 2 + (dcp / s_c) ** 2 + (dhp / s_h) ** 2 + r_t * (dcp / s_c) * (dhp / s_h)
    )


def luminance(colour: RGB) -> float:
    """The relative luminance of an sRGB colour (WCAG 2), 0 for black to 1 for white: what contrast is made of."""
    r, g, b = (linear(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: RGB, two: RGB) -> float:
    """The WCAG 2 contrast ratio of two colours, 1 (the same) to 21 (black on white).

    Text wants 4.5 at least (WCAG AA), a shape such as a frame 3. CIEDE2000 says
    whether two fills look different; it does not say whether words on a fill
    can be read: white on the green pieces is 2.8 although the two are far apart.
    """
    light, dark = sorted((luminance(one), luminance(two)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def ink(paint: RGB) -> RGB:
    """Black or white, whichever reads better on ``paint``: words and rims drawn on a player's colour.

    A brightness rule (0.3 R + 0.59 G + 0.11 B over a half) chose white on the
    green and teal pieces, 2.8 and 3.3 to 1, where black gives 7.5 and 6.4.
    """
    black, white = (0.0, 0.0, 0.0), (1.0, 1.0, 1.0)
    return black if contrast(paint, black) >= contrast(paint, white) else white
