"""The banker: the unit's interaction state machine (``machine``), its ``context`` and the gesture handlers
(``gestures``), the one transition ``table``, the view-model builder (``view``) and the tap-script
interpreter (``tapscript``). Import the modules themselves (``engine.banker.machine``)."""
