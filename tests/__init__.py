"""The suite (CONTRIBUTING.md, "Tests"): a package, so that each folder's modules are imported by
their full names (tests.discord.test_budget), never shadowing a library of the same name."""
