#!/usr/bin/env python3
"""A small client of `voiceguide serve` (standard library only).

It sends a route, replays a recorded drive through the daemon's socket, and prints what the
daemon said, one JSON object a line:

    python3 voiceguide_client.py --route route.json --trace drive.jsonl [--speedup 10]

A trace is either
  * JSON lines of progress: {"time": 12.0, "leg": 0, "step": 1, "distance_remaining": 350, "speed": 13.9}
  * JSON lines of fixes:    {"time": 12.0, "lat": 37.79, "lon": -122.41, "speed": 13.9}
    (gpsd TPV reports work too: "class": "TPV" with lat, lon, speed, track, time)
  * a GPX 1.1 file (trkpt lat/lon with <time>), or NMEA 0183 $GPRMC/$GNRMC sentences,
both sent as `position` requests that the daemon matches to the route.

Times are replayed `--speedup` times faster than recorded (0: as fast as the daemon answers).
Each fix carries its recorded time, so the daemon times the prompts on the trace's clock.
The protocol is described in docs/protocol.md.
"""

import argparse
import datetime
import json
import os
import socket
import sys
import threading
import time
import xml.etree.ElementTree as ElementTree


class Client:
    """One connection: requests with ids, replies matched by id, events handed to a callback."""

    def __init__(self, path, on_event=None):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.reader = self.sock.makefile("rb")
        self.next_id = 1
        self.on_event = on_event

    def send(self, cmd, **fields):
        """Sends a request; returns its id."""
        request_id = self.next_id
        self.next_id += 1
        line = json.dumps(dict(id=request_id, cmd=cmd, **fields), separators=(",", ":"))
        self.sock.sendall(line.encode() + b"\n")
        return request_id

    def read(self):
        """The next message from the daemon, or None when it closed the connection."""
        line = self.reader.readline()
        if not line:
            return None
        message = json.loads(line)
        if "event" in message and self.on_event:
            self.on_event(message)
        return message

    def reply(self, request_id):
        """Reads until the reply with this id (events go to the callback)."""
        while True:
            message = self.read()
            if message is None:
                raise ConnectionError("the daemon closed the connection")
            if message.get("id") == request_id and "ok" in message:
                return message

    def request(self, cmd, **fields):
        return self.reply(self.send(cmd, **fields))

    def close(self):
        self.sock.close()


def parse_time(text):
    """Seconds since the epoch of an ISO 8601 time (gpsd and GPX write them)."""
    text = text.strip().replace("Z", "+00:00")
    return datetime.datetime.fromisoformat(text).timestamp()


def nmea_fixes(lines):
    """Fixes from $--RMC sentences: time, lat, lon, speed (knots → m/s), course."""
    for line in lines:
        fields = line.strip().split("*")[0].split(",")
        if len(fields) < 10 or not fields[0].endswith("RMC") or fields[2] != "A":
            continue
        try:
            lat = int(fields[3][:2]) + float(fields[3][2:]) / 60
            lon = int(fields[5][:3]) + float(fields[5][3:]) / 60
            stamp = datetime.datetime.strptime(fields[9] + fields[1].split(".")[0], "%d%m%y%H%M%S")
            seconds = stamp.replace(tzinfo=datetime.timezone.utc).timestamp()
            if "." in fields[1]:
                seconds += float("0." + fields[1].split(".")[1])
        except ValueError:
            continue
        fix = {"time": seconds, "lat": -lat if fields[4] == "S" else lat, "lon": -lon if fields[6] == "W" else lon}
        if fields[7]:
            fix["speed"] = float(fields[7]) * 0.514444
        if fields[8]:
            fix["course"] = float(fields[8])
        yield "position", fix


def gpx_fixes(text):
    root = ElementTree.fromstring(text)
    for point in root.iter():
        if not point.tag.endswith("trkpt"):
            continue
        fix = {"lat": float(point.get("lat")), "lon": float(point.get("lon"))}
        for child in point:
            if child.tag.endswith("time") and child.text:
                fix["time"] = parse_time(child.text)
        yield "position", fix


