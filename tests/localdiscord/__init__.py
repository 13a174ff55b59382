"""Tests of the local Discord stand-in (bot/localdiscord)."""
