"""Importing players into an event from a CSV file: read, preview, then confirm.

An organiser with a spreadsheet of names uploads it (the event's "Import players" page, or
``POST /api/events/<id>/import/``); the site reads it and answers with a **preview** that says
for each line what would happen, and writes nothing. Confirming the preview applies exactly that
plan in one transaction: the guests it names are added to the club, everyone is registered in
the event (and checked in, if asked), in a handful of queries whatever the file's length.

What a file may hold (be liberal in what is accepted):

- Text in UTF-8 (with or without the byte-order mark that spreadsheets write), UTF-16 with its
  mark, or Windows-1252 (what older spreadsheets save as "CSV"); columns separated by commas,
  semicolons or tabs, quoted or not, as spreadsheets export them. At most ``MAX_FILE_BYTES``
  and ``MAX_LINES`` lines of players; lines with nothing in them are skipped.
- A first line naming the columns, in any case and spacing. ``name`` (or ``player``, ``full
  name``; or ``first name`` with ``last name``/``surname``) is the player's name. Optional:
  ``username`` (a member's username on the site: the line is that member), ``email`` (the
  address of a member of the club: the line is that member; otherwise the name decides, and the
  address is not kept), ``rating`` (a number: the seeding rating of a player entered now; by
  default their rating in the event's game). Other columns are ignored, and the preview says so.

What each line becomes (``Outcome``):

- a player of the club (a member, or a guest it added before) whose name matches (ignoring case
  and spaces), or the member of the username or address: registered;
- a name the club has nobody of: a guest of the club is created, then registered;
- someone entered already: they stay as they are (re-importing a file creates nobody twice and
  changes nobody's entry);
- refused, and why: the name is empty or too long, the username is nobody's or not a member's,
  two players of the club have that name, the same person as an earlier line, dropped out of
  the event, a rating that is not a number. The other lines are imported all the same.

The plan travels with the preview as a signed token (``Plan.token``): the lines as read, and a
digest of what the preview said would happen. Confirming reads the lines from the token (no
upload again), plans them again against the club and the event as they are now, and applies the
plan only if it is the one previewed; otherwise nothing is written and ``PlanChanged`` carries
the new preview (409: someone added a guest or registered a player in between). A token is
good for ``TOKEN_MAX_AGE`` seconds, for the event and the person it was made for.
"""

from __future__ import annotations

import codecs
import csv
import hashlib
import io
import json
import math
import unicodedata
from collections import Counter
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any

from django.contrib.auth.models import User
from django.core import signing
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models.functions import Lower

from ..clubs import services as clubs
from ..clubs.models import Club, Membership, Player
from ..core.limits import quota
from ..core.locks import atomic_retrying
from . import guards, services
from .entrants import MAX_AT_ONCE, entrants_register_many, registration_refusal
from .models import Entrant, Event

MAX_FILE_BYTES = 1_000_000
MAX_LINES = MAX_AT_ONCE
MAX_NAME = Player._meta.get_field("name").max_length or 80
MAX_RATING = 1_000_000
TOKEN_MAX_AGE = 60 * 60
# The most a preview's token may hold: a file of the longest names in any script fits, and a form
# that sends it back stays within what the site reads of a request (2.5 MB).
TOKEN_MAX_CHARS = 2_000_000
UNREADABLE_TOKEN = "This preview cannot be read (it was changed or cut short): upload the file again."
TOKEN_SALT = "spyleague.tournaments.imports.plan"

# The columns read, by what a header cell may call them (compared in lower case, with "_", "-"
# and "." as spaces).
COLUMNS: dict[str, tuple[str, ...]] = {
    "name": ("name", "player", "player name", "full name", "display name", "names", "players"),
    "first_name": ("first name", "firstname", "given name", "forename", "first"),
    "last_name": ("last name", "lastname", "surname", "family name", "last"),
    "username": ("username", "user name", "user", "login", "account"),
    "email": ("email", "e mail", "email address", "e mail address", "mail"),
    "rating": ("rating", "elo", "seed rating", "seed"),
}
_COLUMN_OF = {alias: column for column, aliases in COLUMNS.items() for alias in aliases}
ACCEPTED = (
    "A file of players has a first line naming its columns: name (or first name and last name), "
    "and optionally username, email and rating; the columns are separated by commas, semicolons "
    "or tabs, as a spreadsheet saves a CSV file."
)


