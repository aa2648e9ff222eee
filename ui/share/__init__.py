"""The table on every phone: a read-only live page the unit serves on the home network.

:class:`ui.share.share.Share` is what the front ends use (``boardbank run --share``, ``boardbank
headless --share``): start it, call :meth:`~ui.share.share.Share.publish` after every reaction of the
banker, show :attr:`~ui.share.share.Share.url` as a QR code, stop it. docs/share.md says what a phone sees.
"""
