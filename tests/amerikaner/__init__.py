"""Amerikaner (bot/games/amerikaner): its core, kind, words, AI, claims and ratings."""
