"""The Discord-facing side of the bot: what talks to Discord through discord.py.

- ``bot.py``: ``UnoBot``, the discord.py client (an ``AutoShardedBot``) and its start-up wiring;
- ``components.py``: the buttons and selects (``DynamicItem``s that survive restarts), which hand a
  click to the service;
- ``emojis.py``: every card face as an application emoji;
- ``errors.py``: the one error funnel, an ``UnoError`` to a private reply;
- ``translator.py``: the slash commands' localized names and descriptions;
- ``pacing.py``: the bot's calls paced below Discord's global rate limit;
- ``shards.py``: which process serves a guild;
- ``internals.py``: every use of discord.py's internals, each with its public fallback (the
  ``discord.internals`` setting).

The rules (``bot.engine``), the tables (``bot.tables``), rendering (``bot.render``) and storage
(``bot.storage``) know nothing of Discord's connection; the service (``bot.service``) joins them.
"""
