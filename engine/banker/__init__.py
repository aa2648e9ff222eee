"""The banker: the unit's interaction state machine (``machine``), its context and gestures, the view-model
builder and the tap-script interpreter. Import the modules themselves (``engine.banker.machine``)."""
