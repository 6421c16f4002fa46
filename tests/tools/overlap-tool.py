#!/usr/bin/env python3
"""overlap-tool RESULT STATUS PATTERN: the result's one overlap check has
STATUS (pass, flagged, skipped), host "all clients", groupid -1, likely
causes only when flagged, and a message that PATTERN (a regex) finds;
prints the message."""
import json
import re
import sys

path, status, pattern = sys.argv[1:4]
checks = [c for c in json.load(open(path))["checks"] if c["name"] == "overlap"]
assert len(checks) == 1, checks
c = checks[0]
assert c["host"] == "all clients" and c["groupid"] == -1, c
assert c["status"] == status, c
assert re.search(pattern, c["message"]), c["message"]
assert bool(c["likely_causes"]) == (status == "flagged"), c
print("# " + c["message"])
