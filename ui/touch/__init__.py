"""The Kivy touch screen: the app, screens, widgets, kv files, keyboards, sounds, fonts and the script runner."""
