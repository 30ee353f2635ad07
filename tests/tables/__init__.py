"""The table platform (bot/tables): the service, games over days, the daily, pauses, names, the
recap, the outbox, and ratings."""
