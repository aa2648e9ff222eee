"""The unit tells the table what happened: each journal entry in one sentence of the table's language
(:func:`~ui.story.sentences.sentence`), each amount's receipt (:func:`~ui.story.receipts.receipt_text`),
the story of a whole game (:mod:`ui.story.export`) and speech to files (:mod:`ui.story.speech`).
docs/story.md says what each part does."""
