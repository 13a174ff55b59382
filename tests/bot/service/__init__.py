"""Unit tests of the table service (``bot/service/``), one file a module, without Discord: a fake
client records the calls, and storage is SQLite in a temporary folder or an in-memory fake."""
