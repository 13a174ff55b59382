"""DOS, UNO's sequel, as a sibling of the UNO engine (docs/rules.md §14; docs/engine-dos.md).

``cards.py`` (the deck and its text), ``actions.py`` (``DosAction``: what a player can do, with one
text form), ``game.py`` (the ``DosGame`` aggregate), ``ai.py`` (its computer player),
``scenarios.py`` (DOS rule scenarios for the shared runner).
"""
