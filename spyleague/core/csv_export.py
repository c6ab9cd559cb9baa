"""The one way the site writes CSV: cells that a spreadsheet would run as a formula are written
as text.

A player called ``=HYPERLINK("http://evil.example/","click")`` would otherwise become a live
formula in whoever opens the export (CSV injection). As OWASP advises, a text cell that starts
with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is written with a single quote in
front, which spreadsheets show as text and do not run.

Numbers the site itself writes (a score of -5, a rating, a rank) are Python numbers, and are
written as numbers, unchanged: a number is never a formula (OWASP leaves them alone when the cell
is written as a number), and a score of -5 must stay a number a spreadsheet can add up. Only text
is neutralised, whatever it holds, so "-5" typed as a name becomes '-5.

``tests/web/test_csv_exports.py`` fetches every export with names that start each of these ways,
and fails on any ``csv.writer`` of the site's outside this module.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import Any

from django.http import HttpResponse

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """The cell as it is written: numbers and booleans as they are, text that would start a
    formula with a quote in front, nothing as an empty cell."""
    if value is None:
        return ""
    if isinstance(value, bool | int | float):
        return value
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


class SafeWriter:
    """``csv.writer`` over ``stream``, every row's cells made safe (``safe_cell``)."""

    def __init__(self, stream: Any) -> None:
        self._writer = csv.writer(stream)

    def writerow(self, row: Iterable[Any]) -> None:
        self._writer.writerow([safe_cell(cell) for cell in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def csv_download(filename: str) -> tuple[HttpResponse, SafeWriter]:
    """A CSV file to download as ``filename``, and the writer to fill it with."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response, SafeWriter(response)
