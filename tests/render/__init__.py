"""What the bot shows (bot/render): texts cut to Discord's limits, pictures, the painter, seat
names, the daily's result."""
