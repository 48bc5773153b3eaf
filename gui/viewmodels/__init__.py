"""View-models: hold the current state, recompute through core, emit Qt signals."""
