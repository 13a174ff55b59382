-- Schema version 3: a game played in a thread of its own names the thread's parent channel, so
-- /uno history in that channel lists it too (games recorded before have none).

ALTER TABLE games ADD COLUMN parent_id INTEGER;

CREATE INDEX games_by_parent ON games (parent_id, finished_at);
