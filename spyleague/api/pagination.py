"""How the API's lists are paged: ``?limit=`` and ``?offset=``, with a ceiling on ``limit``."""

from __future__ import annotations

from typing import Any

from rest_framework.pagination import LimitOffsetPagination


class LimitOffsetPage(LimitOffsetPagination):
    """DRF's limit and offset, 100 rows by default and at most 500 a page.

    A larger ``limit`` gives 500 rows, as the schema says (``maximum``), rather than a query
    that asks the database for more rows than it can count.
    """

    default_limit = 100
    max_limit = 500

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.limit_query_param:
                parameter["schema"] = {"type": "integer", "minimum": 1, "maximum": self.max_limit}
                parameter["description"] = (
                    f"Rows on the page: {self.default_limit} by default, at most {self.max_limit} "
                    f"(a larger limit gives {self.max_limit})."
                )
            elif parameter["name"] == self.offset_query_param:
                parameter["schema"] = {"type": "integer", "minimum": 0}
        return parameters
