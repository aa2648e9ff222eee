"""Classic options are made once per mapping (``Options.from_mapping`` keeps what it made): the same value,
and every refusal as before, a bool never taken for a number nor a number for a bool."""

from __future__ import annotations

import pytest

from engine.errors import OptionError
from engine.rulesets.classic.options import Options


def test_the_same_mapping_gives_the_same_options() -> None:
    a = Options.from_mapping({"jail_fine": 1, "short_game": True})
    assert Options.from_mapping({"jail_fine": 1, "short_game": True}) is a
    assert a == Options(jail_fine=1, short_game=True) and a.houses_per_hotel == 3
    assert Options.from_mapping({"jail_fine": 2}).jail_fine == 2


@pytest.mark.parametrize("values", [{"jail_fine": True}, {"short_game": 1}, {"jail_fine": [1]}, {"nonsense": 1},
                                    {"jail_fine": -1}])
def test_a_bad_mapping_is_refused_even_after_a_good_one_alike(values: dict[str, object]) -> None:
    Options.from_mapping({"jail_fine": 1, "short_game": True})
    Options.from_mapping({"short_game": True})
    for _ in range(2):
        with pytest.raises(OptionError):
            Options.from_mapping(values)
