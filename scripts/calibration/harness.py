#!/usr/bin/env python3
"""Runs a simulation scenario's rolling-restart story against a real Kafka
broker with real consumers (librdkafka through confluent-kafka), and computes
the metrics GroupScope's summary reports, with the simulator's definitions
(src/sim/metrics.rs, spec/scenario-format.md "The trace").

    harness.py run SCENARIO --runs K --out DIR [--bootstrap HOST:PORT] [--broker-log FILE]
                   [--client-debug CONTEXTS]   # librdkafka's debug log beside each consumer's events
    harness.py metrics EVENTS.ndjson        # the figures of one recorded run
    harness.py self-test                    # the metrics on hand-made event logs

The scenario file is the one `groupscope summary` reads: its consumers
(group_instance_id, session_timeout_ms, heartbeat_interval_ms,
rebalance_timeout_ms, processing_ms, client_id), its topics and its actions
(start, restart with down_ms, end) are carried out in real time, scenario
millisecond = real millisecond. Each consumer is its own process with its own
client; a restart closes the client (a static member sends no LeaveGroup, a
dynamic one does) and creates a new one after down_ms. Each `poll()` batch
is "processed" by sleeping a time drawn uniformly from processing_ms; a close
due during a batch ends it (the simulator closes at once, too).

A partition is *held* from the assign callback that gives it to a running
consumer until the revoke callback that takes it away or the close of that
consumer (the simulator: from the assignment, after the committed offsets
are fetched, until the revocation at a poll or the stop). The first record
of each assigned partition is logged too, to show how far behind the
callback real consumption starts. Rebalances are read from the broker's log
("Preparing to rebalance group G"), one per entry into PreparingRebalance,
as the simulator counts them.

A story whose consumers speak the consumer protocol (KIP-848: "group_protocol":
"consumer", at the top level or on every consumer) is played by librdkafka
consumers with group.protocol=consumer, which refuse session.timeout.ms,
heartbeat.interval.ms and partition.assignment.strategy (the group's config
decides; the broker must run with the story's consumer_* config, which the
harness checks in the broker's log). Their rebalance callbacks are
incremental (on_assign gives the partitions added, on_revoke those taken
away); the holding rules above work on those as they are. A close sends the
leave heartbeat: epoch -2 for a static member (it stays in the group, away,
with its partitions), -1 for a dynamic one. Rebalances and moves follow the
simulator's definitions for a consumer group: from the broker's target
assignments ("Computed a new target assignment for epoch N", whose members
and partitions the broker logs with GroupMetadataManager at DEBUG), a
rebalance is a target that gives some partition to another consumer than
the last one did, a move is each such partition; member ids are mapped to
consumers by the ids the consumers report (librdkafka makes its own).
The moves the consumers saw through their callbacks are kept too
(assigned_moves).

Before a story's first run one consumer joins a group of its own and leaves
(warm_up): a fresh broker creates its offsets topic at the first
FindCoordinator, which would otherwise delay the first consumer of the first
run and reorder its joins.
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys
import time
import uuid

BATCH_RECORDS = 10  # records per poll() (max.poll.records-like; the data never runs out)
RECORDS_PER_PARTITION = 4000


def now_ms():
    return time.time() * 1000.0


# ---------------------------------------------------------------------------
# The scenario: what the harness understands of the scenario format.
# ---------------------------------------------------------------------------


def load_story(path):
    with open(path) as f:
        sc = json.load(f)
    if "actions" not in sc:
        sys.exit(f"{path}: not a simulation scenario (no actions)")
    cfg = sc.get("config", {})
    consumers = {}
    protocols = set()
    for c in sc["consumers"]:
        unknown = set(c) - {
            "name",
            "group_instance_id",
            "session_timeout_ms",
            "heartbeat_interval_ms",
            "rebalance_timeout_ms",
            "processing_ms",
            "client_id",
            "assignors",
            "version",
            "group_protocol",
        }
        if unknown:
            sys.exit(f"{path}: consumer {c['name']}: the harness cannot play {sorted(unknown)}")
        proto = c.get("group_protocol", sc.get("group_protocol", "classic"))
        protocols.add(proto)
        if proto == "consumer":
            # The group's config decides (librdkafka refuses these settings).
            for key in ("session_timeout_ms", "heartbeat_interval_ms", "assignors", "version"):
                if key in c:
                    sys.exit(f"{path}: consumer {c['name']}: {key} is not played under the consumer protocol")
        else:
            if c.get("version", 5) != 5:
                sys.exit(f"{path}: consumer {c['name']}: librdkafka sends JoinGroup v5; the story must say version 5")
            if c.get("assignors", ["range"]) != ["range"]:
                sys.exit(f"{path}: consumer {c['name']}: only the range assignor (eager) is played")
        p = c.get("processing_ms", 0)
        lo, hi = (p, p) if isinstance(p, int) else (p["min"], p["max"])
        consumers[c["name"]] = {
            "name": c["name"],
            "instance_id": c.get("group_instance_id"),
            "client_id": c.get("client_id", c["name"]),
            "session_timeout_ms": c.get("session_timeout_ms", cfg.get("session_timeout_ms", 45000)),
            "heartbeat_interval_ms": c.get("heartbeat_interval_ms", 3000),
            "rebalance_timeout_ms": c.get(
                "rebalance_timeout_ms", cfg.get("rebalance_timeout_ms", 300000)
            ),
            "processing": [lo, hi],
            "protocol": proto,
            "schedule": [],
        }
    end_ms = None
    for a in sc["actions"]:
        t = a["at_ms"]
        if "start" in a:
            consumers[a["start"]]["schedule"].append([t, "start"])
        elif "restart" in a:
            consumers[a["restart"]]["schedule"].append([t, "close"])
            consumers[a["restart"]]["schedule"].append([t + a["down_ms"], "start"])
        elif "end" in a:
            end_ms = t
        else:
            sys.exit(f"{path}: the harness plays start, restart and end actions only: {a}")
    if end_ms is None:
        sys.exit(f"{path}: the story needs an end action")
    if len(sc["topics"]) != 1:
        sys.exit(f"{path}: one topic only")
    if len(protocols) != 1:
        sys.exit(f"{path}: the consumers must all speak one group protocol, not {sorted(protocols)}")
    protocol = protocols.pop()
    group_config = {}
    if protocol == "consumer":
        # The broker-wide settings the run needs (scripts/calibrate --protocol
        # consumer starts the broker with them; run_once checks its log).
        group_config = {
            "group.consumer.session.timeout.ms": cfg.get("consumer_session_timeout_ms", 45000),
            "group.consumer.heartbeat.interval.ms": cfg.get("consumer_heartbeat_interval_ms", 5000),
            "group.consumer.assignors": cfg.get("consumer_assignors", ["uniform", "range"]),
            "group.consumer.assignment.interval.ms": 0,
            "group.consumer.assignor.offload.enable": False,
        }
    return {
        "name": sc["name"],
        "protocol": protocol,
        "group_config": group_config,
        "partitions": sc["topics"][0]["partitions"],
        "consumers": list(consumers.values()),
        "end_ms": end_ms,
        "seed": sc.get("seed", 0),
    }


# ---------------------------------------------------------------------------
# One consumer process.
# ---------------------------------------------------------------------------


def worker(plan):
    from confluent_kafka import Consumer

    c = plan["consumer"]
    t0 = plan["t0"]
    rng = random.Random(plan["seed"])
    log = open(plan["out"], "w")

    def emit(ev, **kw):
        log.write(json.dumps({"t": now_ms() - t0, "consumer": c["name"], "ev": ev, **kw}) + "\n")
        log.flush()

    if plan.get("debug"):
        # librdkafka writes its debug lines to stderr itself, from its own
        # threads, stamped when they happen ("%7|<epoch s.ms>|..."); a Python
        # logger would only see them when consume() serves its queue.
        fd = os.open(plan["out"] + ".debug.log", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(fd, 2)
        os.close(fd)

    schedule = sorted(c["schedule"])
    end_at = t0 + plan["end_ms"]
    consumer = None
    unseen = set()  # assigned partitions whose first record has not come yet

    def on_assign(cons, parts):
        ps = sorted(p.partition for p in parts)
        unseen.update(ps)
        emit("assigned", partitions=ps)

    def on_revoke(cons, parts):
        ps = sorted(p.partition for p in parts)
        unseen.difference_update(ps)
        emit("revoked", partitions=ps)

    def on_lost(cons, parts):
        ps = sorted(p.partition for p in parts)
        unseen.difference_update(ps)
        emit("lost", partitions=ps)

    def start():
        conf = {
            "bootstrap.servers": plan["bootstrap"],
            "group.id": plan["group"],
            "client.id": c["client_id"],
            "max.poll.interval.ms": c["rebalance_timeout_ms"],
            "auto.offset.reset": "earliest",
            "enable.auto.commit": True,
            "enable.partition.eof": False,
        }
        if c.get("protocol", "classic") == "consumer":
            # KIP-848: the group's config decides the session and the
            # heartbeat interval, the broker's assignor the assignment;
            # librdkafka refuses the three classic settings.
            conf["group.protocol"] = "consumer"
        else:
            conf["session.timeout.ms"] = c["session_timeout_ms"]
            conf["heartbeat.interval.ms"] = c["heartbeat_interval_ms"]
            conf["partition.assignment.strategy"] = "range"
        if c["instance_id"]:
            conf["group.instance.id"] = c["instance_id"]
        if plan.get("debug"):
            conf["debug"] = plan["debug"]
            conf["log_level"] = 7
        emit("start")
        cons = Consumer(conf)
        cons.subscribe([plan["topic"]], on_assign=on_assign, on_revoke=on_revoke, on_lost=on_lost)
        note_member(cons)
        return cons

    member_id = [None]

    def note_member(cons):
        """The member id the client uses (librdkafka makes its own under the
        consumer protocol; classic: the coordinator's), when it changes."""
        mid = cons.memberid()
        if mid and mid != member_id[0]:
            member_id[0] = mid
            emit("member", member_id=mid)

    def close(cons):
        emit("close")
        unseen.clear()
        cons.close()
        member_id[0] = None
        emit("closed")

    def next_due():
        return t0 + schedule[0][0] if schedule else end_at

    while True:
        t = now_ms()
        if schedule and t >= t0 + schedule[0][0]:
            _, what = schedule.pop(0)
            if what == "start" and consumer is None:
                consumer = start()
            elif what == "close" and consumer is not None:
                close(consumer)
                consumer = None
            continue
        if t >= end_at:
            break
        if consumer is None:
            time.sleep(max(0.0, min(next_due(), end_at) - t) / 1000.0)
            continue
        wait = max(0.0, min(next_due(), end_at) - t)
        msgs = consumer.consume(num_messages=BATCH_RECORDS, timeout=min(0.1, wait / 1000.0))
        note_member(consumer)
        got = [m for m in msgs if m.error() is None]
        for m in got:
            if m.partition() in unseen:
                unseen.discard(m.partition())
                emit("first_record", partition=m.partition())
        if got:
            lo, hi = c["processing"]
            batch_end = now_ms() + rng.randint(lo, hi)
            # A close due during the batch ends it.
            stop = min(batch_end, next_due(), end_at)
            time.sleep(max(0.0, stop - now_ms()) / 1000.0)
    emit("end")
    if consumer is not None:
        consumer.close()
    log.close()


# ---------------------------------------------------------------------------
# One run: topic, records, consumer processes, the broker's log.
# ---------------------------------------------------------------------------


def prepare_topic(bootstrap, topic, partitions, records=RECORDS_PER_PARTITION):
    from confluent_kafka import Producer
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap})
    fs = admin.create_topics([NewTopic(topic, num_partitions=partitions, replication_factor=1)])
    for f in fs.values():
        f.result(30)
    prod = Producer({"bootstrap.servers": bootstrap, "linger.ms": 20})
    payload = b"x" * 16
    for p in range(partitions):
        for _ in range(records):
            while True:
                try:
                    prod.produce(topic, payload, partition=p)
                    break
                except BufferError:
                    prod.poll(0.05)
    left = prod.flush(60)
    if left:
        sys.exit(f"{left} records not delivered to {topic}")


