"""Real librdkafka consumers with group.protocol=consumer (KIP-848) against
`groupscope broker`, and, with BOOTSTRAP_CONSUMER=HOST:PORT, the same
checks against a real Kafka 4.x (`scripts/kafka start 4.4` with
KAFKA_CONSUMER_SESSION_TIMEOUT_MS=10000 and
KAFKA_CONSUMER_HEARTBEAT_INTERVAL_MS=500, as the broker stage starts it).

A static consumer joins; closed and started again
within the group's session timeout it comes back under a new member id
with its partitions and no rebalance (its close sent epoch -2); a second
process with an instance id in use is refused with UNRELEASED_INSTANCE_ID,
fatal, while the first one carries on (classic fences the first instead).
Against `groupscope broker` each test ends by checking its recording: the
consumer group's heartbeats are `consumer_heartbeat` steps, `groupscope run
FILE` prints the recorded trace byte for byte and `groupscope check FILE`
holds the live answers; the live stream (src/broker/ws.rs) rebuilds the
record file.

BOOTSTRAP alone (the classic run against a Kafka 3.9) skips these tests.

    .cache/venv/bin/python -m unittest discover -s tests/broker -p 'test_consumer_protocol.py' -v
"""

import os
import subprocess
import time
import unittest
import uuid

from confluent_kafka.admin import AdminClient, NewTopic

from test_real_clients import GROUPSCOPE, TOPIC, PARTITIONS, Broker, ConsumerProcess, LiveStream

EXTERNAL = os.environ.get("BOOTSTRAP_CONSUMER")
CLASSIC_ONLY = os.environ.get("BOOTSTRAP") and not EXTERNAL
SESSION_MS = 10000
HEARTBEAT_MS = 500


