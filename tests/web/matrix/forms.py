"""The forms a page shows, read as a browser reads them, and sent as they stand.

``page_forms`` finds every form that posts (``method="post"``, or ``hx-post``) in a page's HTML,
with the values it would send if its first button were pressed as it is: hidden fields, text
as filled in, the options selected (or the first), the boxes ticked, the button's own name and
value. A form that posts to its own page has no ``action``; its address is then the page's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

FIELDS = ("input", "select", "textarea", "button")


@dataclass
class Form:
    action: str
    fields: list[tuple[str, str]] = field(default_factory=list)
    buttons: list[tuple[str, str, str]] = field(default_factory=list)  # (name, value, words)
    words: str = ""  # what the form says, to name it in a failure

    def data(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for name, value in self.fields:
            out.setdefault(name, []).append(value)
        if self.buttons:
            name, value, _ = self.buttons[0]
            if name:
                out.setdefault(name, []).append(value)
        return out

    def label(self) -> str:
        button = self.buttons[0][2] if self.buttons else ""
        return (button or self.words or "a form")[:60]


class _Forms(HTMLParser):
    def __init__(self, page_url: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page_url = page_url
        self.forms: list[Form] = []
        self.form: Form | None = None
        self.select: tuple[str, list[tuple[str, bool]]] | None = None
        self.option: tuple[str | None, bool, list[str]] | None = None
        self.textarea: tuple[str, list[str]] | None = None
        self.button: tuple[str, str, list[str]] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v or "") for k, v in attrs}
        if tag == "form":
            method = a.get("method", "get").lower()
            target = a.get("hx-post") or (a.get("action", "") if method == "post" else None)
            if target is None:
                self.form = None
                return
            self.form = Form(urljoin(self.page_url, target) if target else self.page_url.split("#")[0])
            return
        if self.form is None:
            return
        name = a.get("name", "")
        disabled = "disabled" in a
        if tag == "input":
            kind = a.get("type", "text").lower()
            if disabled or (not name and kind not in ("submit", "image")):
                return
            if kind in ("submit", "image"):
                self.form.buttons.append((name, a.get("value", ""), a.get("value", "")))
            elif kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.form.fields.append((name, a.get("value", "on")))
            elif kind not in ("button", "reset", "file"):
                self.form.fields.append((name, a.get("value", "")))
        elif tag == "select" and not disabled and name:
            self.select = (name, [])
        elif tag == "option" and self.select is not None:
            self.handle_endtag("option")  # (an option's end tag may be left out)
            self.option = (dict(attrs).get("value"), "selected" in a, [])
        elif tag == "textarea" and not disabled and name:
            self.textarea = (name, [])
        elif tag == "button" and not disabled and a.get("type", "submit").lower() == "submit":
            self.button = (name, a.get("value", ""), [])

    def handle_data(self, data: str) -> None:
        if self.textarea is not None:
            self.textarea[1].append(data)
        if self.button is not None:
            self.button[2].append(data)
        if self.option is not None:
            self.option[2].append(data)
        if self.form is not None and not self.form.words and data.strip():
            self.form.words = data.strip()

    def handle_endtag(self, tag: str) -> None:
        if self.form is None:
            return
        if tag == "option" and self.option is not None and self.select is not None:
            value, selected, text = self.option
            self.select[1].append((value if value is not None else "".join(text).strip(), selected))
            self.option = None
        elif tag == "select" and self.select is not None:
            self.handle_endtag("option")
            name, options = self.select
            chosen = [v for v, selected in options if selected] or [v for v, _ in options[:1]]
            self.form.fields += [(name, v) for v in chosen]
            self.select = None
        elif tag == "textarea" and self.textarea is not None:
            self.form.fields.append((self.textarea[0], "".join(self.textarea[1])))
            self.textarea = None
        elif tag == "button" and self.button is not None:
            name, value, words = self.button
            self.form.buttons.append((name, value, " ".join("".join(words).split())))
            self.button = None
        elif tag == "form":
            self.forms.append(self.form)
            self.form = None


def page_forms(page_url: str, html: str) -> list[Form]:
    """Every form of the page that posts, in page order."""
    parser = _Forms(page_url)
    parser.feed(html)
    return parser.forms


def path_of(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")
