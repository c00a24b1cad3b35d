"""Game review: the hard bot's search goes over every decision of a finished game.

    from games.review import review_game, review_decision, Budget
    review = review_game(final_hand_states, seats=[0, 2], seed=7)

Framework-free, beside the bots: it takes finished hands (``HandState`` values, whose seed and
action list replay them exactly) and, for every decision of the reviewed seats, works only
from that seat's view at that moment (``engine.view``), never from the hidden cards. Each
decision gets the expected hand-score difference of the move played and of the best
alternatives found (``search``), the number of sampled deals, a 95% interval and a verdict
(``verdicts``). A forced move (one legal action) is never weighed or marked.

With a partnership preset every estimate is the side's pooled score against the other side's.
"""

from .game import review_game
from .hands import DEFAULT_DEALS, Budget, Decision, decisions_of, initial_state, review_decision
from .verdicts import DEFAULT_THRESHOLDS, VERDICTS, Thresholds, accuracy, move_accuracy, verdict

__all__ = [
    "DEFAULT_DEALS",
    "DEFAULT_THRESHOLDS",
    "VERDICTS",
    "Budget",
    "Decision",
    "Thresholds",
    "accuracy",
    "decisions_of",
    "initial_state",
    "move_accuracy",
    "review_decision",
    "review_game",
    "verdict",
]
