"""The store (bot/store): both backends, the schema upgrade, `db copy`, and the shards' relay."""
