"""What Discord allows, in one place: the request budget of the bot token (budget.py)
and the table messages' edits within it (edit_queue.py).

Inside this package `import discord` is still discord.py: imports are absolute, so the
name is the top-level library, never this package (bot.discord).
"""