def warm_up(bootstrap, protocol):
    """One consumer joins a group of its own and leaves before the first
    run: a fresh broker creates its offsets topic and loads its group
    coordinator at the first FindCoordinator, which takes its first caller
    half a second or more (it retries), long enough to reorder the story's
    joins on the first run after a broker start. Once in a broker's life,
    not part of a story."""
    from confluent_kafka import Consumer

    tag = uuid.uuid4().hex[:8]
    topic = f"cal-warm-up-{tag}"
    prepare_topic(bootstrap, topic, 1, records=1)
    conf = {"bootstrap.servers": bootstrap, "group.id": topic, "auto.offset.reset": "earliest"}
    if protocol == "consumer":
        conf["group.protocol"] = "consumer"
    assigned = []
    cons = Consumer(conf)
    cons.subscribe([topic], on_assign=lambda c, parts: assigned.extend(parts))
    deadline = time.time() + 60
    while not assigned and time.time() < deadline:
        cons.poll(0.1)
    cons.close()
    if not assigned:
        sys.exit(f"warm-up: a consumer of {topic} got no partition within 60 s")


def broker_time(line):
    """Epoch ms of a broker log line ("[2026-11-30 21:56:57,029] INFO ...",
    the JVM's local time, which is this process's local time too)."""
    stamp = line[1 : line.index("]")]
    secs = time.mktime(time.strptime(stamp[:19], "%Y-%m-%d %H:%M:%S"))
    return secs * 1000.0 + int(stamp[20:23])


