"""AI players. Each decides only from its seat's information-set view of the core."""
