"""Discord (bot/discord, cogs/) and the strict fake Discord's contract (tests/fake_discord)."""
