#!/usr/bin/env python3
"""Writes the importer fixtures from the sources' documented field lists (shared/FORMATS.md).

Deterministic: run it again and the files come out the same. Group sizes are fixed here, and the
tests in Tests/EndToEndTests/ImportTests.swift assert on them:
- crashlytics.ndjson: 300 lines, 280 distinct events (20 repeated rows):
  100 US14-LO43-AP7-NE8, 80 IN500-TA202-TB30-HT400-NE29, 60 plain NSURLErrorDomain -1009, 40 Android.
- sentry.ndjson: 200 events: 120 US14-LO43-AP7-NE8 (ns_error codes), 80 code-less DecodingError.
- elk.ndjson: 150 reports: 60 com.example.ios.feed.decoding 666, 40 IN500 chain in metadata,
  30 + 20 logic errors from two origins.
- desk.csv: 120 tickets: 50 cite US14-LO43-AP7-NE8, 30 cite IN500-TA202-TB30-HT400-NE29
  (10 of them also US14-LO43-AP7-NE8), 25 cite nothing, 15 cite a code no event carries.
- desk.ndjson: 30 tickets: 20 cite US14-LO43-AP7-NE8, 10 cite nothing.
"""
import json, random

rng = random.Random(42)
DEVICES = ["iPhone14,5", "iPhone15,2", "iPhone13,2", "iPad13,18"]
OSES = ["17.4.1", "18.1", "16.7.10"]
NETS = ["wifi", "cellular", "offline"]


def ts(i, bq):
    day = 10 + i % 9
    h, m, s = i % 24, (i * 7) % 60, (i * 13) % 60
    if bq:
        return f"2026-11-{day:02d} {h:02d}:{m:02d}:{s:02d}.{i % 1000:03d}456 UTC"
    return f"2026-11-{day:02d}T{h:02d}:{m:02d}:{s:02d}Z"


def crashlytics():
    rows = []
    groups = [("US14-LO43-AP7-NE8", "UserError.connectionIssue-LogicError.loginFailed-APIError.getTokenFailed-NetworkError.timeout", 100),
              ("IN500-TA202-TB30-HT400-NE29", "InteractorError.getMapPins-TolokaAPIError.taskSuites-TolokaBackendError.validationFailure(ValidationError.valueOutOfBounds)-HTTPError.no400BadRequest-NetworkError.responseValidationFailed", 80),
              ("nsurl", None, 60), ("android", None, 40)]
    n = 0
    for key, stack, count in groups:
        for k in range(count):
            n += 1
            i = n
            row = {"platform": "IOS" if key != "android" else "ANDROID", "bundle_identifier": "ru.example.tasks",
                   "event_id": f"crash-{i:04d}", "issue_id": f"issue-{key}", "event_timestamp": ts(i, i % 2 == 0),
                   "received_timestamp": ts(i, True), "error_type": "NON_FATAL",
                   "firebase_session_id": f"fs-{i % 37}", "installation_uuid": f"inst-{i % 53}",
                   "app_orientation": "PORTRAIT" if i % 5 else "LANDSCAPE", "process_state": "FOREGROUND" if i % 4 else "BACKGROUND",
                   "application": {"build_version": str(400 + i % 3), "display_version": ["1.11", "1.12", "1.13"][i % 3]},
                   "device": {"manufacturer": "Apple", "model": DEVICES[i % 4], "architecture": "arm64"},
                   "operating_system": {"name": "iOS", "display_version": OSES[i % 3],
                                        "modification_state": "MODIFIED" if i % 25 == 0 else "UNMODIFIED", "type": "IOS", "device_type": "MOBILE"},
                   "memory": {"used": 1000, "free": str(100000000 + i) if i % 2 else 100000000 + i},
                   "storage": {"used": "5", "free": 8000000000 + i},
                   "user": {"id": f"cu{i % 61}"},
                   "custom_keys": [{"key": "network", "value": NETS[i % 3]}, {"key": "screen", "value": "map"}],
                   "logs": [], "breadcrumbs": []}
            if key == "nsurl":
                row["issue_title"] = "NSURLErrorDomain"
                row["issue_subtitle"] = "The Internet connection appears to be offline."
                row["errors"] = [{"title": "NSURLErrorDomain", "subtitle": "offline", "code": "-1009" if i % 2 else -1009, "blamed": True, "frames": []}]
            elif key == "android":
                row["issue_title"] = "SocketTimeoutException"
                row["exceptions"] = [{"type": "java.io.IOException", "exception_message": "wrapped", "nested": True},
                                     {"type": "java.net.SocketTimeoutException", "exception_message": "timeout", "nested": False}]
                row["operating_system"]["name"] = "Android"
            else:
                row["issue_title"] = key
                row["errors"] = [{"title": key, "code": 0, "frames": []}]
                row["custom_keys"].append({"key": "error_codes_stack", "value": stack})
            rows.append(row)
    out = rows + [rows[j * 13] for j in range(20)]  # exports repeat rows
    return out


