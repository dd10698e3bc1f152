#!/usr/bin/env python3
"""Plays one rolling restart of the instrumented Kafka Streams application
(scripts/calibration/streams/src) against the running broker, in real time.

  run.py --mode static|dynamic|static-wiped|dynamic-standby --out DIR [options]

Three instances i0..i2 (one JVM each, 1 stream thread unless --threads), each
with its own state directory kept across its restart (except static-wiped,
which empties it while the instance is down). Timeline, wall clock:
  start the steady producer; start i0, i1, i2; wait until all three are
  RUNNING, then --settle s more (this moment is T0);
  at T0 + k*period (k = 0, 1, 2) stop instance i(2-k) with SIGTERM (a
  shutdown hook calls KafkaStreams.close()), start it again --down s later
  with the same state dir and config;
  at T0 + 3*period stop everything.
Writes DIR/actions.ndjson (what was done when), DIR/events-iK.ndjson (the
instances' events), DIR/client-iK.log (their Streams/consumer INFO log),
DIR/run.json (settings). Nothing here reads the broker's log; analyze.py does.
"""
import argparse, json, os, shutil, signal, subprocess, sys, time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
CP = os.path.join(ROOT, ".cache/calibration-streams/build/calibration-streams.jar") + ":" + \
     os.path.join(ROOT, ".cache/calibration-streams/libs/*")
INSTANCES = ["i0", "i1", "i2"]


def now_ms():
    return int(time.time() * 1000)


def last_state(path):
    st = None
    try:
        with open(path) as f:
            for line in f:
                if '"ev":"state"' in line:
                    st = json.loads(line)
    except FileNotFoundError:
        pass
    return st


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", required=True, choices=["static", "dynamic", "static-wiped", "dynamic-standby"])
    ap.add_argument("--out", required=True)
    ap.add_argument("--state-root", required=True)
    ap.add_argument("--bootstrap", default="127.0.0.1:19092")
    ap.add_argument("--app-id", default="gs-streams")
    ap.add_argument("--input", default="gs-streams-in")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--session-ms", type=int, default=30000)
    ap.add_argument("--down", type=float, default=15.0)
    ap.add_argument("--period", type=float, default=60.0)
    ap.add_argument("--settle", type=float, default=20.0)
    ap.add_argument("--rate", type=float, default=20.0, help="records/s per partition")
    ap.add_argument("--value-bytes", type=int, default=1000)
    a = ap.parse_args()

    os.makedirs(a.out, exist_ok=True)
    shutil.rmtree(a.state_root, ignore_errors=True)
    os.makedirs(a.state_root)
    static = a.mode.startswith("static")
    standbys = 1 if a.mode == "dynamic-standby" else 0
    settings = dict(vars(a), static=static, standbys=standbys, commit_interval_ms=1000,
                    statestore_cache_max_bytes=0, heartbeat_interval_ms=3000, auto_offset_reset="earliest")
    json.dump(settings, open(os.path.join(a.out, "run.json"), "w"), indent=1)
    actions = open(os.path.join(a.out, "actions.ndjson"), "w")

    def act(**kw):
        kw = dict(ts=now_ms(), **kw)
        actions.write(json.dumps(kw) + "\n")
        actions.flush()
        print("  " + json.dumps(kw), flush=True)

    procs = {}

    def start(inst):
        env = dict(os.environ, INSTANCE=inst, APP_ID=a.app_id, INPUT=a.input, BOOTSTRAP=a.bootstrap,
                   STATE_DIR=os.path.join(a.state_root, inst), EVENTS=os.path.join(a.out, f"events-{inst}.ndjson"),
                   THREADS=str(a.threads), STANDBYS=str(standbys), SESSION_MS=str(a.session_ms),
                   VALUE_BYTES=str(a.value_bytes), GROUP_INSTANCE_ID=inst if static else "")
        out = open(os.path.join(a.out, f"stdout-{inst}.log"), "a")
        procs[inst] = subprocess.Popen(
            ["java", "-Xmx384m", "-Dlog.file=" + os.path.join(a.out, f"client-{inst}.log"), "-cp", CP,
             "groupscope.streams.App"], env=env, stdout=out, stderr=subprocess.STDOUT)
        act(action="start", instance=inst, pid=procs[inst].pid)

    def stop(inst):
        p = procs.pop(inst)
        act(action="stop", instance=inst, pid=p.pid)
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(timeout=90)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
        act(action="stopped", instance=inst, rc=p.returncode)

    producer = subprocess.Popen(
        ["java", "-Xmx256m", "-Dlog.file=" + os.path.join(a.out, "producer.log"), "-cp", CP, "groupscope.streams.Load",
         "steady", a.bootstrap, a.input, "6", str(a.rate), "1000"],
        stdout=open(os.path.join(a.out, "producer.out"), "w"), stderr=subprocess.STDOUT)
    act(action="producer_start", pid=producer.pid, rate_per_partition=a.rate)
    try:
        time.sleep(2)
        for inst in INSTANCES:
            start(inst)
        deadline = time.time() + 300
        while True:
            sts = [last_state(os.path.join(a.out, f"events-{i}.ndjson")) for i in INSTANCES]
            if all(s and s["to"] == "RUNNING" for s in sts):
                break
            if time.time() > deadline:
                raise SystemExit("instances not RUNNING after 300 s")
            time.sleep(0.5)
        act(action="all_running")
        time.sleep(a.settle)
        t0 = time.time()
        act(action="t0")
        for k, inst in enumerate(reversed(INSTANCES)):
            at = t0 + k * a.period
            time.sleep(max(0, at - time.time()))
            stop(inst)
            if a.mode == "static-wiped":
                shutil.rmtree(os.path.join(a.state_root, inst), ignore_errors=True)
                act(action="wiped", instance=inst)
            time.sleep(max(0, at + a.down - time.time()))
            start(inst)
        time.sleep(max(0, t0 + 3 * a.period - time.time()))
        act(action="end")
    finally:
        for inst in list(procs):
            stop(inst)
        producer.send_signal(signal.SIGTERM)
        try:
            producer.wait(timeout=20)
        except subprocess.TimeoutExpired:
            producer.kill()
        act(action="producer_stop")


if __name__ == "__main__":
    main()
