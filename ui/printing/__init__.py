"""Printable card sets: an edition's title deeds, its cards and the bank cards as a PDF to print at home.

:mod:`ui.printing.content` says what each card shows (pure data, in one language, amounts already
formatted as money); :mod:`ui.printing.layout` draws those faces at real size on A4 or Letter pages
with ReportLab, with the mark for the NFC sticker and crop marks.
"""
