"""The Activity (bot/web, web/): its settings, its page, its outgoing frames."""