class Outcome(StrEnum):
    GUEST = "guest"  # a new guest of the club, registered
    MATCHED = "matched"  # a player the club has, registered
    REGISTERED = "registered"  # entered already: stays as they are
    REFUSED = "refused"


# --- reading the file -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One line of players as read: its line number in the file, and its cells by column."""

    line: int
    name: str = ""
    username: str = ""
    email: str = ""
    rating: str = ""


@dataclass(frozen=True)
class Sheet:
    rows: tuple[Row, ...]
    columns: dict[str, str] = field(default_factory=dict)  # column -> the header cell it came from
    ignored: tuple[str, ...] = ()  # header cells of the columns not read
    encoding: str = "UTF-8"
    empty_lines: int = 0


def _decode(data: bytes) -> tuple[str, str]:
    if data.startswith(codecs.BOM_UTF8):
        encodings = [("utf-8-sig", "UTF-8")]
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encodings = [("utf-16", "UTF-16")]
    else:
        encodings = [("utf-8", "UTF-8"), ("cp1252", "Windows-1252")]
    for codec, label in encodings:
        try:
            return data.decode(codec), label
        except UnicodeDecodeError:
            continue
    raise ValidationError(
        "The file could not be read as text (UTF-8 or Windows-1252): save it from the spreadsheet as "
        "CSV (UTF-8), then upload it again."
    )


def _header_key(cell: str) -> str:
    text = unicodedata.normalize("NFKC", cell).casefold()
    for mark in "_-.":
        text = text.replace(mark, " ")
    return " ".join(text.split()).strip("*: ")


def _first_record(text: str, delimiter: str) -> list[str]:
    try:
        return next(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter), [])
    except csv.Error:
        return []


def _delimiter(text: str) -> str:
    """The separator that splits the first line into the most known columns (then the most
    columns); a file of one column is not split at all."""
    best, score = "", (0, 1)
    for delimiter in (",", ";", "\t"):
        cells = _first_record(text, delimiter)
        known = len({_COLUMN_OF[k] for c in cells if (k := _header_key(c)) in _COLUMN_OF})
        if (known, len(cells)) > score:
            best, score = delimiter, (known, len(cells))
    if score[1] == 1:
        return "\x1f"  # one column: a separator no text holds (control characters are refused)
    return best


def too_big(size: int) -> str:
    """What is said of a file of ``size`` bytes, too big to import."""
    return (
        f"The file is {size / 1_000_000:.1f} MB: a file of players may be at most "
        f"{MAX_FILE_BYTES // 1_000_000} MB ({MAX_LINES:,} lines). Split it, and import each part."
    )


def size_problem(size: int) -> str | None:
    """Why a file of ``size`` bytes is too big to import, or None."""
    return too_big(size) if size > MAX_FILE_BYTES else None


