"""When a chat was last touched, as the sidebar shows it: the group its row falls in (Today, Yesterday,
Previous 7 days, Previous 30 days, then the month this year, then the year, as Zed's thread history and
the Claude and ChatGPT apps group) and a short relative time for the row ("12 min", "5 h", "Tue",
"Nov 21"). Local time, English names (the app's words are English), no locale lookups; pure, so a test
holds the clock."""

from __future__ import annotations

from datetime import datetime

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")  # fmt: skip
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
TODAY, YESTERDAY, WEEK, MONTH = "Today", "Yesterday", "Previous 7 days", "Previous 30 days"


def parse_time(value: object) -> datetime | None:
    """An agent's `updatedAt` (ISO 8601, a date alone, or a trailing Z) as a local naive time; None
    when it is missing or not a time."""
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip()
    text = text[:-1] + "+00:00" if text.endswith(("Z", "z")) else text
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    return moment.astimezone().replace(tzinfo=None) if moment.tzinfo else moment


def time_group(updated: datetime | None, now: datetime) -> str:
    """The sidebar group of a chat touched at `updated` (a chat without a time is today's: it was made
    here, or its agent gives no time)."""
    if updated is None:
        return TODAY
    days = (now.date() - updated.date()).days
    if days <= 0:
        return TODAY
    if days == 1:
        return YESTERDAY
    if days < 7:
        return WEEK
    if days < 30:
        return MONTH
    if updated.year == now.year:
        return MONTHS[updated.month - 1]
    return str(updated.year)


def time_label(updated: datetime | None, now: datetime) -> str:
    """A short time for the row: minutes or hours today, the weekday this week, the date after."""
    if updated is None:
        return ""
    seconds = (now - updated).total_seconds()
    days = (now.date() - updated.date()).days
    if days <= 0:
        if seconds < 60:
            return "now"
        if seconds < 3600:
            return f"{int(seconds // 60)} min"
        return f"{int(seconds // 3600)} h"
    if days < 7:
        return WEEKDAYS[updated.weekday()]
    date = f"{MONTHS[updated.month - 1][:3]} {updated.day}"
    return date if updated.year == now.year else f"{date}, {updated.year}"
