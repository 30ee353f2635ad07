"""Amerikaner, Kani and the Norwegian-American rules: the trick-taking game of bids and a
called partner (../shared/RULES.md). Pure rules, records, views, AI players, text and the
terminal game; no Discord, store or table-service import."""