def sheet_read(data: bytes) -> Sheet:
    """The lines of players in a CSV file, or ``ValidationError`` saying in words why the file
    cannot be read (too big, not text, no name column, too many lines)."""
    too_big = size_problem(len(data))
    if too_big:
        raise ValidationError(too_big)
    text, encoding = _decode(data)
    if "\x00" in text:
        raise ValidationError(
            "The file holds NUL characters, so it is not a text file of players: save it from the "
            "spreadsheet as CSV, then upload it again."
        )
    if not text.strip():
        raise ValidationError(f"The file is empty. {ACCEPTED}")
    delimiter = _delimiter(text)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        header = next(reader, [])
        columns: dict[str, int] = {}
        ignored: list[str] = []
        for i, cell in enumerate(header):
            column = _COLUMN_OF.get(_header_key(cell))
            if column is None or column in columns:
                if cell.strip():
                    ignored.append(cell.strip())
                continue
            columns[column] = i
        if not {"name", "first_name", "last_name", "username"} & set(columns):
            found = ", ".join(f"“{c.strip()}”" for c in header[:8] if c.strip()) or "nothing"
            raise ValidationError(
                f"The first line of the file must name its columns, one of them “name”; it has {found}. "
                + ACCEPTED
            )
        rows: list[Row] = []
        empty = 0
        line = reader.line_num + 1
        for record in reader:
            cells = {column: (record[i].strip() if i < len(record) else "") for column, i in columns.items()}
            start, line = line, reader.line_num + 1
            if not any(record_cell.strip() for record_cell in record):
                empty += 1
                continue
            if len(rows) == MAX_LINES:
                raise ValidationError(
                    f"The file has more than {MAX_LINES:,} lines of players: import at most {MAX_LINES:,} "
                    "at a time (split the file, and import each part)."
                )
            name = cells.get("name", "")
            if not name:
                name = " ".join(p for p in (cells.get("first_name", ""), cells.get("last_name", "")) if p)
            rows.append(
                Row(
                    line=start,
                    name=name,
                    username=cells.get("username", ""),
                    email=cells.get("email", ""),
                    rating=cells.get("rating", ""),
                )
            )
    except csv.Error as exc:
        raise ValidationError(
            f"Line {reader.line_num} of the file could not be read as CSV ({exc}): check its quotes."
        ) from None
    if not rows:
        raise ValidationError("The file has no players: only its first line, which names the columns.")
    return Sheet(
        rows=tuple(rows),
        columns={column: header[i].strip() for column, i in columns.items()},
        ignored=tuple(ignored),
        encoding=encoding,
        empty_lines=empty,
    )


# --- planning -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """What one line of the file becomes."""

    line: int
    name: str  # the name to create, or the matched player's name (the file's when refused)
    outcome: Outcome
    says: str  # in words, for the organiser
    player: int | None = None  # the matched player
    rating: float | None = None


@dataclass(frozen=True)
class Plan:
    event: Event
    sheet: Sheet
    lines: tuple[Line, ...]
    user_id: int

    @property
    def counts(self) -> dict[str, int]:
        found = Counter(line.outcome for line in self.lines)
        return {outcome.value: found.get(outcome, 0) for outcome in Outcome}

    @property
    def to_register(self) -> int:
        return sum(1 for line in self.lines if line.outcome in (Outcome.GUEST, Outcome.MATCHED))

    @property
    def notes(self) -> list[str]:
        notes = []
        if self.sheet.encoding == "Windows-1252":
            notes.append(
                "The file is not UTF-8: it was read as Windows-1252 (a spreadsheet's CSV). "
                "Check that the accents in the names below are right."
            )
        if self.sheet.ignored:
            notes.append(f"Columns not used: {', '.join(self.sheet.ignored)}.")
        if self.sheet.empty_lines:
            n = self.sheet.empty_lines
            notes.append(f"{n} empty line{'s were' if n != 1 else ' was'} skipped.")
        return notes

    @cached_property
    def digest(self) -> str:
        """What the plan does, line by line: the same file planned against the same club and
        event gives the same digest."""
        what = [
            self.event.pk,
            [(ln.line, ln.outcome.value, ln.player, ln.name, ln.rating) for ln in self.lines],
        ]
        return hashlib.sha256(json.dumps(what).encode()).hexdigest()

    @cached_property
    def token(self) -> str:
        rows = [[r.line, r.name, r.username, r.email, r.rating] for r in self.sheet.rows]
        sheet = {
            "columns": self.sheet.columns,
            "ignored": list(self.sheet.ignored),
            "encoding": self.sheet.encoding,
            "empty_lines": self.sheet.empty_lines,
        }
        payload = {
            "event": self.event.pk,
            "user": self.user_id,
            "rows": rows,
            "sheet": sheet,
            "digest": self.digest,
        }
        return signing.dumps(payload, salt=TOKEN_SALT, compress=True)

    def as_dict(self) -> dict[str, Any]:
        return {
            "event": self.event.pk,
            "lines": [asdict(line) for line in self.lines],
            "counts": self.counts,
            "columns": self.sheet.columns,
            "ignored_columns": list(self.sheet.ignored),
            "notes": self.notes,
            "token": self.token,
        }


