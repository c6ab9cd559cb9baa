from collections.abc import Iterator

import pytest

from games import registry


@pytest.fixture(autouse=True)
def race_to_ten() -> Iterator[None]:
    """Register the tiny test engine beside the real games."""
    info = registry.GameInfo(
        "race-to-ten", "Race to Ten", range(2, 5), False, "tests.web.play.race_to_ten", "A test game."
    )
    registry.GAMES["race-to-ten"] = info
    registry.get_engine.cache_clear()
    yield
    del registry.GAMES["race-to-ten"]
    registry.get_engine.cache_clear()