def check_broker_config(story, broker_log):
    """A consumer-protocol story needs the broker to run with its group
    config (and a target computed in the heartbeat that moves the epoch, as
    the simulator does): read the values the broker logged at start-up."""
    if not story["group_config"]:
        return
    if not broker_log or not os.path.exists(broker_log):
        sys.exit("a consumer-protocol story needs --broker-log (the targets are read from it)")
    with open(broker_log, "rb") as f:
        head = f.read(4_000_000).decode("utf-8", "replace")
    for key, want in story["group_config"].items():
        m = re.search(r"^\s*" + re.escape(key) + r" = (.*)$", head, re.M)
        if not m:
            sys.exit(f"{broker_log}: the broker did not log {key}; is it Kafka 4.x?")
        got = m.group(1).strip()
        if isinstance(want, bool):
            want = str(want).lower()
        elif isinstance(want, list):
            want = "[" + ", ".join(want) + "]"
        if got != str(want):
            sys.exit(f"the broker runs with {key} = {got}, the story needs {want} (scripts/calibrate --protocol consumer sets it)")


# The consumer group's lines of a Kafka 4.4 broker log (GroupMetadataManager).
TARGET_RE = re.compile(r"Computed a new target assignment for epoch (\d+) with '([^']*)' assignor in \d+ms(?:: (\{.*\}))?\.")
MEMBER_ASSIGNMENT_RE = re.compile(r"([^\s{},=]+)=MemberAssignment\(partitions=\{(.*?)\}\)")
EPOCH_RE = re.compile(r"Bumped group epoch to (\d+)")


def target_owners(text):
    """A logged target assignment ("{m1=MemberAssignment(partitions={topicId=[0, 1]}), ...}")
    as {member id: [partitions]} (one topic)."""
    out = {}
    for mid, parts in MEMBER_ASSIGNMENT_RE.findall(text):
        out[mid] = sorted(int(x) for x in re.findall(r"\d+", re.sub(r"[^=\[\]]*=", "", parts)))
    return out


