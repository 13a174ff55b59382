-- Schema version 2: the replay of every recorded game (/uno history), and finding a channel's
-- last games.

CREATE TABLE game_replays (
    game   BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    replay TEXT   NOT NULL
);

CREATE INDEX games_by_channel ON games (channel_id, finished_at);
