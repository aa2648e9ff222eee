"""The screens of the touch UI: one module and one kv file (``ui/kv/<name>.kv``) per screen."""
