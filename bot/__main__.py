"""`python -m bot` runs the Discord bot."""

import sys

from bot.app import run_bot

sys.exit(run_bot())