def sentry():
    rows = []
    for i in range(1, 201):
        if i <= 120:
            values = [
                {"type": "NetworkError", "value": "timeout", "mechanism": {"type": "generic", "meta": {"ns_error": {"domain": "NetworkError", "code": 8}}}},
                {"type": "APIError", "value": "getTokenFailed", "mechanism": {"meta": {"ns_error": {"domain": "APIError", "code": 7}}}},
                {"type": "LogicError", "value": "loginFailed", "mechanism": {"meta": {"ns_error": {"domain": "LogicError", "code": 43}}}},
                {"type": "UserError", "value": "connectionIssue", "mechanism": {"exception_id": 0, "meta": {"ns_error": {"domain": "UserError", "code": 14}}}},
            ]
        else:
            values = [{"type": "DecodingError", "value": f"keyNotFound(CodingKeys(stringValue: \"id\"))", "mechanism": {"type": "generic", "handled": True}}]
        stamp = 1794312000 + i * 3600.25 if i % 2 else ts(i, False).replace("Z", ".250Z")
        rows.append({"event_id": f"{i:032x}", "timestamp": stamp, "platform": "cocoa", "level": "error",
                     "release": f"ru.example.tasks@1.{11 + i % 3}.0+{500 + i % 4}", "dist": str(500 + i % 4),
                     "environment": "production", "user": {"id": f"su{i % 47}"},
                     "tags": {"network": NETS[i % 3], "screen": "login"},
                     "contexts": {"device": {"model": DEVICES[i % 4], "family": "iOS", "manufacturer": "Apple", "online": True},
                                  "os": {"name": "iOS", "version": OSES[i % 3]},
                                  "app": {"app_identifier": "ru.example.tasks", "app_version": f"1.{11 + i % 3}.0", "app_build": str(500 + i % 4), "in_foreground": i % 3 != 0}},
                     "exception": {"values": values}})
    return rows


def elk():
    rows = []
    for i in range(1, 151):
        row = {"environment": "production", "reported_at": ts(i, False).replace("Z", ".000Z"), "message": f"developer-facing message {i}",
               "mobile": {"version": "2.0.0", "build_number": 2500 + i % 2, "platform": "ios", "network": NETS[i % 3], "development": False}}
        if i <= 60:
            row.update({"code": 666, "domain": "com.example.ios.feed.decoding"})
            row["ios.metadata"] = {"field": "items"}
        elif i <= 100:
            row.update({"code": 500, "domain": "com.example.ios.interactor"})
            row["ios.metadata"] = {"error_codes": "IN500-TA202-TB30-HT400-NE29",
                                   "error_codes_stack": "InteractorError.getMapPins-TolokaAPIError.taskSuites-TolokaBackendError.validationFailure(ValidationError.valueOutOfBounds)-HTTPError.no400BadRequest-NetworkError.responseValidationFailed"}
        elif i <= 130:
            row.update({"code": 0, "domain": "LogicError(AppDelegate.swift:34 >>> application(_:didFinishLaunchingWithOptions:))"})
            row["message"] = "window is nil"
        else:
            row.update({"code": 0, "domain": "LogicError(MapViewController.swift:212 >>> reloadPins())"})
            row["message"] = "pins reloaded twice"
        rows.append(row)
    return rows


def desk_csv():
    lines = ["Ticket ID,Created At,Subject,Description,Requester,Channel,Tags"]
    def q(s):
        return '"' + s.replace('"', '""') + '"'
    for i in range(1, 121):
        when = f"2026-11-{10 + i % 9:02d} {i % 24:02d}:15:00"
        if i <= 50:
            subj, desc, tags = "App error", f"Hello,\nthe app shows \"US14-LO43-AP7-NE8\" when I log in, again: US14-LO43-AP7-NE8.\nThanks, user {i}", "bug_report"
        elif i <= 80:
            extra = " Also saw US14-LO43-AP7-NE8 yesterday." if i <= 60 else ""
            subj, desc, tags = "Map is empty, code IN500-TA202-TB30-HT400-NE29", f"No pins on the map, sorry, it's bad.{extra}", "bug_report"
        elif i <= 105:
            subj, desc, tags = "Slow", "Loading takes forever, please, fix it", "feedback_disapointment_slow_loading"
        else:
            subj, desc, tags = "Strange code", "It said ZZ99-QQ1 and closed", "bug_report"
        lines.append(",".join([f"T-{i}", when, q(subj), q(desc), f"user{i}@example.com", "email" if i % 2 else "in-app chat", tags]))
    return "\r\n".join(lines) + "\r\n"


def desk_ndjson():
    rows = []
    for i in range(1, 31):
        text = "Error US14-LO43-AP7-NE8 on login" if i <= 20 else "Withdrawal stuck for a week"
        rows.append({"ticket_id": f"N-{i}", "created_at": f"2026-11-1{i % 9}T08:00:00Z", "subject": "Help", "body": text,
                     "requester": f"n{i}", "via": "in-app chat", "tags": ["feedback_disapointment_withdraw_issues"] if i > 20 else ["bug"]})
    return rows


def write_ndjson(name, rows):
    with open(name, "w") as f:
        for r in rows:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")


write_ndjson("crashlytics.ndjson", crashlytics())
write_ndjson("sentry.ndjson", sentry())
write_ndjson("elk.ndjson", elk())
with open("desk.csv", "w", newline="") as f:
    f.write(desk_csv())
write_ndjson("desk.ndjson", desk_ndjson())
