-- Schema version 1: channel settings, tables in progress, people, finished rounds and games.
--
-- The statements keep the four-space indentation they had in the Python string they were first
-- shipped in: SQLite stores each CREATE statement's text as written (sqlite_master.sql), and
-- databases made before and after the move must hold the same schema text.

    CREATE TABLE channel_settings (
        channel_id INTEGER PRIMARY KEY,
        guild_id   INTEGER NOT NULL,
        settings   TEXT    NOT NULL,
        updated_at REAL    NOT NULL
    );

    CREATE TABLE open_tables (
        channel_id INTEGER PRIMARY KEY,
        guild_id   INTEGER NOT NULL,
        snapshot   TEXT    NOT NULL,
        updated_at REAL    NOT NULL
    );

    CREATE TABLE people (
        id      INTEGER PRIMARY KEY,
        user_id TEXT    NOT NULL UNIQUE
    );

    CREATE TABLE games (
        id          INTEGER PRIMARY KEY,
        game_id     TEXT    NOT NULL UNIQUE,
        guild_id    INTEGER NOT NULL,
        channel_id  INTEGER NOT NULL,
        variant     TEXT    NOT NULL,
        rounds      INTEGER,
        result      TEXT,
        started_at  REAL    NOT NULL,
        finished_at REAL,
        CHECK ((finished_at IS NULL) = (result IS NULL))
    );
    CREATE INDEX games_by_guild ON games (guild_id, variant);

    CREATE TABLE game_players (
        game   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        person INTEGER NOT NULL REFERENCES people (id),
        won    INTEGER NOT NULL CHECK (won IN (0, 1)),
        PRIMARY KEY (game, person)
    );
    CREATE INDEX game_players_by_person ON game_players (person);

    CREATE TABLE rounds (
        game        INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        round_no    INTEGER NOT NULL CHECK (round_no >= 1),
        guild_id    INTEGER NOT NULL,
        channel_id  INTEGER NOT NULL,
        variant     TEXT    NOT NULL,
        points      INTEGER NOT NULL,
        result      TEXT    NOT NULL,
        finished_at REAL    NOT NULL,
        PRIMARY KEY (game, round_no)
    );
    CREATE INDEX rounds_by_guild ON rounds (guild_id, variant);

    CREATE TABLE round_players (
        game     INTEGER NOT NULL,
        round_no INTEGER NOT NULL,
        person   INTEGER NOT NULL REFERENCES people (id),
        won      INTEGER NOT NULL CHECK (won IN (0, 1)),
        PRIMARY KEY (game, round_no, person),
        FOREIGN KEY (game, round_no) REFERENCES rounds (game, round_no) ON DELETE CASCADE
    );
    CREATE INDEX round_players_by_person ON round_players (person);
