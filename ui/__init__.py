"""The Kivy touch UI and the composition of readers + banker + screen (``boardbank run`` / ``headless``)."""