def _clean(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split())


def _key(name: str) -> str:
    """A name as compared: case, spaces and compatibility forms aside."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def _not_text(text: str) -> bool:
    return any(unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn") for ch in text)


def _rating(raw: str) -> float | None:
    text = raw.strip().replace(" ", "")
    if not text:
        return None
    if "," in text and "." not in text:
        text = text.replace(",", ".")  # a decimal comma, as European spreadsheets write it
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"the rating “{raw[:30]}” is not a number") from None
    if not math.isfinite(value) or abs(value) > MAX_RATING:
        raise ValueError(f"the rating “{raw[:30]}” is not a rating (a number up to {MAX_RATING:,})")
    return value


@dataclass
class _Club:
    """The club's players as the plan needs them, read in a few queries."""

    names: dict[int, str]
    usernames: dict[int, str]  # members with an account: player -> username
    by_key: dict[str, list[int]]
    by_username: dict[str, int]  # casefolded username -> member
    by_email: dict[str, list[int]]  # casefolded address -> members
    guests: set[int]


def _club_players(club: Club) -> _Club:
    names: dict[int, str] = {}
    usernames: dict[int, str] = {}
    by_email: dict[str, list[int]] = {}
    for pk, name, username, email in Membership.objects.filter(club=club).values_list(
        "player_id", "player__name", "player__user__username", "player__user__email"
    ):
        names[pk] = name
        if username:
            usernames[pk] = username
        if email:
            by_email.setdefault(email.strip().casefold(), []).append(pk)
    guests = set()
    for pk, name in Player.objects.filter(guest_of=club).values_list("pk", "name"):
        names[pk] = name
        guests.add(pk)
    by_key: dict[str, list[int]] = {}
    for pk, name in names.items():
        by_key.setdefault(_key(name), []).append(pk)
    by_username = {u.casefold(): pk for pk, u in usernames.items()}
    return _Club(names, usernames, by_key, by_username, by_email, guests)


