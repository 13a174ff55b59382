"""Our own card art, drawn with Pillow: one face for every card face of every edition, and
pictures of a hand or of the table composed from them (docs/card-art.md).

Pure functions of their arguments; drawing takes milliseconds, so the service calls them off the
event loop (``asyncio.to_thread``).
"""

from bot.art.faces import all_faces, art_side, card_image, card_png, card_size, edition_faces, emoji_name

__all__ = ["all_faces", "art_side", "card_image", "card_png", "card_size", "edition_faces", "emoji_name"]
