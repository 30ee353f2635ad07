"""`python -m bot` runs the Discord bot."""

import sys

from bot.app import run_bot

# Guarded: the process that draws pictures (bot/render/painter.py) is started by spawn,
# which imports this module again in it, where it must not run a second bot.
if __name__ == "__main__":
    sys.exit(run_bot())