def consumer_group_events(line, group, t):
    """The events a consumer group's broker log line stands for."""
    tag = f"[GroupId {group}] "
    if tag not in line:
        return []
    msg = line.split(tag, 1)[1]
    m = TARGET_RE.search(msg)
    if m:
        e = {"t": t, "ev": "broker_target", "epoch": int(m.group(1)), "assignor": m.group(2)}
        if m.group(3) is not None:
            e["assignment"] = target_owners(m.group(3))
        return [e]
    m = EPOCH_RE.search(msg)
    if m:
        return [{"t": t, "ev": "broker_generation", "generation": int(m.group(1))}]
    for key, ev in (
        ("temporarily left the consumer group", "broker_static_leave"),
        ("left the consumer group", "broker_leave"),
        ("re-joins the consumer group", "broker_static_rejoin"),
        ("joins the consumer group", "broker_join"),
        ("fenced from the group", "broker_fenced"),
        ("new assignment state", "broker_member_state"),
    ):
        if key in msg:
            return [{"t": t, "ev": ev, "line": msg.strip()}]
    return []


def run_once(story, bootstrap, out_dir, index, broker_log, client_debug=None):
    tag = uuid.uuid4().hex[:8]
    topic = f"cal-{story['name']}-{tag}"
    group = f"cal-{story['name']}-{tag}"
    prepare_topic(bootstrap, topic, story["partitions"])
    log_start = os.path.getsize(broker_log) if broker_log and os.path.exists(broker_log) else 0
    run_dir = os.path.join(out_dir, f"{story['name']}-run{index}")
    os.makedirs(run_dir, exist_ok=True)
    t0 = now_ms() + 2000  # time for the processes to import the client
    procs = []
    for i, c in enumerate(story["consumers"]):
        plan = {
            "consumer": c,
            "t0": t0,
            "end_ms": story["end_ms"],
            "seed": story["seed"] * 1000 + index * 100 + i,
            "bootstrap": bootstrap,
            "group": group,
            "topic": topic,
            "out": os.path.join(run_dir, f"{c['name']}.ndjson"),
            "debug": client_debug,
        }
        procs.append(subprocess.Popen([sys.executable, __file__, "worker", json.dumps(plan)]))
    failed = [p for p in procs if p.wait() != 0]
    if failed:
        sys.exit(f"{len(failed)} consumer processes failed in {run_dir}")
    time.sleep(0.5)  # the broker's log lines of the end
    events = []
    for c in story["consumers"]:
        with open(os.path.join(run_dir, f"{c['name']}.ndjson")) as f:
            events.extend(json.loads(line) for line in f)
    if broker_log:
        with open(broker_log, "rb") as f:
            f.seek(log_start)
            text = f.read().decode("utf-8", "replace")
        for line in text.splitlines():
            if story["protocol"] == "consumer":
                if f"[GroupId {group}] " in line:
                    events.extend(consumer_group_events(line, group, broker_time(line) - t0))
                continue
            if f"Preparing to rebalance group {group} " in line:
                events.append({"t": broker_time(line) - t0, "ev": "broker_rebalance", "line": line})
            elif f"Stabilized group {group} generation" in line:
                gen = int(line.split(f"Stabilized group {group} generation ")[1].split()[0])
                events.append({"t": broker_time(line) - t0, "ev": "broker_generation", "generation": gen})
    events.sort(key=lambda e: e["t"])
    with open(os.path.join(run_dir, "events.ndjson"), "w") as f:
        f.write(json.dumps({"ev": "story", "partitions": story["partitions"], "end_ms": story["end_ms"],
                            "group": group, "topic": topic, "protocol": story["protocol"]}) + "\n")
        for e in events:
            f.write(json.dumps(e) + "\n")
    return metrics(story["partitions"], story["end_ms"], events)


# ---------------------------------------------------------------------------
# The metrics, with the simulator's definitions.
# ---------------------------------------------------------------------------


