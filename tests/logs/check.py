"""Real logs, made fresh: runs story.py's group life with real librdkafka
consumers against the running Kafka (classic; with --consumer also a
consumer group beside it), then reads the broker's log back with
`groupscope import-log` and checks the history against what the story did.
The kafka stage of scripts/test runs it on Kafka 3.9 and 4.4.

    python check.py BOOTSTRAP KAFKA_LOG GROUPSCOPE [--consumer [SESSION_MS]]

SESSION_MS is the broker's group.consumer.session.timeout.ms (default
45000, Kafka's): the consumer story waits that long for its expiry.
"""

import json
import os
import shutil
import glob
import subprocess
import sys
import tempfile
import time
import uuid

from confluent_kafka.admin import AdminClient, NewTopic

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    bootstrap, log, groupscope = sys.argv[1:4]
    extra = sys.argv[4:]
    with_consumer = "--consumer" in extra
    session_ms = int(extra[1]) if with_consumer and len(extra) > 1 else 45000
    admin = AdminClient({"bootstrap.servers": bootstrap})
    for f in admin.create_topics([NewTopic("orders", 3, 1)]).values():
        try:
            f.result(20)
        except Exception as e:  # it exists already
            if "already exists" not in str(e) and "TOPIC_ALREADY_EXISTS" not in str(e):
                raise
    tag = uuid.uuid4().hex[:6]
    runs = [("classic", f"story-{tag}")]
    if with_consumer:
        runs.append(("consumer", f"story-848-{tag}"))
    wait = {"classic": 14, "consumer": session_ms / 1000 + 4}
    # Each story's consumers keep their own logs (librdkafka's debug=cgrp),
    # read back beside the broker's.
    clients = {p: tempfile.mkdtemp(prefix=f"groupscope-clients-{p}-") for p, _ in runs}
    procs = [
        (protocol, group, subprocess.Popen(
            [sys.executable, os.path.join(HERE, "story.py"), bootstrap, group, protocol,
             str(wait[protocol])],
            stdout=subprocess.PIPE, text=True,
            env={**os.environ, "GROUPSCOPE_CLIENT_LOGS": clients[protocol]}))
        for protocol, group in runs
    ]
    failures = []
    for protocol, group, p in procs:
        out, _ = p.communicate(timeout=300)
        if p.returncode != 0:
            failures.append(f"{group}: story.py exited {p.returncode}")
            continue
        json.loads(out)
    time.sleep(1)  # the log's last lines flushed
    keep = os.path.join("target", "logs")
    os.makedirs(keep, exist_ok=True)
    shutil.copy(log, os.path.join(keep, os.path.basename(os.path.dirname(log)) + f"-{tag}.log"))
    for protocol, group, _ in procs:
        s = summary(groupscope, [log], group, failures)
        if s is None:
            continue
        print(f"{protocol} {group}: {json.dumps(s)}")
        want = {"protocol": protocol, "instance_ids": ["a", "b"]}
        if protocol == "classic":
            # Three joins; a's restart (none); c's leave and return; b's
            # expiry; the duplicate fences a (none); c's leave at the end.
            want["fenced"] = ["a"]
            if s["rebalances"] < 5 or s["generations"][:4] != [1, 2, 3, 4]:
                failures.append(f"{group}: expected 5 rebalances and generations 1..4, got {s}")
        else:
            # Joins of a, b and c; c's leave and return; b's expiry; c's
            # leave at the end: seven epoch bumps (a's -2 restart and the
            # refused duplicate bump nothing).
            want["fenced"] = []
            if s["rebalances"] != 7 or not s["generations"]:
                failures.append(f"{group}: expected 7 epoch bumps and some targets, got {s}")
        for k, v in want.items():
            if s.get(k) != v:
                failures.append(f"{group}: {k} expected {v}, got {s.get(k)}")
        check_clients(groupscope, log, clients[protocol], group, s, protocol, failures)
        scenario = subprocess.run([groupscope, "import-log", log, "--group", group, "--as-scenario"],
                                  capture_output=True, text=True)
        if scenario.returncode != 0:
            failures.append(f"{group}: --as-scenario failed: {scenario.stderr}")
    if failures:
        print("\n".join(failures), file=sys.stderr)
        sys.exit(1)


def summary(groupscope, files, group, failures):
    """`import-log FILES --group GROUP --summary`, or None (the failure noted)."""
    run = subprocess.run([groupscope, "import-log", *files, "--group", group, "--summary"],
                         capture_output=True, text=True)
    if run.returncode != 0:
        failures.append(f"{group}: import-log {' '.join(files)} failed: {run.stderr}")
        return None
    return json.loads(run.stdout)


def check_clients(groupscope, log, clients, group, broker_only, protocol, failures):
    """The broker's log with its clients' logs: the same story, plus each
    member's time without partitions, its wait for its first fetch, the
    group's stop-the-world windows, and the clients' own events."""
    files = sorted(glob.glob(os.path.join(clients, "*.log")))
    if len(files) < 6:
        failures.append(f"{group}: expected the six consumers' logs, got {files}")
        return
    s = summary(groupscope, [log, *files], group, failures)
    if s is None:
        return
    print(f"{protocol} {group} with its clients: {json.dumps(s.get('clients'))}")
    for k in ("rebalances", "generations", "fenced", "instance_ids"):
        if s.get(k) != broker_only.get(k):
            failures.append(f"{group}: with client logs {k} is {s.get(k)}, without {broker_only.get(k)}")
    c = s.get("clients") or {}
    if not c.get("members"):
        failures.append(f"{group}: expected each member's figures from its client's log, got {c}")
    # The classic story's eager rebalances stop the whole group; under the
    # consumer protocol members keep what they hold while others move.
    if protocol == "classic" and c.get("stop_the_world_windows", 0) < 1:
        failures.append(f"{group}: expected a stop-the-world window, got {c}")
    if protocol == "consumer":
        trace = subprocess.run([groupscope, "import-log", log, *files, "--group", group],
                               capture_output=True, text=True).stdout
        actions = {json.loads(l).get("action") for l in trace.splitlines() if '"client"' in l}
        if not {"epoch", "assigned", "revoked", "fetching"} <= actions:
            failures.append(f"{group}: expected the clients' epochs, assignments, revocations and fetches, got {actions}")
    # Every member given partitions started fetching them: librdkafka's
    # "Starting pending assigned partition" after each assignment.
    slow = {m: f.get("to_first_fetch_ms") for m, f in (c.get("members") or {}).items()
            if not isinstance(f.get("to_first_fetch_ms"), int) or not 0 <= f["to_first_fetch_ms"] < 10_000}
    if slow:
        failures.append(f"{group}: expected each member's first fetch within 10 s of its assignment, got {slow}")
    keep = os.path.join("target", "logs", f"clients-{group}")
    shutil.copytree(clients, keep, dirs_exist_ok=True)


if __name__ == "__main__":
    main()