def plan_make(*, user: Any, event: Event, sheet: Sheet) -> Plan:
    """What importing ``sheet`` into ``event`` would do, line by line; nothing is written.

    Refused as a whole (``PermissionDenied``: not an organiser; ``ValidationError``: the event
    takes no entries now) in the words of registering one player."""
    services.require_organiser(user=user, event=event)
    refusal = registration_refusal(event=event)
    if refusal is not None:
        raise refusal
    club = event.club
    known = _club_players(club)
    asked = {r.username.lstrip("@").casefold() for r in sheet.rows if r.username}
    accounts = set(
        User.objects.annotate(lower=Lower("username"))
        .filter(lower__in=sorted(asked - set(known.by_username)))
        .values_list("lower", flat=True)
    )
    entries = {
        pk: (dropped, here)
        for pk, dropped, here in Entrant.objects.filter(event=event).values_list(
            "player_id", "dropped_after", "checked_in"
        )
    }
    room = clubs.guests_room(user=user, club=club)  # the day's quota of new guests (None: no limit)
    seen: dict[object, int] = {}
    lines: list[Line] = []
    for row in sheet.rows:
        name = _clean(row.name)
        shown = name[:MAX_NAME] or row.username or "(no name)"

        def refused(why: str, shown: str = shown, row: Row = row) -> Line:
            return Line(row.line, shown, Outcome.REFUSED, f"Refused: {why}.")

        try:
            rating = _rating(row.rating)
        except ValueError as exc:
            lines.append(refused(str(exc)))
            continue
        target: object
        username = row.username.lstrip("@")
        email = row.email.casefold()
        if username:
            member = known.by_username.get(username.casefold())
            if member is None:
                if username.casefold() in accounts:
                    lines.append(
                        refused(
                            f"{username} is not a member of {club.name}: they join the club first, "
                            "or register themselves"
                        )
                    )
                else:
                    lines.append(refused(f"nobody has the username “{username[:40]}”"))
                continue
            target = member
        elif email and len(known.by_email.get(email, [])) == 1:
            target = known.by_email[email][0]
        else:
            if not name:
                lines.append(refused("the name is empty"))
                continue
            if len(name) > MAX_NAME:
                lines.append(
                    refused(f"the name is {len(name)} characters long; a name has at most {MAX_NAME}")
                )
                continue
            if not any(ch.isalnum() for ch in name):
                lines.append(refused(f"the name “{name}” has no letter or digit"))
                continue
            if _not_text(name):
                lines.append(refused("the name holds a character that is not text (a control character)"))
                continue
            same = known.by_key.get(_key(name), [])
            if len(same) > 1:
                lines.append(
                    refused(
                        f"{len(same)} players of {club.name} are called {name}: add a username column "
                        "to say which one"
                    )
                )
                continue
            target = same[0] if same else ("new", _key(name))
        if target in seen:
            same_as = known.names[target] if isinstance(target, int) else name
            lines.append(refused(f"duplicate of line {seen[target]}", shown=same_as))
            continue
        seen[target] = row.line
        if not isinstance(target, int) and room is not None:
            if room == 0:
                most = quota("guests_per_club_per_day")
                lines.append(
                    refused(
                        f"{club.name} may add {most} players without an account a day, and this one would "
                        "be one too many today; import the file again tomorrow (nobody is entered twice)"
                    )
                )
                continue
            room -= 1
        if not isinstance(target, int):
            with_rating = f" with the rating {rating:g}" if rating is not None else ""
            lines.append(
                Line(
                    row.line,
                    name,
                    Outcome.GUEST,
                    f"Create guest {name} and register them{with_rating}.",
                    None,
                    rating,
                )
            )
            continue
        found = known.names[target]
        if target in entries:
            dropped, here = entries[target]
            if dropped is not None:
                lines.append(
                    Line(
                        row.line,
                        found,
                        Outcome.REFUSED,
                        f"Refused: {found} dropped out of this event.",
                        target,
                    )
                )
            else:
                state = "checked in" if here else "not checked in yet"
                lines.append(
                    Line(
                        row.line,
                        found,
                        Outcome.REGISTERED,
                        f"Already registered ({state}): stays as they are.",
                        target,
                    )
                )
            continue
        who = (
            f"member {found} ({known.usernames[target]})"
            if target in known.usernames
            else (f"{found}, a guest of the club" if target in known.guests else f"member {found}")
        )
        with_rating = f" with the rating {rating:g}" if rating is not None else ""
        lines.append(
            Line(
                row.line,
                found,
                Outcome.MATCHED,
                f"Matched to {who}: register them{with_rating}.",
                target,
                rating,
            )
        )
    return Plan(event=event, sheet=sheet, lines=tuple(lines), user_id=user.pk)


def preview(*, user: Any, event: Event, data: bytes) -> Plan:
    """Read a file and plan its import (nothing is written)."""
    services.require_organiser(user=user, event=event)  # before reading anything of the file
    plan = plan_make(user=user, event=event, sheet=sheet_read(data))
    if len(plan.token) > TOKEN_MAX_CHARS:
        raise ValidationError(
            "The file holds too much text to import at once (its names and addresses are very long): "
            "split it, and import each part."
        )
    return plan


# --- confirming -----------------------------------------------------------------------------------


class PlanChanged(ValidationError):
    """The club or the event changed since the preview: nothing was written; ``plan`` is what
    importing the same file would do now."""

    def __init__(self, plan: Plan) -> None:
        super().__init__(
            "The club or the event changed since the preview (a player added or registered in the "
            "meantime), so nothing was imported: check the new preview below, then confirm it."
        )
        self.plan = plan