def metrics(partitions, end_ms, events):
    """The summary figures of one run's events (times in ms from t0)."""
    holders = [set() for _ in range(partitions)]
    owner = [None] * partitions  # the last assignment's consumer, per partition
    held_by = {}  # consumer -> partitions it holds now
    m = {
        "rebalances": 0,
        "generation_id": 0,
        "partition_moves": 0,
        "partition_unavailable_ms": 0.0,
        "startup_unavailable_ms": 0.0,
        "all_stopped_ms": 0.0,
    }
    started_up = False
    first_record_lag = []
    assigned_at = {}
    starts = {}  # consumer -> how many times it started
    rejoining = {}  # restarted consumer -> when it started again
    restart_join = []
    last_t = 0.0
    # A consumer group (KIP-848): rebalances and moves are the broker's
    # targets', by consumer (each client reports the member id it uses).
    consumer_group = any(e["ev"] == "broker_target" for e in events)
    consumer_of = {e["member_id"]: e["consumer"] for e in events if e["ev"] == "member"}
    target_grid = [None] * partitions
    target_moves = 0
    targets_seen = True  # every target's members and partitions were in the log

    def account(t):
        nonlocal last_t, started_up
        t = min(t, end_ms)
        dt = t - last_t
        if dt <= 0:
            return
        unheld = sum(1 for h in holders if not h)
        if unheld == 0:
            started_up = True
        if not started_up:
            m["startup_unavailable_ms"] += dt * unheld
        elif unheld == partitions:
            m["all_stopped_ms"] += dt
        m["partition_unavailable_ms"] += dt * unheld
        last_t = t

    for e in events:
        if e["t"] > end_ms:
            break  # the story is over (the consumers' own closes come after it)
        if e["ev"] == "broker_rebalance":
            m["rebalances"] += 1
            continue
        if e["ev"] == "broker_generation":
            m["generation_id"] = max(m["generation_id"], e["generation"])
            continue
        if e["ev"] == "broker_target":
            if "assignment" not in e:
                targets_seen = False  # logged at INFO: no members; counted, moves unknown
                m["rebalances"] += 1
                continue
            grid = [None] * partitions
            for mid, ps in e["assignment"].items():
                for p in ps:
                    grid[p] = consumer_of.get(mid, "?" + mid)
            if grid != target_grid:
                m["rebalances"] += 1
                target_moves += sum(1 for old, new in zip(target_grid, grid) if old is not None and new != old)
                target_grid = grid
            continue
        if e["ev"].startswith("broker_") or e["ev"] == "member":
            continue
        account(e["t"])
        who = e.get("consumer")
        mine = held_by.setdefault(who, set()) if who else set()
        if e["ev"] == "start":
            starts[who] = starts.get(who, 0) + 1
            if starts[who] > 1:
                rejoining[who] = e["t"]
        elif e["ev"] == "assigned":
            if who in rejoining:
                restart_join.append(e["t"] - rejoining.pop(who))
            for p in e["partitions"]:
                if owner[p] is not None and owner[p] != who:
                    m["partition_moves"] += 1
                owner[p] = who
                holders[p].add(who)
                mine.add(p)
                assigned_at[(who, p)] = e["t"]
        elif e["ev"] in ("revoked", "lost"):
            for p in e["partitions"]:
                holders[p].discard(who)
                mine.discard(p)
        elif e["ev"] == "close":
            for p in mine:
                holders[p].discard(who)
            mine.clear()
        elif e["ev"] == "first_record":
            t_assign = assigned_at.pop((who, e["partition"]), None)
            if t_assign is not None:
                first_record_lag.append(e["t"] - t_assign)
    account(end_ms)
    if not started_up:
        sys.stderr.write("warning: the group never had every partition consumed at once\n")
    if consumer_group:
        # The simulator's definition: moves between targets. What the
        # consumers' callbacks showed is kept beside it.
        m["assigned_moves"] = m["partition_moves"]
        if targets_seen:
            m["partition_moves"] = target_moves
        else:
            sys.stderr.write("warning: the broker logged targets without their members (GroupMetadataManager at INFO): "
                             "partition_moves counts the callbacks' moves\n")
    out = {k: (round(v) if isinstance(v, float) else v) for k, v in m.items()}
    out["unavailable_after_startup_ms"] = out["partition_unavailable_ms"] - out["startup_unavailable_ms"]
    if first_record_lag:
        out["first_record_lag_ms_median"] = median(first_record_lag)
    if restart_join:
        out["restart_join_ms_median"] = median(restart_join)
    return out


