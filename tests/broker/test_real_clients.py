"""Real clients against `groupscope broker` (issue 14, "Tests"): librdkafka
consumers (confluent-kafka, pinned in scripts/setup; each in its own
process, tests/broker/consumer.py) with group.instance.id, the range
assignor and session.timeout.ms 10000, kcat, and a raw socket, all on
127.0.0.1. Each test starts its own broker on a free port with --record
into a temporary directory, and ends by checking the recording: the
broker is stopped (SIGTERM), `groupscope run FILE` must print the recorded
trace byte for byte and `groupscope check FILE` must exit 0.

With BOOTSTRAP=HOST:PORT the same client checks run against that broker
instead (a real Kafka, e.g. `scripts/kafka start 3.9` at 127.0.0.1:19092,
whose group.min.session.timeout.ms must allow 10 s); the checks that only
GroupScope can make (its recording and trace) are skipped.

    .cache/venv/bin/python -m unittest discover -s tests/broker -v
"""

import json
import os
import queue
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import uuid

from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient, NewTopic

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
GROUPSCOPE = os.environ.get(
    "GROUPSCOPE",
    os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(REPO, "target")), "release", "groupscope"),
)
EXTERNAL = os.environ.get("BOOTSTRAP")
IN_CI = os.environ.get("CI") == "true"
SESSION_MS = 10000
TOPIC = "orders"
PARTITIONS = 3


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Broker:
    """`groupscope broker` on free ports, recording into a temp dir."""

    def __init__(self, test_name, extra_args=()):
        self.dir = tempfile.mkdtemp(prefix=f"groupscope-broker-{test_name}-")
        self.record = os.path.join(self.dir, "session.json")
        self.trace = os.path.join(self.dir, "session.trace.ndjson")
        self.port = free_port()
        self.ws_port = free_port()
        self.log_path = os.path.join(self.dir, "broker.log")
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen(
            [GROUPSCOPE, "broker", "--port", str(self.port), "--ws-port", str(self.ws_port),
             "--topic", f"{TOPIC}:{PARTITIONS}", "--initial-rebalance-delay-ms", "300",
             "--record", self.record, *extra_args],
            stdout=self.log, stderr=subprocess.STDOUT,
        )
        self.bootstrap = f"127.0.0.1:{self.port}"
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"the broker did not start: {self.log_text()}")

    def log_text(self):
        if not self.log.closed:
            self.log.flush()
        with open(self.log_path) as f:
            return f.read()

    def alive(self):
        return self.proc.poll() is None

    def stop(self):
        if self.alive():
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()

    def trace_lines(self):
        with open(self.trace) as f:
            return [json.loads(line) for line in f if line.strip()]

    def scenario(self):
        with open(self.record) as f:
            return json.load(f)


class ConsumerProcess:
    """tests/broker/consumer.py in a process; its JSON lines in a queue."""

    # With GROUPSCOPE_CLIENT_LOGS=DIR, each process logs librdkafka's
    # debug=cgrp lines to DIR/client-NAME-N.log (tests/logs/story.py).
    started = 0

    def __init__(self, bootstrap, group, instance, protocol="classic"):
        self.instance = instance
        logs = os.environ.get("GROUPSCOPE_CLIENT_LOGS")
        stderr = subprocess.DEVNULL
        if logs:
            ConsumerProcess.started += 1
            name = f"client-{instance or 'dynamic'}-{ConsumerProcess.started}.log"
            stderr = open(os.path.join(logs, name), "w")
        command = [sys.executable, os.path.join(HERE, "consumer.py"), bootstrap, group,
                   instance or "-", TOPIC, str(SESSION_MS), protocol]
        if os.environ.get("GROUPSCOPE_CLIENT") == "java":
            # The Java twin (tests/logs/java/), on the broker's own jars
            # (GROUPSCOPE_KAFKA_LIBS: kafka-clients, slf4j, reload4j).
            java = os.path.join(HERE, "..", "logs", "java")
            command = ["java", "-cp", os.path.join(os.environ["GROUPSCOPE_KAFKA_LIBS"], "*"),
                       "-Dlog4j.configuration=file:" + os.path.join(java, "client-log4j.properties"),
                       os.path.join(java, "JavaConsumer.java"), bootstrap, group, instance or "-",
                       TOPIC, str(SESSION_MS)]
        self.proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, text=True,
        )
        self.events = []
        self.queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            try:
                self.queue.put(json.loads(line))
            except ValueError:
                pass

    def pump(self):
        while True:
            try:
                self.events.append(self.queue.get_nowait())
            except queue.Empty:
                return

    def wait_for(self, predicate, timeout, what):
        deadline = time.time() + timeout
        while True:
            self.pump()
            for e in self.events:
                if predicate(e):
                    return e
            if time.time() > deadline:
                raise AssertionError(f"{self.instance}: no {what} within {timeout} s; events: {self.events[-10:]}")
            time.sleep(0.05)

    def assignment(self):
        self.pump()
        assigned = [e for e in self.events if e.get("event") == "assigned"]
        return assigned[-1] if assigned else None

    def consumed(self):
        self.pump()
        counts = [e["n"] for e in self.events if e.get("event") == "consumed"]
        return counts[-1] if counts else 0

    def close(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write("close\n")
                self.proc.stdin.flush()
            except BrokenPipeError:
                pass
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.pump()

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.release()

    def release(self):
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                f.close()
            except OSError:
                pass


class LiveStream:
    """A minimal WebSocket client (RFC 6455) for the broker's live stream:
    server frames are text, unmasked; enough to read the contract of
    src/broker/ws.rs."""

    def __init__(self, port):
        import base64

        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
             f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode()
        )
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            self.buf += self.sock.recv(4096)
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 101"), head

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise EOFError("the stream closed")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def message(self):
        b0, b1 = self._read(2)
        n = b1 & 0x7F
        if n == 126:
            n = struct.unpack(">H", self._read(2))[0]
        elif n == 127:
            n = struct.unpack(">Q", self._read(8))[0]
        payload = self._read(n)
        if b0 & 0x0F == 1:
            return json.loads(payload)
        return self.message()

    def close(self):
        self.sock.close()


