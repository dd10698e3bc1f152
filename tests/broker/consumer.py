"""One librdkafka consumer (confluent-kafka) in its own process, driven by
tests/broker/test_real_clients.py: it prints one JSON object per line on
stdout (assigned partitions, its member id, errors, records consumed) and
reads commands on stdin ("close": close it, then exit). SIGKILL it to
crash it.

    python consumer.py BOOTSTRAP GROUP INSTANCE_ID|- TOPIC [SESSION_MS] [PROTOCOL]

PROTOCOL is the client's group.protocol: "classic" (the default) or
"consumer" (KIP-848: the broker's session timeout and assignor decide, so
session.timeout.ms and the range assignor are not set).

scripts/consumer runs it by hand; Ctrl-C closes it as "close" does.
"""

import json
import os
import select
import sys
import time

from confluent_kafka import Consumer


def say(**fields):
    print(json.dumps(fields), flush=True)


def main():
    bootstrap, group, instance, topic = sys.argv[1:5]
    session_ms = int(sys.argv[5]) if len(sys.argv) > 5 else 10000
    protocol = sys.argv[6] if len(sys.argv) > 6 else "classic"
    config = {
        "bootstrap.servers": bootstrap,
        "group.id": group,
        "partition.assignment.strategy": "range",
        "session.timeout.ms": session_ms,
        "auto.offset.reset": "earliest",
        "client.id": "rdkafka",
        "error_cb": lambda e: say(
            event="error", code=e.code(), name=e.name(), text=e.str(), fatal=e.fatal()
        ),
    }
    if instance != "-":
        config["group.instance.id"] = instance
    if os.environ.get("GROUPSCOPE_CLIENT_LOGS"):
        # The group's story as the client tells it, on stderr
        # (tests/logs/story.py keeps it as a client log).
        config["debug"] = "cgrp"
    if protocol == "consumer":
        config["group.protocol"] = "consumer"
        del config["partition.assignment.strategy"]
        del config["session.timeout.ms"]

    # Under the consumer protocol the callbacks are incremental (KIP-848:
    # only the partitions added or taken away); "partitions" is always
    # what the consumer holds after the change.
    incremental = protocol == "consumer"
    held = set()

    def on_assign(consumer, partitions):
        names = {f"{p.topic}-{p.partition}" for p in partitions}
        held.update(names) if incremental else (held.clear(), held.update(names))
        say(
            event="assigned",
            partitions=sorted(held),
            added=sorted(names),
            member_id=consumer.memberid(),
        )

    def on_revoke(consumer, partitions):
        names = {f"{p.topic}-{p.partition}" for p in partitions}
        held.difference_update(names) if incremental else held.clear()
        say(event="revoked", partitions=sorted(names), holds=sorted(held))

    consumer = Consumer(config)
    consumer.subscribe([topic], on_assign=on_assign, on_revoke=on_revoke)
    consumed = 0
    last_said = -1
    while True:
        message = consumer.poll(0.1)
        if message is not None:
            if message.error():
                err = message.error()
                say(event="error", code=err.code(), name=err.name(), text=err.str(), fatal=err.fatal())
                if err.fatal():
                    # A fatal error (FENCED_INSTANCE_ID) ends this consumer.
                    time.sleep(0.5)
                    break
            else:
                consumed += 1
        if consumed != last_said:
            say(event="consumed", n=consumed)
            last_said = consumed
        if select.select([sys.stdin], [], [], 0)[0]:
            command = sys.stdin.readline().strip()
            if command in ("close", ""):
                consumer.close()
                say(event="closed")
                return
            if command == "member":
                say(event="member", member_id=consumer.memberid())
    try:
        consumer.close()
    except Exception as e:  # a fenced consumer may refuse
        say(event="close_failed", text=str(e))
    say(event="closed")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        # By hand (scripts/consumer): Ctrl-C. The consumer object is gone
        # with main's frame; librdkafka's destructor leaves without a word,
        # as a static member's close does.
        say(event="interrupted")
