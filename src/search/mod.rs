//! Search problems (predecessors, orphans, still lifes, oscillators, spaceships)
//! turned into CNF or GridWalker grid stacks.
