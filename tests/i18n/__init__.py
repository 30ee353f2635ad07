"""The translation function and the catalogs (bot/i18n): right-to-left text, Norwegian words, typed
cards."""
