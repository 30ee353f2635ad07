"""American, the shedding game of the Idiot family (../shared/RULES-AMERICAN.md): pure
rules, records, views and the words of its refusals; no Discord, store or table-service
import, and nothing of the other games."""
