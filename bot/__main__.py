"""`python -m bot` runs the Discord bot."""

import sys

# Guarded, and the bot imported only here: the process that draws pictures
# (bot/render/painter.py) is started by spawn, which imports this module again in it,
# where it must neither run a second bot nor load discord.py for nothing.
if __name__ == "__main__":
    from bot.app import run_bot

    sys.exit(run_bot())
