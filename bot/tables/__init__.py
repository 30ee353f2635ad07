"""The table service: lobbies, seats, acting under one lock per table, persistence
(bot/tables/service.py builds its rooms). It knows nothing of Discord, so the terminal,
tests and the bot share it. A name is imported from the module that defines it
(`bot.tables.table.Table`, `bot.tables.errors.TableError`, ...): this package re-exports
nothing, and loads none of them by itself (the process that draws pictures needs only
bot.tables.scene)."""
