"""The games' own tests: one conformance suite over every registered game, and the toy
game that proves a game is a folder, a cog and its words."""