def median(xs):
    xs = sorted(xs)
    return round(xs[len(xs) // 2])


TAKES_RE = re.compile(r"takes (.*?) \(after fetching")


def taken(e):
    """The partitions a simulated consumer-protocol client takes at a
    reconciliation (its `reconciled` event says them in words only)."""
    m = TAKES_RE.search(e.get("text", ""))
    return [int(p.rsplit("-", 1)[1]) for p in m.group(1).split(", ")] if m else []


def sim_client_figures(trace_lines, end_ms):
    """The simulator's counterparts of two figures the real consumers show,
    from the trace's client events: restart_join_ms_median (from a restarted
    consumer's start to its first assignment: classic `assigned`, or a
    consumer-protocol `reconciled` that takes partitions) and, for the
    consumer protocol, assigned_moves (partitions taken by another consumer
    than the last one that took them, as the real callbacks count)."""
    evs = []
    for line in trace_lines:
        e = json.loads(line)
        if e.get("event") != "client" or e.get("at_ms", 0) > end_ms:
            continue
        if e.get("action") in ("start", "assigned"):
            evs.append({"t": e["at_ms"], "consumer": e["consumer"], "ev": e["action"], "partitions": None})
        elif e.get("action") == "reconciled" and taken(e):
            evs.append({"t": e["at_ms"], "consumer": e["consumer"], "ev": "reconciled", "partitions": taken(e)})
    starts, rejoining, joins = {}, {}, []
    owner, moves, consumer_protocol = {}, 0, False
    for e in evs:
        who = e["consumer"]
        if e["ev"] == "start":
            starts[who] = starts.get(who, 0) + 1
            if starts[who] > 1:
                rejoining[who] = e["t"]
            continue
        if who in rejoining:
            joins.append(e["t"] - rejoining.pop(who))
        if e["ev"] == "reconciled":
            consumer_protocol = True
            for p in e["partitions"]:
                if owner.get(p, who) != who:
                    moves += 1
                owner[p] = who
    out = {"restart_join_ms_median": median(joins) if joins else None}
    if consumer_protocol:
        out["assigned_moves"] = moves
    return out


def self_test():
    """Hand-made event logs with known figures."""
    # Two partitions, two consumers; a formed group, then A stops for 1 s
    # (its partition 0 unheld), then an eager rebalance stops both for 0.5 s
    # and moves partition 1 to A.
    ev = [
        {"t": 20, "ev": "broker_rebalance"},
        {"t": 90, "ev": "broker_generation", "generation": 1},
        {"t": 100, "consumer": "A", "ev": "assigned", "partitions": [0]},
        {"t": 300, "consumer": "B", "ev": "assigned", "partitions": [1]},
        {"t": 350, "consumer": "A", "ev": "first_record", "partition": 0},
        {"t": 1000, "consumer": "A", "ev": "close"},
        {"t": 1000, "consumer": "A", "ev": "start"},
        {"t": 1900, "consumer": "A", "ev": "start"},
        {"t": 2000, "consumer": "A", "ev": "assigned", "partitions": [0]},
        {"t": 3000, "consumer": "A", "ev": "revoked", "partitions": [0]},
        {"t": 3200, "consumer": "B", "ev": "revoked", "partitions": [1]},
        {"t": 2950, "ev": "broker_rebalance"},
        {"t": 3690, "ev": "broker_generation", "generation": 2},
        {"t": 3700, "consumer": "A", "ev": "assigned", "partitions": [0, 1]},
        # After the end: not counted.
        {"t": 5100, "ev": "broker_rebalance"},
        {"t": 5200, "consumer": "A", "ev": "close"},
    ]
    got = metrics(2, 5000, ev)
    want = {
        "rebalances": 2,
        "generation_id": 2,
        "partition_moves": 1,
        # startup: 2 x 100 + 1 x 200; then 1000 (A down) + 200 + 2 x 500 + 0
        "partition_unavailable_ms": 400 + 1000 + 200 + 1000,
        "startup_unavailable_ms": 400,
        "all_stopped_ms": 500,
        "unavailable_after_startup_ms": 2200,
        "first_record_lag_ms_median": 250,
        "restart_join_ms_median": 100,
    }
    if got != want:
        sys.exit(f"self-test failed:\n got  {got}\n want {want}")

    # A consumer group (KIP-848), incremental callbacks, 4 partitions. A
    # takes all, B joins: the target gives B 2 and 3; A revokes them at
    # 1000, B gets them at 1500. A static restart of B (-2): B's partitions
    # wait 2000 ms, no target. Then a dynamic member C joins: one target
    # gives C partition 1 and, before A let it go, the next gives it to B
    # instead (C left again): two target moves, while no callback ever gave
    # it to C. Targets are read from the broker's log lines themselves.
    lines = [
        "[2026-12-06 10:00:00,050] INFO [GroupCoordinator id=1 topic=__consumer_offsets partition=0] "
        "[GroupId g] Bumped group epoch to 2 with metadata hash 5. (org.apache.kafka.coordinator.group.GroupMetadataManager)",
        "[2026-12-06 10:00:00,050] DEBUG [GroupCoordinator id=1 topic=__consumer_offsets partition=0] "
        "[GroupId g] Computed a new target assignment for epoch 2 with 'uniform' assignor in 0ms: "
        "{mA=MemberAssignment(partitions={Xy_z-1Q=[0, 1, 2, 3]})}. (org.apache.kafka.coordinator.group.GroupMetadataManager)",
        "[2026-12-06 10:00:00,400] DEBUG [GroupCoordinator id=1 topic=__consumer_offsets partition=0] "
        "[GroupId g] Computed a new target assignment for epoch 3 with 'uniform' assignor in 1ms: "
        "{mA=MemberAssignment(partitions={Xy_z-1Q=[0, 1]}), mB=MemberAssignment(partitions={Xy_z-1Q=[2, 3]})}. (x)",
        "[2026-12-06 10:00:05,000] INFO [GroupCoordinator id=1 topic=__consumer_offsets partition=0] "
        "[GroupId g] Static member mB with instance id b temporarily left the consumer group. (x)",
        "[2026-12-06 10:00:10,000] INFO [GroupId g] Computed a new target assignment for epoch 4 with 'uniform' assignor in 0ms: "
        "{mA=MemberAssignment(partitions={Xy_z-1Q=[0]}), mB2=MemberAssignment(partitions={Xy_z-1Q=[2, 3]}), "
        "mC=MemberAssignment(partitions={Xy_z-1Q=[1]})}. (x)",
        "[2026-12-06 10:00:10,500] INFO [GroupId g] Computed a new target assignment for epoch 5 with 'uniform' assignor in 0ms: "
        "{mA=MemberAssignment(partitions={Xy_z-1Q=[0]}), mB2=MemberAssignment(partitions={Xy_z-1Q=[1, 2, 3]})}. (x)",
        "[2026-12-06 10:00:10,600] INFO [GroupId other] Computed a new target assignment for epoch 9 with 'uniform' assignor in 0ms. (x)",
    ]
    t0 = broker_time(lines[0]) - 50
    ev = [e for line in lines for e in consumer_group_events(line, "g", broker_time(line) - t0)]
    if [e["ev"] for e in ev] != ["broker_generation"] + ["broker_target"] * 2 + ["broker_static_leave"] + ["broker_target"] * 2:
        sys.exit(f"self-test failed: broker lines read as {ev}")
    if ev[2]["assignment"] != {"mA": [0, 1], "mB": [2, 3]}:
        sys.exit(f"self-test failed: a target read as {ev[2]}")
    ev += [
        {"t": 0, "consumer": "A", "ev": "start"},
        {"t": 0, "consumer": "A", "ev": "member", "member_id": "mA"},
        {"t": 60, "consumer": "A", "ev": "assigned", "partitions": [0, 1, 2, 3]},
        {"t": 350, "consumer": "B", "ev": "start"},
        {"t": 350, "consumer": "B", "ev": "member", "member_id": "mB"},
        {"t": 1000, "consumer": "A", "ev": "revoked", "partitions": [2, 3]},
        {"t": 1500, "consumer": "B", "ev": "assigned", "partitions": [2, 3]},
        {"t": 5000, "consumer": "B", "ev": "close"},
        {"t": 7000, "consumer": "B", "ev": "start"},
        {"t": 7000, "consumer": "B", "ev": "member", "member_id": "mB2"},
        {"t": 7100, "consumer": "B", "ev": "assigned", "partitions": [2, 3]},
        {"t": 9990, "consumer": "C", "ev": "start"},
        {"t": 9990, "consumer": "C", "ev": "member", "member_id": "mC"},
        {"t": 10700, "consumer": "A", "ev": "revoked", "partitions": [1]},
        {"t": 10900, "consumer": "B", "ev": "assigned", "partitions": [1]},
    ]
    ev.sort(key=lambda e: e["t"])
    got = metrics(4, 12000, ev)
    want = {
        "rebalances": 4,
        "generation_id": 2,
        "partition_moves": 2 + 1 + 1,  # 2, 3 to B; 1 to C; 1 from C to B
        "assigned_moves": 2 + 1,  # the callbacks: 2, 3 to B; 1 to B
        # startup: 4 x 60; then 2 x 500 (A revoked 2, 3 at 1000, B at 1500),
        # 2 x 2100 (B down), 200 (1 between A and B)
        "partition_unavailable_ms": 240 + 1000 + 4200 + 200,
        "startup_unavailable_ms": 240,
        "all_stopped_ms": 0,
        "unavailable_after_startup_ms": 5400,
        "restart_join_ms_median": 100,
    }
    if got != want:
        sys.exit(f"self-test failed (consumer group):\n got  {got}\n want {want}")
    print("harness self-test: ok")


# ---------------------------------------------------------------------------
# Real runs against the simulator.
# ---------------------------------------------------------------------------

# The figures compared (spec/scenario-format.md, the summary line). Start-up
# is left out: it measures how fast processes start, not the group.
JUDGED = ["rebalances", "partition_moves", "unavailable_after_startup_ms", "all_stopped_ms"]
SHOWN = JUDGED + ["startup_unavailable_ms"]


SIM_SEEDS = range(1, 21)  # the simulator's own spread: the story under 20 seeds


def simulate(cli, scenario, seed):
    cmd = [cli, "run", scenario, "--seed", str(seed)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    lines = out.strip().splitlines()
    summary = json.loads(lines[-1])
    if summary.get("type") != "summary":
        sys.exit(f"{' '.join(cmd)}: the last line is not the summary")
    summary.update(sim_client_figures(lines, summary.get("at_ms", float("inf"))))
    return summary


def spread(vals):
    vals = sorted(v for v in vals if v is not None)
    if not vals:
        return None
    return vals[0], vals[len(vals) // 2], vals[-1]


def distance(a, b):
    """How far apart two (min, median, max) ranges are: 0 when they overlap."""
    if a[2] < b[0]:
        return b[0] - a[2]
    if b[2] < a[0]:
        return a[0] - b[2]
    return 0


def compare(results_path, scenarios, cli, tolerance_path):
    """Prints the table; with a tolerance file, returns the figures whose
    real range lies further from the simulator's than the tolerance allows."""
    runs = {}
    with open(results_path) as f:
        for line in f:
            r = json.loads(line)
            runs.setdefault(r["story"], []).append(r)
    tolerance = {}
    if tolerance_path:
        with open(tolerance_path) as f:
            tolerance = json.load(f)["allowed_distance"]
    failures = []
    k = max(len(v) for v in runs.values())
    print(f"| story | figure | real consumers: min / median / max ({k} runs) | simulator: min / median / max ({len(SIM_SEEDS)} seeds) | |")
    print("|---|---|---:|---:|---|")
    rows = [(fig, fig in JUDGED) for fig in SHOWN] + [
        ("assigned_moves", False),
        ("restart_join_ms_median", False),
        ("first_record_lag_ms_median", False),
    ]
    for path in scenarios:
        with open(path) as f:
            name = json.load(f)["name"]
        real = runs.get(name)
        if not real:
            sys.exit(f"no real run of {name} in {results_path}")
        sims = [simulate(cli, path, seed) for seed in SIM_SEEDS]
        for fig, judged in rows:
            r = spread(r.get(fig) for r in real)
            s = spread(x.get(fig) for x in sims)
            if r is None:
                continue
            show = lambda t: " / ".join(str(v) for v in t) if t else "—"
            if not judged:
                note = "shown, not judged"
            else:
                d = distance(r, s)
                note = "ranges overlap" if d == 0 else f"apart by {d}"
                tol = tolerance.get(name, {}).get(fig)
                if tolerance_path and tol is None:
                    sys.exit(f"{tolerance_path}: no allowed distance for {name} {fig}")
                if tol is not None:
                    if d > tol:
                        failures.append(f"{name} {fig}: real {show(r)}, simulator {show(s)}, apart by {d} > {tol}")
                        note += f": FAILS (allowed {tol})"
                    else:
                        note += f" (allowed {tol})"
            label = {
                "restart_join_ms_median": "restarted consumer: start to assignment, ms (median of the run)",
                "first_record_lag_ms_median": "first record after the assign callback, ms (median of the run)",
                "assigned_moves": "partitions moved as the assign callbacks saw them",
            }.get(fig, fig)
            print(f"| {name} | {label} | {show(r)} | {show(s)} | {note} |")
    return failures


# The least allowed distance of a timed figure (derive_tolerance).
TIME_FLOOR_MS = {"unavailable_after_startup_ms": 4000, "all_stopped_ms": 1000}


def derive_tolerance(results_path, scenarios, cli):
    """The allowed distances for --check, from a full run: for each judged
    figure, the furthest any real run lay from the simulator's range over
    its seeds, plus a quarter of the real runs' spread (max - min) as a
    margin for runs beyond those seen. The simulator's range already holds
    the variation of batch times and timing; the allowance only has to hold
    what the real runs showed beyond it (FIDELITY.md)."""
    runs = {}
    with open(results_path) as f:
        for line in f:
            r = json.loads(line)
            runs.setdefault(r["story"], []).append(r)
    allowed = {}
    for path in scenarios:
        with open(path) as f:
            name = json.load(f)["name"]
        sims = [simulate(cli, path, seed) for seed in SIM_SEEDS]
        allowed[name] = {}
        for fig in JUDGED:
            vals = [x[fig] for x in runs[name]]
            s = spread(x[fig] for x in sims)
            furthest = max(distance((v, v, v), s) for v in vals)
            margin = furthest + -(-(max(vals) - min(vals)) // 4)
            # A floor for the timed figures where the story has time to
            # lose: a real consumer's start (a process, a bootstrap
            # connection) slows down on a busy machine, which the runs on a
            # quiet one do not show. Never for a figure the simulator gives
            # as 0 (a static restart stops nobody).
            if fig in TIME_FLOOR_MS and s[2] > 0:
                margin = max(margin, TIME_FLOOR_MS[fig])
            allowed[name][fig] = margin
    return {
        "about": "Written by harness.py tolerance (scripts/calibrate [--protocol consumer] --write-tolerance) from "
        f"{max(len(v) for v in runs.values())} real runs of each story: per judged figure, the "
        "furthest any real run lay from the simulator's range over its seeds, plus a quarter of "
        "the real runs' spread (max - min), at least TIME_FLOOR_MS for a timed figure the "
        "simulator does not give as 0 (a busy machine starts real consumers slower). "
        "scripts/calibrate [--protocol consumer] --check fails when one real run lies further than this "
        "from the simulator's range.",
        "allowed_distance": allowed,
    }


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("scenario")
    r.add_argument("--runs", type=int, default=3)
    r.add_argument("--out", required=True)
    r.add_argument("--bootstrap", default="127.0.0.1:19092")
    r.add_argument("--broker-log")
    r.add_argument("--client-debug", help="librdkafka debug contexts (e.g. cgrp,protocol), logged beside each consumer's events")
    w = sub.add_parser("worker")
    w.add_argument("plan")
    mt = sub.add_parser("metrics")
    mt.add_argument("events")
    sub.add_parser("self-test")
    cp = sub.add_parser("compare")
    cp.add_argument("results")
    cp.add_argument("scenarios", nargs="+")
    cp.add_argument("--cli", required=True)
    cp.add_argument("--tolerance")
    tp = sub.add_parser("tolerance")
    tp.add_argument("results")
    tp.add_argument("scenarios", nargs="+")
    tp.add_argument("--cli", required=True)
    a = ap.parse_args()
    if a.cmd == "worker":
        worker(json.loads(a.plan))
    elif a.cmd == "self-test":
        self_test()
    elif a.cmd == "compare":
        failures = compare(a.results, a.scenarios, a.cli, a.tolerance)
        if failures:
            sys.exit("the simulator lies outside the real runs' tolerance:\n  " + "\n  ".join(failures))
    elif a.cmd == "tolerance":
        print(json.dumps(derive_tolerance(a.results, a.scenarios, a.cli), indent=2))
    elif a.cmd == "metrics":
        with open(a.events) as f:
            head = json.loads(f.readline())
            evs = [json.loads(line) for line in f]
        print(json.dumps(metrics(head["partitions"], head["end_ms"], evs)))
    else:
        story = load_story(a.scenario)
        check_broker_config(story, a.broker_log)
        warm_up(a.bootstrap, story["protocol"])
        os.makedirs(a.out, exist_ok=True)
        for i in range(1, a.runs + 1):
            started = time.time()
            res = run_once(story, a.bootstrap, a.out, i, a.broker_log, a.client_debug)
            res["story"] = story["name"]
            res["run"] = i
            print(json.dumps(res), flush=True)
            sys.stderr.write(f"{story['name']} run {i}: {time.time() - started:.0f}s\n")


if __name__ == "__main__":
    main()
