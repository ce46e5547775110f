"""A session's time zone, as a TIMESTAMP's literal DEFAULT is read in it.

A TIMESTAMP holds an instant; a session reads and writes it as text in its ``time_zone``. mvdd
keeps a TIMESTAMP's DEFAULT as UTC text (every session it opens runs in UTC:
:data:`mvdd.store.address.SESSION_TIME_ZONE`), so a statement a session in another zone wrote
(a binlog logs the zone beside a statement that used it) has its literal moved to UTC.

>>> utc_text("2021-01-01 00:00:00.500", session_zone("+08:00"))
'2020-12-31 16:00:00.500'
>>> utc_text("2021-07-01 12:00:00", session_zone("Europe/Berlin"))
'2021-07-01 10:00:00'
"""

from __future__ import annotations

import datetime as dt
import functools
import re
import zoneinfo

from mvdd.errors import DDLError

_OFFSET = re.compile(r"([+-])(\d{1,2}):(\d{2})")
#: a TIMESTAMP's text as mvdd keeps it (a fraction of up to six digits)
_TEXT = re.compile(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)(?:\.(\d{1,6}))?")


@functools.cache
def session_zone(name: str) -> dt.tzinfo:
    """The zone a session's ``time_zone`` names: an offset (``+08:00``, as MariaDB takes
    them: ``-12:59`` to ``+13:00``) or a zone's name Python's zone database knows
    (``Europe/Berlin``, ``UTC``); DDLError for any other (``SYSTEM`` is the server's, which
    its reader resolves first)."""
    found = _OFFSET.fullmatch(name)
    if found is not None:
        sign, hours, minutes = found.groups()
        offset = dt.timedelta(hours=int(hours), minutes=int(minutes))
        if int(minutes) > 59 or not -dt.timedelta(hours=12, minutes=59) <= offset <= dt.timedelta(
            hours=13
        ):
            raise DDLError(f"time zone offset {name!r} is out of range -12:59..+13:00")
        return dt.timezone(-offset if sign == "-" else offset)
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise DDLError(
            f"unknown time zone {name!r} (an offset such as '+08:00', or a zone's name)"
        ) from None


def utc_text(text: str, zone: dt.tzinfo) -> str:
    """A TIMESTAMP's text in ``zone`` as UTC text, its fraction's digits kept; a zero date, or
    a text that is no date and time, as it is. A local time a clock change skips or repeats is
    read as the zone's rules read it first (``fold=0``)."""
    found = _TEXT.fullmatch(text)
    if found is None or text.startswith("0000"):
        return text
    whole, fraction = found.groups()
    local = dt.datetime.strptime(whole, "%Y-%m-%d %H:%M:%S").replace(tzinfo=zone)
    moved = local.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M:%S")
    return moved if fraction is None else f"{moved}.{fraction}"


__all__ = ["session_zone", "utc_text"]
