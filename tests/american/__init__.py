"""American (bot/games/american): its rules, records, kind, words, picture, AI and ratings."""