def json_fixes(lines):
    for line in lines:
        if not line.strip():
            continue
        record = json.loads(line)
        if "distance_remaining" in record:
            keys = ("leg", "step", "distance_remaining", "speed", "time")
            yield "progress", {key: record[key] for key in keys if key in record}
        elif "lat" in record and "lon" in record:
            fix = {"lat": record["lat"], "lon": record["lon"]}
            if isinstance(record.get("time"), str):
                fix["time"] = parse_time(record["time"])
            elif "time" in record:
                fix["time"] = record["time"]
            for key, name in (("speed", "speed"), ("course", "course"), ("track", "course"), ("eph", "accuracy")):
                if key in record:
                    fix[name] = record[key]
            if "course" in fix:
                fix["course"] = fix["course"] % 360
            yield "position", fix


def read_trace(path):
    """(cmd, fields) for every fix of a trace, times made relative to its first fix."""
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    stripped = text.lstrip()
    if stripped.startswith("<"):
        fixes = list(gpx_fixes(text))
    elif stripped.startswith("$"):
        fixes = list(nmea_fixes(text.splitlines()))
    else:
        fixes = list(json_fixes(text.splitlines()))
    start = next((fields["time"] for _, fields in fixes if "time" in fields), 0)
    for _, fields in fixes:
        if "time" in fields:
            fields["time"] = round(fields["time"] - start, 3)
    return fixes


def replay(path, route, trace, speedup, voice=None, out=sys.stdout):
    """Sends the route and every fix; prints each event and a summary. Returns the summary."""
    lock = threading.Lock()
    events = []

    def show(message):
        with lock:
            events.append(message)
            out.write(json.dumps(message, separators=(",", ":")) + "\n")
            out.flush()

    listener = Client(path, on_event=show)
    subscribed = listener.request("subscribe")
    if not subscribed.get("ok"):
        raise SystemExit("subscribe failed: %s" % subscribed)
    reader = threading.Thread(target=lambda: [None for _ in iter(listener.read, None)], daemon=True)
    reader.start()

    client = Client(path)
    fields = {"path": os.path.abspath(route)}
    if voice:
        fields["voice"] = voice
    loaded = client.request("route", **fields)
    if not loaded.get("ok"):
        raise SystemExit("route refused: %s" % loaded["error"]["message"])
    started = time.monotonic()
    errors = 0
    for cmd, fix in trace:
        if speedup > 0 and "time" in fix:
            delay = started + fix["time"] / speedup - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        reply = client.request(cmd, **fix)
        if not reply.get("ok"):
            errors += 1
            sys.stderr.write("fix at %s: %s\n" % (fix.get("time"), reply["error"]["message"]))
    # Let the last prompts be decided and heard before the summary.
    client.request("status")
    time.sleep(0.5)
    status = client.request("status")
    with lock:
        spoken = [event for event in events if event.get("event") == "spoke"]
    summary = {"summary": True, "fixes": len(trace), "errors": errors, "spoken": len(spoken),
               "status": status}
    out.write(json.dumps(summary, separators=(",", ":")) + "\n")
    client.close()
    listener.close()
    return summary


def main():
    parser = argparse.ArgumentParser(description="Replay a drive through voiceguide serve.")
    default_socket = os.path.join(os.environ.get("XDG_RUNTIME_DIR", "/tmp"), "voiceguide.sock")
    parser.add_argument("--socket", default=default_socket, help="the daemon's socket")
    parser.add_argument("--route", required=True, help="a Directions v5 route or response (JSON)")
    parser.add_argument("--trace", required=True, help="GPX, NMEA, gpsd JSON or progress JSON lines")
    parser.add_argument("--speedup", type=float, default=1.0, help="replay N× faster (0: no waiting)")
    parser.add_argument("--voice", help="voice profile for the route")
    arguments = parser.parse_args()
    try:
        trace = read_trace(arguments.trace)
    except (OSError, ValueError, ElementTree.ParseError) as error:
        raise SystemExit("cannot read the trace %s: %s" % (arguments.trace, error))
    try:
        summary = replay(arguments.socket, arguments.route, trace, arguments.speedup, arguments.voice)
    except OSError as error:
        raise SystemExit("cannot talk to voiceguide serve on %s: %s" % (arguments.socket, error))
    return 1 if summary["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
