"""The benchmarks (bench/) run as a user runs them: smoke tests, never timing anything."""
