from django.http import HttpRequest


def site(request: HttpRequest) -> dict[str, object]:
    return {"SITE_NAME": "Spy League"}