@unittest.skipIf(CLASSIC_ONLY, "BOOTSTRAP is a classic broker; BOOTSTRAP_CONSUMER names a Kafka 4.x")
class ConsumerProtocol(unittest.TestCase):
    def setUp(self):
        self.broker = None
        if EXTERNAL:
            self.bootstrap = EXTERNAL
            admin = AdminClient({"bootstrap.servers": EXTERNAL})
            futures = admin.create_topics([NewTopic(TOPIC, PARTITIONS, 1)])
            for f in futures.values():
                try:
                    f.result(10)
                except Exception as e:  # it exists already
                    if "TOPIC_ALREADY_EXISTS" not in str(e) and "already exists" not in str(e):
                        raise
        else:
            flags = ["--consumer-session-timeout-ms", str(SESSION_MS),
                     "--consumer-heartbeat-interval-ms", str(HEARTBEAT_MS)]
            self.broker = Broker(self.id().split(".")[-1], flags)
            self.bootstrap = self.broker.bootstrap
        self.group = f"kip848-{uuid.uuid4().hex[:8]}"
        self.consumers = []
        self.replayed = False

    def tearDown(self):
        for c in self.consumers:
            c.close()
            c.release()
        if self.broker:
            self.broker.stop()
            if not self.replayed:
                self.assert_replays()

    def assert_replays(self):
        """The stopped broker's recording: a consumer group's steps that
        replay to the recorded trace and hold their answers."""
        self.replayed = True
        recorded = self.broker.scenario()
        self.assertEqual(recorded["config"]["group_id"], self.group)
        self.assertEqual(recorded["config"]["consumer_session_timeout_ms"], SESSION_MS)
        steps = recorded["requests"]
        beats = [s for s in steps if "consumer_heartbeat" in s]
        self.assertTrue(beats, "the heartbeats were recorded")
        self.assertTrue(all("consumer_heartbeat" in s or "tick" in s for s in steps), steps[:3])
        self.assertTrue(all("expect" in s for s in beats), "every heartbeat has its answer")
        run = subprocess.run([GROUPSCOPE, "run", self.broker.record], capture_output=True)
        self.assertEqual(run.returncode, 0, run.stderr.decode())
        with open(self.broker.trace, "rb") as f:
            trace = f.read()
        self.assertEqual(run.stdout, trace, "groupscope run FILE prints the recorded trace byte for byte")
        check = subprocess.run([GROUPSCOPE, "check", self.broker.record], capture_output=True, text=True)
        self.assertEqual(check.returncode, 0, check.stdout + check.stderr)
        return recorded

    def start(self, instance):
        c = ConsumerProcess(self.bootstrap, self.group, instance, protocol="consumer")
        self.consumers.append(c)
        return c

    def all_assigned(self, *consumers):
        """Waits until the consumers' latest assignments split every partition."""
        everything = [f"{TOPIC}-{p}" for p in range(PARTITIONS)]
        deadline = time.time() + 30
        while time.time() < deadline:
            latest = [c.assignment() for c in consumers]
            if all(latest):
                parts = sorted(p for a in latest for p in a["partitions"])
                if parts == everything:
                    return latest
            time.sleep(0.1)
        raise AssertionError(f"the partitions were not split: {[c.assignment() for c in consumers]}")

    def test_static_restart_keeps_its_partitions_without_a_rebalance(self):
        a = self.start("w1")
        b = self.start("w2")
        before_a, before_b = self.all_assigned(a, b)
        b_events = len(b.events)
        a.close()
        # Back within the session: a new process, a new member id (KIP-1082),
        # the partitions w1 held, and nothing revoked from w2.
        a2 = self.start("w1")
        after = a2.wait_for(lambda e: e.get("event") == "assigned" and e["partitions"], 30, "assignment")
        self.assertEqual(after["partitions"], before_a["partitions"])
        self.assertNotEqual(after["member_id"], before_a["member_id"])
        time.sleep(2 * HEARTBEAT_MS / 1000)
        b.pump()
        moved = [e for e in b.events[b_events:] if e.get("event") in ("revoked", "assigned")]
        self.assertEqual(moved, [], "w2's partitions did not move")
        self.assertEqual(b.assignment()["partitions"], before_b["partitions"])

    def test_a_second_process_with_an_instance_id_in_use_is_refused(self):
        a = self.start("w1")
        self.all_assigned(a)
        dup = self.start("w1")
        # librdkafka raises the broker's error as its _FATAL error.
        fatal = lambda e: e.get("event") == "error" and (e.get("fatal") or e.get("name") == "_FATAL")
        refused = dup.wait_for(fatal, 30, "fatal error")
        self.assertIn("instance ID is still used", refused["text"])
        self.assertIsNone(dup.assignment())
        # The first process carries on with every partition.
        time.sleep(2 * HEARTBEAT_MS / 1000)
        a.pump()
        self.assertFalse([e for e in a.events if fatal(e)])
        self.assertEqual(len(a.assignment()["partitions"]), PARTITIONS)

    def test_live_stream_of_a_consumer_group_rebuilds_the_recording(self):
        """The live stream of a consumer group: hello, then each heartbeat
        as a step with its answer; hello plus the steps is the record file,
        and a restarted static member's steps name it by its instance id."""
        if not self.broker:
            self.skipTest("the live stream is GroupScope's")
        stream = LiveStream(self.broker.ws_port)
        hello = stream.message()
        self.assertEqual(hello["scenario"]["requests"], [])
        a = self.start("w1")
        self.all_assigned(a)
        a.close()
        a2 = self.start("w1")
        a2.wait_for(lambda e: e.get("event") == "assigned" and e["partitions"], 30, "assignment")
        for c in self.consumers:
            c.close()
            c.release()
        self.consumers = []
        time.sleep(0.5)
        self.broker.stop()
        steps = []
        while True:
            try:
                m = stream.message()
            except (EOFError, OSError):
                break
            if m["kind"] == "step":
                steps.append(m["step"])
        stream.close()
        recorded = self.assert_replays()
        self.assertEqual(steps, recorded["requests"], "hello + steps = the record file")
        beats = [s["consumer_heartbeat"] for s in steps if "consumer_heartbeat" in s]
        binds = [b["bind"] for b in beats if "bind" in b]
        self.assertEqual(binds[:2], ["w1", "w1#2"], "one name per process of the instance")
        self.assertIn(-2, [b["member_epoch"] for b in beats], "the close left with epoch -2")


if __name__ == "__main__":
    unittest.main()
