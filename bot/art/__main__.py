"""``python -m bot.art --out DIR``: write every face of every edition (DOS's too) as
``DIR/<emoji name>.png``.

Files whose bytes are already right are left alone (the folder is the command's cache), so a second
run writes nothing. ``--sheets`` also writes a contact sheet per edition at the chosen height and at
40 px (``cards-<edition>.png``, ``cards-<edition>-40.png``) to judge the art by eye.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bot.art.faces import all_faces, card_png, edition_faces, emoji_name
from bot.art.pictures import cards_picture
from bot.engine.editions import EDITIONS


def write(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` unless the file already holds it; True if it was written."""
    if path.is_file() and path.read_bytes() == data:
        return False
    path.write_bytes(data)
    return True


def main(argv: list[str] | None = None) -> int:
    """Run the command; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m bot.art", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="the folder to write the PNG files to")
    parser.add_argument("--height", type=int, default=128, help="each face's height in pixels (default 128)")
    parser.add_argument("--sheets", action="store_true", help="also write a contact sheet per edition")
    args = parser.parse_args(argv)
    if args.height < 8:
        parser.error("--height must be at least 8")
    args.out.mkdir(parents=True, exist_ok=True)
    faces = all_faces()
    written = sum(write(args.out / f"{emoji_name(f, s)}.png", card_png(f, s, args.height)) for f, s in faces)
    if args.sheets:
        for edition, name in EDITIONS.items():
            for height, suffix in ((args.height, ""), (40, "-40")):
                sheet = cards_picture(edition_faces(edition), caption=name, height=height, per_row=14)
                written += write(args.out / f"cards-{edition}{suffix}.png", sheet)
    print(f"{len(faces)} faces; {written} files written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