@dataclass(frozen=True)
class Imported:
    plan: Plan
    guests: list[Player]
    entrants: list[Entrant]  # those registered now, in the file's order
    checked_in: int

    def says(self) -> str:
        counts = self.plan.counts
        if not self.entrants:
            return "Nobody was registered: every line of the file was registered already or refused."
        parts = [f"Registered {len(self.entrants)} player{'s' if len(self.entrants) != 1 else ''}"]
        if self.guests:
            parts.append(f"{len(self.guests)} of them new guests of the club")
        if self.checked_in:
            parts.append(
                "all checked in" if self.checked_in == len(self.entrants) else f"{self.checked_in} checked in"
            )
        said = ", ".join(parts) + "."
        if counts[Outcome.REGISTERED]:
            n = counts[Outcome.REGISTERED]
            said += f" {n} {'were' if n != 1 else 'was'} registered already."
        if counts[Outcome.REFUSED]:
            n = counts[Outcome.REFUSED]
            said += f" {n} line{'s were' if n != 1 else ' was'} refused."
        return said


def _unsigned(*, user: Any, event: Event, token: str) -> tuple[Sheet, str]:
    """The lines and the digest a preview's token carries, or why it cannot be used."""
    try:
        payload = signing.loads(token, salt=TOKEN_SALT, max_age=TOKEN_MAX_AGE)
    except signing.SignatureExpired:
        raise ValidationError(
            "This preview is more than an hour old: upload the file again to see what it would do now."
        ) from None
    except signing.BadSignature:
        raise ValidationError(UNREADABLE_TOKEN) from None
    if not isinstance(payload, dict) or payload.get("event") != event.pk:
        raise ValidationError(
            "This preview is of another event: upload the file on this event's import page."
        )
    if payload.get("user") != user.pk:
        raise PermissionDenied(
            "This preview was made by someone else: upload the file yourself to import it."
        )
    about = payload["sheet"]
    sheet = Sheet(
        rows=tuple(Row(*row) for row in payload["rows"]),
        columns=dict(about["columns"]),
        ignored=tuple(about["ignored"]),
        encoding=about["encoding"],
        empty_lines=about["empty_lines"],
    )
    return sheet, str(payload["digest"])


def plan_confirm(*, user: Any, event: Event, token: str, check_in: bool = False) -> Imported:
    """Apply the previewed plan of ``token``: the guests it names are added to the club, and
    everyone it registers is registered in the event (and checked in, with ``check_in``).

    ``PlanChanged`` (nothing written) when the plan would not be the one previewed;
    ``ValidationError`` for a token that is not this event's, or too old."""
    services.require_organiser(user=user, event=event)
    sheet, digest = _unsigned(user=user, event=event, token=token)
    return _confirm(user=user, event=event, sheet=sheet, digest=digest, check_in=check_in)


@atomic_retrying
def _confirm(*, user: Any, event: Event, sheet: Sheet, digest: str, check_in: bool) -> Imported:
    """Plan again, the event locked (the first of the locks, as every change of its entrants
    takes it), and apply the plan only if it is the one previewed."""
    event = guards.locked_event(event)
    plan = plan_make(user=user, event=event, sheet=sheet)
    if plan.digest != digest:
        raise PlanChanged(plan)
    return _apply(user=user, plan=plan, check_in=check_in)


def _apply(*, user: Any, plan: Plan, check_in: bool) -> Imported:
    event = plan.event
    new = [line for line in plan.lines if line.outcome == Outcome.GUEST]
    guests = (
        clubs.guests_add_many(user=user, club=event.club, names=[line.name for line in new]) if new else []
    )
    made = {line.line: player.pk for line, player in zip(new, guests, strict=True)}
    entering = [line for line in plan.lines if line.outcome in (Outcome.GUEST, Outcome.MATCHED)]
    if not entering:
        return Imported(plan=plan, guests=[], entrants=[], checked_in=0)
    ids = [line.player if line.player is not None else made[line.line] for line in entering]
    ratings = {pk: line.rating for pk, line in zip(ids, entering, strict=True) if line.rating is not None}
    registered = entrants_register_many(
        user=user, event=event, player_ids=ids, ratings=ratings, check_in=check_in
    )
    return Imported(plan=plan, guests=guests, entrants=registered.created, checked_in=registered.checked_in)
