"""Which shard, and so which process, serves a guild.

Discord sends every event of a guild on one shard, ``(guild_id >> 22) % shard_count``
(https://discord.com/developers/docs/events/gateway#sharding); a process running the shards
``shard_ids`` serves those guilds only, and restores only their tables.

>>> shard_of(81384788765712384, 4)
2
>>> Shards(4, [0, 1]).serves(81384788765712384), Shards(None, None).serves(81384788765712384)
(False, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard (0 to ``shard_count`` - 1) that carries ``guild_id``'s events."""
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True)
class Shards:
    """The shards one process runs: ``ids`` of ``count`` (None for either: all of them)."""

    count: int | None
    ids: Sequence[int] | None

    def serves(self, guild_id: int) -> bool:
        """Whether this process gets ``guild_id``'s events (and so owns its tables)."""
        if self.count is None or self.ids is None:
            return True
        return shard_of(guild_id, self.count) in self.ids
