"""The package docs: doctests run, and every ruling has a test named after it."""

import doctest
import re
from pathlib import Path

import pytest

import pairing
from pairing import designs, exact, history, knockout, round_robin, tables

TESTS = Path(__file__).parent


@pytest.mark.parametrize(
    "module", [history, tables, knockout, round_robin, exact, designs], ids=lambda m: m.__name__
)
def test_doctests(module) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0
    assert result.failed == 0


def test_every_ruling_is_named_by_a_test() -> None:
    doc = pairing.__doc__ or ""
    rulings = doc.split("Rulings\n=======")[1]
    numbers = [int(n) for n in re.findall(r"^(\d+)\. ", rulings, flags=re.MULTILINE)]
    assert numbers == list(range(1, len(numbers) + 1))
    source = "\n".join(p.read_text() for p in TESTS.glob("test_*.py"))
    for n in numbers:
        assert re.search(rf"def test_ruling_{n}_", source), f"ruling {n} has no test"
