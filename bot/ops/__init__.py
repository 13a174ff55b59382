"""What the bot's operators use to keep a process healthy, apart from Discord and the rules.

- ``metrics.py``: the Prometheus metrics and the ``/metrics`` and ``/health`` endpoint;
- ``heap.py``: the garbage collector's policy (what outlives each full pass is frozen);
- ``workers.py``: the hard computer players' search processes, on idle CPU time only.
"""
