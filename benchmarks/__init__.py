"""Benchmarks of the bot, kept out of the runtime package (``bot``): run them from the repository
root as ``python -m benchmarks.<name>``; figures in docs/performance/.

* :mod:`benchmarks.engine`: the rules engine's speed (with :mod:`benchmarks.rlcard_adapter`, the
  comparison with rlcard; the ``bench`` extra);
* :mod:`benchmarks.storage`: SQLite saves and restores;
* :mod:`benchmarks.load`: many tables through the local Discord stand-in, against a "pong" bot.
"""
