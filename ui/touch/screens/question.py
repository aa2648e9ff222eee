"""Count it (docs/flows.md, "Count it"): a counting player's question before a payment goes through. The
question in a band (``Rent for Baltic Avenue with 2 houses?``, ``Change from M500 for M230?``), after a
wrong answer the hint from the payment's receipt (or the change's arithmetic), the keypad for the amount
(its OK sends it to the banker) and Skip. The banker says whether the answer is right; the payment is the
same whatever is typed."""

from __future__ import annotations

from ui.countit import hint_text, question_text
from ui.story.names import Names
from ui.touch.screens.base import BankScreen
from ui.touch.screens.present import Presenter
from ui.touch.widgets import palette


class QuestionScreen(BankScreen):
    """The question, the hint, the keypad and Skip."""

    def render(self, presenter: Presenter) -> None:
        view = presenter.view
        q = view.question
        if q is None:
            return
        names = Names.from_view(view, presenter.tr.lang, presenter.tr)
        self.ids.title.text = question_text(q, names)
        p = presenter.player(q.player)
        self.ids.title.band = palette.token_rgba(p.token) if p else palette.PANEL_LIGHT
        self.ids.hint.text = hint_text(q, names) if q.tries else presenter.tr(
            "count.type", player=presenter.player_name(q.player))
        self.ids.hint.color = palette.WARNING if q.tries else palette.MUTED
        self.ids.keypad.title = presenter.tr("count.keypad")
        super().render(presenter)

    def answer(self, value: str) -> None:
        """The keypad's OK: the amount typed (money units) goes to the banker; an empty one is ignored."""
        if value:
            self.app().choose(value)
