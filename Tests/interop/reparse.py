#!/usr/bin/python3
"""Reads a file Hearth exported with another program's parser (Debian's python3-icalendar or python3-vobject),
prints what that parser sees as JSON, and writes the file back out through the same parser.

usage: reparse.py ics|vcf INPUT OUTPUT
"""
import json
import sys

import icalendar
import vobject


def calendar(source, target):
    parsed = icalendar.Calendar.from_ical(open(source, "rb").read())
    seen = []
    for event in parsed.walk("VEVENT"):
        start = event["DTSTART"]
        seen.append({
            "uid": str(event["UID"]),
            "summary": str(event["SUMMARY"]),
            "start": start.dt.isoformat(),
            "tzid": start.params.get("TZID"),
            "location": str(event["LOCATION"]) if "LOCATION" in event else None,
            "rrule": event["RRULE"].to_ical().decode() if "RRULE" in event else None,
        })
    for todo in parsed.walk("VTODO"):
        seen.append({"uid": str(todo["UID"]), "summary": str(todo["SUMMARY"])})
    open(target, "wb").write(parsed.to_ical())
    return seen


def cards(source, target):
    seen = []
    written = []
    for card in vobject.readComponents(open(source, encoding="utf-8").read()):
        seen.append({
            "uid": card.uid.value,
            "fn": card.fn.value,
            "tel": [tel.value for tel in card.contents.get("tel", [])],
            "email": [email.value for email in card.contents.get("email", [])],
        })
        written.append(card.serialize())
    open(target, "w", encoding="utf-8", newline="").write("".join(written))
    return seen


if __name__ == "__main__":
    mode, source, target = sys.argv[1:4]
    print(json.dumps(calendar(source, target) if mode == "ics" else cards(source, target)))
