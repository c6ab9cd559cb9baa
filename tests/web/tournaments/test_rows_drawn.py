"""The rows drawn in Python for speed are the rows their templates draw (``event_parts``)."""

from __future__ import annotations

from typing import Any

from django.template.loader import get_template
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spyleague.core.cache import CSRF_MARK
from spyleague.tournaments.event_parts import PLACE_MARK, TEMPLATE, standing_row_html

figures = st.one_of(
    st.none(),
    st.integers(-50, 500).map(float),
    st.floats(-50, 500, allow_nan=False).map(lambda x: round(x, 4)),
    st.sampled_from([0.0, -0.0, 0.5, 2.25, 2.35, 1.005, 0.125, 1e-9, 1234.5]),
)
lines = st.tuples(
    st.integers(1, 10**6),  # entrant
    st.one_of(st.integers(1, 1000), st.just(PLACE_MARK)),
    st.integers(1, 10**6),  # player
    st.text(min_size=1, max_size=30),  # a name, with whatever a person may type: <, &, quotes
    st.one_of(st.none(), st.integers(0, 30)),  # dropped after
    st.integers(0, 5),  # byes
    figures, figures, figures, figures, figures,
    st.integers(0, 30), st.integers(0, 30),
    st.booleans(), st.booleans(),
)  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(line=lines)
def test_a_standings_row_drawn_in_python_is_the_template_s(line: tuple[Any, ...]) -> None:
    template = get_template(f"{TEMPLATE}#standing_row")
    assert standing_row_html(line) == template.render({"row": line, "csrf_token": CSRF_MARK})