class RealClientTest(unittest.TestCase):
    maxDiff = None
    def setUp(self):
        self.consumers = []
        self.group = f"g-{self._testMethodName}-{uuid.uuid4().hex[:6]}"
        if EXTERNAL:
            self.broker = None
            self.bootstrap = EXTERNAL
            admin = AdminClient({"bootstrap.servers": EXTERNAL})
            self.topic_name = TOPIC
            futures = admin.create_topics([NewTopic(TOPIC, PARTITIONS, 1)])
            for f in futures.values():
                try:
                    f.result(20)
                except Exception:
                    pass  # already there
        else:
            self.broker = Broker(self._testMethodName)
            self.bootstrap = self.broker.bootstrap
        self.admin = AdminClient({"bootstrap.servers": self.bootstrap})

    def tearDown(self):
        for c in self.consumers:
            if c.proc.poll() is None:
                c.kill()
            c.release()
        if self.broker:
            self.broker.stop()
            if not self._outcome_ok():
                print(f"\nbroker log ({self.broker.log_path}):\n{self.broker.log_text()[-3000:]}")
            shutil.rmtree(self.broker.dir, ignore_errors=True) if self._outcome_ok() else None

    def _outcome_ok(self):
        result = getattr(self, "_outcome", None)
        if result is None:
            return True
        errors = getattr(result, "errors", None)
        if errors is None:  # Python 3.11+: the result object holds them
            res = getattr(result, "result", None)
            errs = list(getattr(res, "errors", [])) + list(getattr(res, "failures", []))
            return not any(t is self for t, _ in errs)
        return not any(e for _, e in errors)

    # ---- helpers -------------------------------------------------------------

    def start(self, instance):
        c = ConsumerProcess(self.bootstrap, self.group, instance)
        self.consumers.append(c)
        return c

    def produce(self, n):
        p = Producer({"bootstrap.servers": self.bootstrap, "log.connection.close": False})
        for i in range(n):
            p.produce(TOPIC, key=str(i), value=f"record-{i}", partition=i % PARTITIONS)
        self.assertEqual(p.flush(20), 0, "every record delivered")
        del p  # destroyed now, not when the broker is gone

    def describe(self):
        f = self.admin.describe_consumer_groups([self.group], request_timeout=10)
        return f[self.group].result(15)

    def members(self):
        """instance id (or member id) → (member id, sorted partitions)."""
        d = self.describe()
        out = {}
        for m in d.members:
            parts = sorted(f"{tp.topic}-{tp.partition}" for tp in (m.assignment.topic_partitions if m.assignment else []))
            out[m.group_instance_id or m.member_id] = (m.member_id, parts)
        return d, out

    def wait_stable(self, count, timeout=40):
        deadline = time.time() + timeout
        while True:
            d, members = self.members()
            if d.state.name == "STABLE" and len(members) == count and all(p for _, p in members.values()):
                return members
            if time.time() > deadline:
                raise AssertionError(f"not Stable with {count} members within {timeout} s: {d.state} {members}")
            time.sleep(0.3)

    def groups_lines(self):
        """The recorded trace's group lines (flushed every 200 ms)."""
        time.sleep(0.5)
        return [l for l in self.broker.trace_lines() if l["type"] == "group"]

    def assert_replays(self):
        """Stops the broker; the recording replays to the same trace."""
        if not self.broker:
            return
        for c in self.consumers:
            if c.proc.poll() is None:
                c.kill()
        self.broker.stop()
        self.assertEqual(self.broker.scenario()["config"]["group_id"], self.group)
        run = subprocess.run([GROUPSCOPE, "run", self.broker.record], capture_output=True)
        self.assertEqual(run.returncode, 0, run.stderr.decode())
        with open(self.broker.trace, "rb") as f:
            recorded = f.read()
        self.assertTrue(recorded, "a trace was recorded")
        self.assertEqual(run.stdout, recorded, "groupscope run FILE prints the recorded trace byte for byte")
        check = subprocess.run([GROUPSCOPE, "check", self.broker.record], capture_output=True, text=True)
        self.assertEqual(check.returncode, 0, check.stdout + check.stderr)

    # ---- the cases of issue 14 ----------------------------------------------------

    def test_static_restart_keeps_generation(self):
        """Three static consumers join and consume; one is closed and
        restarted within the session timeout: same generation, a new
        member id, the same partitions."""
        self.produce(30)
        a, b, c = self.start("a"), self.start("b"), self.start("c")
        for x in (a, b, c):
            x.wait_for(lambda e: e.get("event") == "assigned" and e["partitions"], 40, "assignment")
        members = self.wait_stable(3)
        self.assertEqual(sorted(p for _, ps in members.values() for p in ps),
                         [f"{TOPIC}-{i}" for i in range(PARTITIONS)])
        deadline = time.time() + 30
        while sum(x.consumed() for x in (a, b, c)) < 30:
            self.assertLess(time.time(), deadline, "the three consumers consume the 30 records")
            time.sleep(0.1)
        old_member, old_parts = members["b"]
        if self.broker:
            before = self.groups_lines()[-1]
            self.assertEqual(before["state"], "Stable")
            generation = before["generation_id"]
            lines_before = len(self.broker.trace_lines())
        b.close()
        self.assertTrue(any(e.get("event") == "closed" for e in b.events))
        b2 = self.start("b")
        b2.wait_for(lambda e: e.get("event") == "assigned" and e["partitions"], 30, "assignment after the restart")
        members = self.wait_stable(3)
        new_member, new_parts = members["b"]
        self.assertNotEqual(new_member, old_member, "a new member id")
        self.assertEqual(new_parts, old_parts, "the same partitions")
        self.assertEqual(b2.assignment()["partitions"], old_parts)
        if self.broker:
            time.sleep(0.5)  # the files are written every 200 ms
            lines = self.broker.trace_lines()[lines_before:]
            groups = [l for l in lines if l["type"] == "group"]
            self.assertTrue(groups)
            self.assertEqual({g["generation_id"] for g in groups}, {generation}, "same generation throughout the restart")
            self.assertNotIn("PreparingRebalance", {g["state"] for g in groups})
            self.assertEqual(groups[-1]["static_members"]["b"], new_member)
        self.assert_replays()

    def test_second_process_fences_the_first(self):
        """A second process with an instance id in use: the older one gets
        FENCED_INSTANCE_ID, a fatal error in librdkafka."""
        x1 = self.start("x")
        x1.wait_for(lambda e: e.get("event") == "assigned" and e["partitions"], 40, "assignment")
        self.wait_stable(1)
        x2 = self.start("x")
        x2.wait_for(lambda e: e.get("event") == "assigned" and e["partitions"], 30, "assignment of the second process")
        # librdkafka raises it as its _FATAL error (-150) to error_cb.
        fenced = x1.wait_for(
            lambda e: e.get("event") == "error" and (e.get("fatal") or e.get("name") == "_FATAL"), 20, "a fatal error"
        )
        self.assertIn("FENCED", json.dumps(fenced).upper())
        members = self.wait_stable(1)
        self.assertEqual(members["x"][1], [f"{TOPIC}-{i}" for i in range(PARTITIONS)])
        if self.broker:
            time.sleep(0.5)
            errors = [l["error"] for l in self.broker.trace_lines() if l["type"] == "response"]
            self.assertIn("FENCED_INSTANCE_ID", errors)
        self.assert_replays()

    def test_dynamic_restart_rebalances(self):
        """A dynamic consumer restarting: a rebalance (the generation moves)."""
        d1, d2 = self.start(None), self.start(None)
        for x in (d1, d2):
            x.wait_for(lambda e: e.get("event") == "assigned" and e["partitions"], 40, "assignment")
        members = self.wait_stable(2)
        if self.broker:
            generation = self.groups_lines()[-1]["generation_id"]
        d1.close()
        d1b = self.start(None)
        d1b.wait_for(lambda e: e.get("event") == "assigned" and e["partitions"], 40, "assignment after the restart")
        after = self.wait_stable(2)
        self.assertNotEqual(set(after), set(members), "a new dynamic member id")
        if self.broker:
            self.assertGreater(self.groups_lines()[-1]["generation_id"], generation, "a rebalance")
        self.assert_replays()

    def test_killed_static_member_expires(self):
        """A static consumer killed and not restarted is removed after its
        session timeout (librdkafka's close of a static member sends no
        LeaveGroup; SIGKILL sends nothing at all)."""
        k1, k2 = self.start("k1"), self.start("k2")
        for x in (k1, k2):
            x.wait_for(lambda e: e.get("event") == "assigned" and e["partitions"], 40, "assignment")
        self.wait_stable(2)
        k2.kill()
        killed_at = time.time()
        time.sleep(2)
        self.assertIn("k2", self.members()[1], "still a member before its session timeout")
        deadline = killed_at + SESSION_MS / 1000 + 20
        while "k2" in self.members()[1]:
            self.assertLess(time.time(), deadline, "k2 removed after its session timeout")
            time.sleep(0.3)
        self.assertGreaterEqual(time.time() - killed_at, SESSION_MS / 1000 - 3.5)
        members = self.wait_stable(1)
        self.assertEqual(members["k1"][1], [f"{TOPIC}-{i}" for i in range(PARTITIONS)])
        if self.broker:
            time.sleep(0.5)
            causes = [l.get("cause") for l in self.broker.trace_lines()
                      if l["type"] == "event" and l.get("group_instance_id") == "k2" and "cause" in l]
            self.assertTrue(causes, "a removal of k2 in the trace")
        self.assert_replays()

    def test_live_stream_matches_the_recording(self):
        """The WebSocket stream (src/broker/ws.rs): hello with the scenario
        so far, then steps, late answers, topics and the clock; hello plus
        what follows rebuilds the record file's requests exactly."""
        if not self.broker:
            self.skipTest("the live stream is GroupScope's")
        early = LiveStream(self.broker.ws_port)
        hello = early.message()
        self.assertEqual(hello["kind"], "hello")
        self.assertEqual(hello["scenario"]["requests"], [])
        self.assertEqual(hello["scenario"]["topics"], [{"name": TOPIC, "partitions": PARTITIONS}])
        self.assertIsInstance(hello["now_ms"], int)
        s1, s2 = self.start("s1"), self.start("s2")
        for x in (s1, s2):
            x.wait_for(lambda e: e.get("event") == "assigned" and e["partitions"], 40, "assignment")
        self.wait_stable(2)
        # A topic created by a client's Metadata (auto-create) is announced.
        p = Producer({"bootstrap.servers": self.bootstrap, "log.connection.close": False})
        p.produce("auto-created", value=b"x")
        self.assertEqual(p.flush(20), 0)
        del p
        # A second browser connecting late gets everything so far in its hello.
        late = LiveStream(self.broker.ws_port)
        late_hello = late.message()
        late.close()
        s1.close()
        s2.close()
        time.sleep(0.5)
        self.broker.stop()
        requests = list(hello["scenario"]["requests"])
        kinds = set()
        clock = []
        while True:
            try:
                m = early.message()
            except (EOFError, OSError):
                break
            kinds.add(m["kind"])
            if m["kind"] == "step":
                requests.append(m["step"])
            elif m["kind"] == "expect":
                requests[m["index"]]["expect"] = m["expect"]
            elif m["kind"] == "clock":
                clock.append(m["now_ms"])
            elif m["kind"] == "topics":
                topics = m["topics"]
        early.close()
        self.assertTrue({"step", "clock", "topics", "log_end"} <= kinds, kinds)
        self.assertEqual(clock, sorted(clock))
        self.assertIn({"name": "auto-created", "partitions": 1}, topics)
        recorded = self.broker.scenario()
        self.assertEqual(requests, recorded["requests"], "hello + steps + expects = the record file")
        self.assertEqual(late_hello["scenario"]["requests"], recorded["requests"][: len(late_hello["scenario"]["requests"])])
        self.assertTrue(any("join" in r for r in requests))
        self.assert_replays()

    def test_kcat_lists_topics(self):
        """`kcat -L` lists the topics."""
        kcat = shutil.which("kcat") or shutil.which("kafkacat")
        if not kcat:
            if IN_CI:
                self.fail("kcat is not installed (scripts/setup installs it; CI=true requires it)")
            self.skipTest("kcat is not installed (scripts/setup installs it)")
        out = subprocess.run([kcat, "-L", "-b", self.bootstrap, "-m", "10"], capture_output=True, text=True, timeout=30)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn(f'topic "{TOPIC}" with {PARTITIONS} partitions', out.stdout)
        if self.broker:
            self.assertIn("broker 1 at " + self.bootstrap, out.stdout)

    def test_garbage_frames_close_only_that_connection(self):
        """Malformed and oversize frames (and an unknown API, an unsupported
        version) close that connection only; a consumer keeps heartbeating."""
        host, port = self.bootstrap.rsplit(":", 1)
        c = self.start("g")
        c.wait_for(lambda e: e.get("event") == "assigned" and e["partitions"], 40, "assignment")
        members = self.wait_stable(1)

        def closed_after(payload):
            s = socket.create_connection((host, int(port)), timeout=5)
            try:
                s.sendall(payload)
                data = s.recv(1 << 16)
                return data
            except (ConnectionResetError, socket.timeout):
                return b""
            finally:
                s.close()

        def header(api, version, correlation=7, client=b"raw"):
            return struct.pack(">hhih", api, version, correlation, len(client)) + client

        frames = {
            "garbage": struct.pack(">i", 16) + os.urandom(4) + b"\xff" * 12,
            "oversize": struct.pack(">i", 200 * 1024 * 1024) + b"\x00" * 64,
            "negative size": struct.pack(">i", -5),
            "unknown api": struct.pack(">i", 10) + header(999, 0)[:10],
            "unsupported version": struct.pack(">i", 10) + header(3, 99)[:10],
            "truncated JoinGroup": struct.pack(">i", 13 + 4) + header(11, 5) + b"\x00\x05ab",
            # A few bytes claiming 2^31 - 1 topics: the codec pre-allocates
            # for them (src/bin/groupscope/alloc.rs keeps that from aborting).
            "huge array count": struct.pack(">i", 13 + 7) + header(3, 1) + struct.pack(">i", 0x7FFFFFFF) + b"\x00\x01a",
            "huge compact array count": struct.pack(">i", 14 + 5) + header(3, 9) + b"\x00" + b"\xff\xff\xff\xff\x0f",
        }
        for name, payload in frames.items():
            self.assertEqual(closed_after(payload), b"", f"{name}: the connection is closed without an answer")
        # ApiVersions above ours, its header without the tagged fields that
        # v3+ headers have: closed, as Kafka does.
        body = header(18, 99, correlation=42)
        self.assertEqual(closed_after(struct.pack(">i", len(body)) + body), b"")
        # With them: UNSUPPORTED_VERSION and a v0 body listing the ApiVersions
        # range only, as Kafka 3.9 answers (KIP-511).
        body = header(18, 99, correlation=42) + b"\x00"
        answer = closed_after(struct.pack(">i", len(body)) + body)
        size, correlation, error, count, key, low = struct.unpack(">iihihh", answer[:18])
        self.assertEqual((size, correlation, error, count, key, low), (len(answer) - 4, 42, 35, 1, 18, 0))
        if not self.broker:
            # Kafka: the same closes and answer; the consumer stays.
            time.sleep(4)
            self.assertEqual(self.wait_stable(1), members)
            return
        self.assertTrue(self.broker.alive())
        log = self.broker.log_text()
        self.assertIn("closing the connection", log)
        self.assertIn("frame size", log)
        # The consumer still heartbeats: well past a heartbeat interval,
        # the same member, Stable, heartbeats answered NONE.
        mark = len(self.broker.trace_lines())
        time.sleep(4)
        self.assertEqual(self.wait_stable(1), members)
        later = [l for l in self.broker.trace_lines()[mark:] if l["type"] == "response" and l["api"] == "Heartbeat"]
        self.assertTrue(later and all(l["error"] == "NONE" for l in later), later)
        self.assert_replays()


if __name__ == "__main__":
    unittest.main()
