"""A group's life with real librdkafka consumers against a running Kafka,
for `groupscope import-log` to read back from the broker's log: the
history it must find is printed as JSON on stdout (what the story did, in
order), and the broker's log is then the fixture.

    python story.py BOOTSTRAP GROUP classic|consumer [EXPIRY_WAIT_S] > expected.json

EXPIRY_WAIT_S (default 14) is how long the story waits for the killed
member's session to run out: the client's 10 s session under classic, the
broker's group.consumer.session.timeout.ms under the consumer protocol.

classic: static a, static b and dynamic c join; a restarts within its
session (no rebalance); c closes (a rebalance) and comes back (another);
b is killed (its session runs out: a rebalance); a second process with
a's instance id fences the first. consumer: the same members under the
consumer protocol: a restart with -2 (no epoch), c's leave and return,
b killed (its session runs out), a duplicate refused.
"""

import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "broker"))

from test_real_clients import ConsumerProcess  # noqa: E402

bootstrap, group, protocol = sys.argv[1:4]
expiry_wait = float(sys.argv[4]) if len(sys.argv) > 4 else 14.0
steps = []


def note(what, **fields):
    steps.append({"what": what, "at": time.time(), **fields})


def start(instance):
    c = ConsumerProcess(bootstrap, group, instance, protocol=protocol)
    return c


def assigned(c, timeout=40):
    return c.wait_for(lambda e: e.get("event") == "assigned" and e["partitions"], timeout, "assignment")


def settle(*consumers, seconds=3.0):
    time.sleep(seconds)
    for c in consumers:
        c.pump()


a, b, c = start("a"), start("b"), start(None)
for x in (a, b, c):
    assigned(x)
note("three members")
settle(a, b, c)
a.close()
a.release()
a = start("a")
assigned(a)
note("a restarted")
settle(a, b, c)
c.close()
c.release()
note("c left")
settle(a, b)
c = start(None)
assigned(c)
note("c back")
settle(a, b, c)
b.kill()
note("b killed")
settle(a, c, seconds=expiry_wait)
dup = start("a")
settle(a, c, dup, seconds=8)
note("duplicate a")
for x in (a, c, dup):
    x.close()
    x.release()
note("closed")
print(json.dumps({"group": group, "protocol": protocol, "steps": steps}))
