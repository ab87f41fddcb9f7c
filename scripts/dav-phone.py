#!/usr/bin/env python3
"""The user's phone in the sync tests: Python's caldav client (PyPI) doing what a phone's calendar, reminders
and contacts apps do against the same server Hearth syncs with. One command per run; prints what it read."""
import argparse
import sys

import caldav
import requests


def calendar(principal, cal_id):
    for candidate in principal.calendars():
        if str(candidate.url).rstrip("/").endswith("/" + cal_id):
            return candidate
    sys.exit(f"no calendar {cal_id}")


def by_uid(cal, uid):
    for item in list(cal.events()) + list(cal.todos(include_completed=True)):
        if item.icalendar_component.get("uid") == uid:
            return item
    sys.exit(f"no item {uid}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("command")
    parser.add_argument("args", nargs="*")
    options = parser.parse_args()
    client = caldav.DAVClient(url=options.url, username=options.user, password=options.password)
    args = options.args
    command = options.command
    if command == "make-addressbook":
        body = (
            '<?xml version="1.0" encoding="utf-8"?><d:mkcol xmlns:d="DAV:" '
            'xmlns:a="urn:ietf:params:xml:ns:carddav"><d:set><d:prop><d:resourcetype><d:collection/>'
            f"<a:addressbook/></d:resourcetype><d:displayname>{args[1]}</d:displayname></d:prop></d:set></d:mkcol>"
        )
        url = options.url.rstrip("/") + "/" + options.user + "/" + args[0] + "/"
        response = requests.request("MKCOL", url, data=body, auth=(options.user, options.password),
                                    headers={"Content-Type": "application/xml"})
        response.raise_for_status()
        return
    if command == "cards":
        # Every card in the address book, one after the other, as the server keeps them.
        session = requests.Session()
        session.auth = (options.user, options.password)
        url = options.url.rstrip("/") + "/" + args[0].strip("/") + "/"
        listing = session.request("PROPFIND", url, headers={"Depth": "1"})
        listing.raise_for_status()
        import re
        for href in re.findall(r"<(?:\w+:)?href>([^<]+\.vcf)</(?:\w+:)?href>", listing.text):
            card = session.get(requests.compat.urljoin(url, href))
            card.raise_for_status()
            sys.stdout.write(card.content.decode("utf-8"))
        return
    if command == "card-sync":
        # A sync of an address book with the token kept in a file (RFC 6578): the names changed and removed.
        import os
        import re
        session = requests.Session()
        session.auth = (options.user, options.password)
        url = options.url.rstrip("/") + "/" + args[0].strip("/") + "/"
        token = open(args[1]).read().strip() if os.path.exists(args[1]) else ""
        body = ('<?xml version="1.0"?><d:sync-collection xmlns:d="DAV:"><d:sync-token>' + token +
                "</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>")
        reply = session.request("REPORT", url, data=body, headers={"Content-Type": "application/xml"})
        reply.raise_for_status()
        for response in re.findall(r"<(?:\w+:)?response>(.*?)</(?:\w+:)?response>", reply.text, re.S):
            href = re.search(r"<(?:\w+:)?href>([^<]+)<", response).group(1).rsplit("/", 1)[-1]
            print(("removed " if "404 Not Found" in response and "propstat" not in response else "changed ") + href)
        open(args[1], "w").write(re.search(r"<(?:\w+:)?sync-token>([^<]+)<", reply.text).group(1))
        return
    if command == "stale-card":
        # A card written with an entity tag the server never gave: refused, nothing changed.
        url = options.url.rstrip("/") + "/" + args[0].strip("/") + "/" + args[1]
        response = requests.put(url, data=open(args[2], "rb").read(), auth=(options.user, options.password),
                                headers={"Content-Type": "text/vcard", "If-Match": '"not-a-tag"'})
        print(response.status_code)
        return
    if command in ("put-card", "get-card", "delete-card"):
        session = requests.Session()
        session.auth = (options.user, options.password)
        url = options.url.rstrip("/") + "/" + args[0].strip("/") + "/" + args[1]
        if command == "put-card":
            body = open(args[2], "rb").read()
            response = session.put(url, data=body, headers={"Content-Type": "text/vcard"})
        elif command == "get-card":
            response = session.get(url)
            # Cards are UTF-8 (RFC 6350); a server that names no charset is not read as Latin-1.
            sys.stdout.write(response.content.decode("utf-8"))
        else:
            response = session.delete(url)
        response.raise_for_status()
        return
    if command == "card-home":
        # Where the principal keeps its address books (CardDAV discovery, RFC 6352 section 7.1.1).
        session = requests.Session()
        session.auth = (options.user, options.password)
        body = ('<?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:a="urn:ietf:params:xml:ns:carddav">'
                "<d:prop><a:addressbook-home-set/></d:prop></d:propfind>")
        principal_url = str(client.principal().url)
        listing = session.request("PROPFIND", principal_url, data=body, headers={"Depth": "0"})
        listing.raise_for_status()
        import re
        print(re.findall(r"<(?:\w+:)?addressbook-home-set><(?:\w+:)?href>([^<]+)<", listing.text)[0])
        return
    principal = client.principal()
    if command == "calendars":
        # What the phone's calendar app shows: each calendar's name, the last part of its address, and what it holds.
        for cal in principal.calendars():
            components = ",".join(cal.get_supported_components())
            print(cal.get_display_name(), "|", str(cal.url).rstrip("/").rsplit("/", 1)[-1], "|", components)
        return
    if command == "sync":
        # A sync with the token kept in a file: the UIDs changed and the addresses removed since the last one.
        import os
        cal = calendar(principal, args[0])
        token = open(args[1]).read().strip() if os.path.exists(args[1]) else None
        found = cal.get_objects_by_sync_token(sync_token=token, load_objects=True, disable_fallback=True)
        for item in found:
            if item.data:
                print("changed", item.icalendar_component.get("uid"))
            else:
                print("removed", str(item.url).rsplit("/", 1)[-1])
        open(args[1], "w").write(str(found.sync_token))
        return
    if command == "stale-edit":
        # An edit sent with an entity tag the server never gave: it must be refused, and nothing changed.
        item = by_uid(calendar(principal, args[0]), args[1])
        data = item.data.replace("SUMMARY:", "SUMMARY:Stale ")
        response = requests.put(str(item.url), data=data.encode("utf-8"), auth=(options.user, options.password),
                                headers={"Content-Type": "text/calendar", "If-Match": '"not-a-tag"'})
        print(response.status_code)
        return
    if command == "make-calendar":
        components = args[2].split(",") if len(args) > 2 else ["VEVENT", "VTODO"]
        principal.make_calendar(name=args[1], cal_id=args[0], supported_calendar_component_set=components)
    elif command == "save":
        cal = calendar(principal, args[0])
        text = open(args[1]).read()
        if "BEGIN:VTODO" in text:
            cal.save_todo(text)
        else:
            cal.save_event(text)
    elif command == "save-many":
        # N one-hour events, one a day from 2027-01-01, UIDs PREFIX-0 … PREFIX-(N-1).
        import datetime
        cal = calendar(principal, args[0])
        start = datetime.datetime(2027, 1, 1, 9, 0, tzinfo=datetime.timezone.utc)
        for index in range(int(args[1])):
            day = start + datetime.timedelta(days=index)
            cal.save_event(dtstart=day, dtend=day + datetime.timedelta(hours=1),
                           summary=f"{args[2]} {index}", uid=f"{args[2]}-{index}")
    elif command == "get":
        sys.stdout.write(by_uid(calendar(principal, args[0]), args[1]).data)
    elif command == "list":
        cal = calendar(principal, args[0])
        items = list(cal.events()) + list(cal.todos(include_completed=True))
        for item in items:
            print(item.icalendar_component.get("uid"), "|", item.icalendar_component.get("summary"))
    elif command == "edit":
        item = by_uid(calendar(principal, args[0]), args[1])
        component = item.icalendar_component
        component.pop(args[2].upper(), None)
        component.add(args[2].lower(), args[3])
        item.save()
    elif command == "delete":
        by_uid(calendar(principal, args[0]), args[1]).delete()
    elif command == "complete":
        by_uid(calendar(principal, args[0]), args[1]).complete()
    else:
        sys.exit(f"unknown command {command}")


if __name__ == "__main__":
    main()
