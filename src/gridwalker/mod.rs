//! GRIDWALKER: slices, slivers, sweeps and speculative search (thesis chapter 5).
