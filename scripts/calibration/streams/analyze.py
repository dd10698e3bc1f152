#!/usr/bin/env python3
"""Figures of each real run under target/calibration-streams/<mode>-run<k>/ and
the simulator's for the matching tests/calibration-streams/ scenario.

  analyze.py --out target/calibration-streams --cli target/release/groupscope --scenarios tests/calibration-streams

Definitions (real runs), over the window [T0, END] (T0: 20 s after all three
instances were first RUNNING, when the first instance is stopped; END: T0 +
3 periods, when everything is stopped):
- A record r of partition p was produced at rts (CreateTime, the producer's
  wall clock) and processed at ts (the processor's wall clock, same machine).
  Partition p is *unavailable* at time t when some record of p produced at or
  before t is still unprocessed at t and ends up waiting more than THETA
  (1 s): the union over records with ts - rts > THETA of [rts, ts], clipped
  to the window. With 20 records/s per partition this is, within 50 ms, the
  time during which no thread processed p (its owner down, rebalancing,
  restoring, or not yet polling), the simulator's partition_unavailable_ms.
  Normal latency is a few ms, so stalls shorter than THETA are not counted.
- *restore*: the part of that time inside a restore of p's store, from
  onRestoreStart to onRestoreEnd (StateRestoreListener) of an active task.
- *rebalances*: the broker's "Preparing to rebalance group" lines in the window.
- *moves*: per task, each time its active owner (the instance whose
  processor init() ran for it last) changes to another instance; a task
  that comes back to the instance it had before its restart is no move.
"""
import argparse, bisect, calendar, glob, json, os, re, subprocess, sys, time
from datetime import datetime

THETA = 1000


def load(path):
    out = []
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line:
                    try:
                        out.append(json.loads(line))
                    except json.JSONDecodeError:
                        pass
    return out


def union(iv):
    iv = sorted(iv)
    res = []
    for s, e in iv:
        if e <= s:
            continue
        if res and s <= res[-1][1]:
            res[-1][1] = max(res[-1][1], e)
        else:
            res.append([s, e])
    return res


def clip(iv, lo, hi):
    return [[max(s, lo), min(e, hi)] for s, e in iv if min(e, hi) > max(s, lo)]


def measure(iv):
    return sum(e - s for s, e in iv)


def intersect(a, b):
    res = []
    for s1, e1 in a:
        for s2, e2 in b:
            s, e = max(s1, s2), min(e1, e2)
            if e > s:
                res.append([s, e])
    return union(res)


BROKER_TS = re.compile(r"^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3})\]")


def broker_lines(path, group, lo, hi):
    out = []
    if not os.path.exists(path):
        return out
    with open(path, errors="replace") as f:
        for line in f:
            if "GroupCoordinator" not in line or f"group {group} " not in line and f"group {group}." not in line \
                    and f"groupInstanceId" not in line:
                continue
            if group not in line:
                continue
            m = BROKER_TS.match(line)
            if not m:
                continue
            ts = calendar.timegm(time.strptime(m.group(1), "%Y-%m-%d %H:%M:%S")) * 1000 + int(m.group(2))
            if lo <= ts <= hi:
                out.append((ts, line.rstrip()))
    return out


def analyze_run(d, app="gs-streams"):
    acts = load(os.path.join(d, "actions.ndjson"))
    settings = json.load(open(os.path.join(d, "run.json")))
    a_by = {}
    for a in acts:
        a_by.setdefault(a["action"], []).append(a)
    if "t0" not in a_by or "end" not in a_by:
        return None
    T0, END = a_by["t0"][0]["ts"], a_by["end"][0]["ts"]
    stops = [a for a in acts if a["action"] == "stop" and T0 <= a["ts"] < END]
    starts = [a for a in acts if a["action"] == "start" and T0 <= a["ts"] < END]
    ev = []
    for f in sorted(glob.glob(os.path.join(d, "events-*.ndjson"))):
        ev += load(f)
    ev.sort(key=lambda e: e["ts"])

    # Unavailable time per partition.
    recs = {p: [] for p in range(6)}
    for e in ev:
        if e["ev"] == "rec":
            recs[int(e["task"].split("_")[1])].append((e["rts"], e["ts"]))
    unavail = {}
    for p, rs in recs.items():
        iv = [[r, t] for r, t in rs if t - r > THETA]
        # a partition with nothing processed in its last THETA before END waits until END
        last = max((r for r, t in rs if t <= END), default=None)
        if last is not None and last < END - THETA:
            iv.append([last, END])
        unavail[p] = clip(union(iv), T0, END)

    # Restores of active tasks.
    restores, open_r = [], {}
    for e in ev:
        key = (e["inst"], e.get("p"))
        if e["ev"] == "restore_start":
            open_r[key] = e
        elif e["ev"] in ("restore_end", "restore_suspended") and key in open_r:
            s = open_r.pop(key)
            restores.append(dict(instance=e["inst"], task=f"0_{e['p']}", p=e["p"], start=s["ts"], end=e["ts"],
                                 ms=e["ts"] - s["ts"], records=e["total"], from_offset=s["start"], to_offset=s["end"],
                                 suspended=e["ev"] == "restore_suspended"))
    restore_iv = {p: union([[r["start"], r["end"]] for r in restores if r["p"] == p and r["records"] > 0]) for p in range(6)}
    restore_unavail = {p: measure(intersect(unavail[p], clip(restore_iv[p], T0, END))) for p in range(6)}

    # Task owners and moves.
    owner, moves, history = {}, [], []
    for e in ev:
        if e["ev"] == "task_init":
            t, i = e["task"], e["inst"]
            if e["ts"] >= T0 and owner.get(t) not in (None, i):
                moves.append(dict(ts=e["ts"], task=t, frm=owner[t], to=i))
            if e["ts"] >= T0:
                history.append(dict(ts=e["ts"], task=t, instance=i))
            owner[t] = i
    # Streams' own view: REBALANCING transitions of running instances, standby (warm-up) tasks.
    streams_rebalancing = [dict(ts=e["ts"], instance=e["inst"]) for e in ev
                           if e["ev"] == "state" and e["to"] == "REBALANCING" and e["from"] == "RUNNING" and T0 <= e["ts"] <= END]
    standby_seen = [dict(ts=e["ts"], instance=e["inst"], standby=sorted({s for th in e["threads"] for s in th["standby"]}),
                         active=sorted({s for th in e["threads"] for s in th["active"]}))
                    for e in ev if e["ev"] == "tasks" and T0 <= e["ts"] <= END and any(th["standby"] for th in e["threads"])]
    bl = broker_lines(os.path.join(d, "broker.log"), app, T0 - 1000, END + 5000)
    prep = [(t, l) for t, l in bl if "Preparing to rebalance" in l]
    with open(os.path.join(d, "broker-group.log"), "w") as f:
        for t, l in bl:
            f.write(l + "\n")
    # Client log evidence (probing rebalances, warm-ups, the assignor's decisions).
    client_ev = []
    for f in sorted(glob.glob(os.path.join(d, "client-*.log"))):
        inst = os.path.basename(f)[7:-4]
        for line in open(f, errors="replace"):
            if not line.startswith("["):
                continue
            if re.search(r"probing|follow-?up rebalance|warm-?up|Decided on assignment|Assigned tasks|unstable assignment|"
                         r"stable assignment|Requested to schedule|leave the group|LeaveGroup|schedule", line, re.I):
                client_ev.append(f"{inst}: {line.rstrip()[:400]}")
    with open(os.path.join(d, "client-evidence.log"), "w") as f:
        f.write("\n".join(client_ev) + "\n")

    per_restart = []
    for k, s in enumerate(stops):
        nxt = stops[k + 1]["ts"] if k + 1 < len(stops) else END
        inst = s["instance"]
        back = next((a["ts"] for a in starts if a["instance"] == inst and a["ts"] > s["ts"]), None)
        running = next((e["ts"] for e in ev if e["ev"] == "state" and e["inst"] == inst and e["to"] == "RUNNING"
                        and back and e["ts"] > back), None)
        firsts = [e["ts"] for e in ev if e["ev"] == "first_record" and e["inst"] == inst and back and e["ts"] > back
                  and e["ts"] < nxt]
        jvm_start = next((e["ts"] for e in ev if e["ev"] == "start" and e["inst"] == inst and back and e["ts"] > back), None)
        rebalancing = next((e["ts"] for e in ev if e["ev"] == "state" and e["inst"] == inst and e["to"] == "REBALANCING"
                            and back and e["ts"] > back), None)
        per_restart.append(dict(
            instance=inst, stop=s["ts"] - T0, start=(back - T0) if back else None,
            start_to_main_ms=(jvm_start - back) if jvm_start and back else None,
            start_to_rebalancing_ms=(rebalancing - back) if rebalancing and back else None,
            start_to_first_record_ms=[f - back for f in firsts],
            running_after_start_ms=(running - back) if running and back else None,
            rebalances=sum(1 for t, _ in prep if s["ts"] <= t < nxt),
            restores=[dict(task=r["task"], instance=r["instance"], records=r["records"], ms=r["ms"], at=r["start"] - T0)
                      for r in restores if s["ts"] <= r["start"] < nxt],
            moves=[dict(task=m["task"], frm=m["frm"], to=m["to"], at=m["ts"] - T0) for m in moves if s["ts"] <= m["ts"] < nxt],
            unavailable_ms=sum(measure(clip(unavail[p], s["ts"], nxt)) for p in range(6)),
        ))
    startup_restores = [r for r in restores if r["start"] < T0 and r["records"] > 0]
    res = dict(
        run=os.path.basename(d), mode=settings["mode"], threads=settings.get("threads", 1), t0=T0, end=END, window_ms=END - T0,
        partition_unavailable_ms=sum(measure(unavail[p]) for p in range(6)),
        per_partition_unavailable_ms={p: measure(unavail[p]) for p in range(6)},
        restore_ms=sum(restore_unavail.values()),
        restores=len([r for r in restores if r["start"] >= T0 and r["records"] > 0]),
        restores_zero_records=len([r for r in restores if r["start"] >= T0 and r["records"] == 0]),
        restore_records=sum(r["records"] for r in restores if r["start"] >= T0),
        rebalances=len(prep), rebalance_reasons=[l.split("(reason: ")[-1][:200] for _, l in prep],
        streams_rebalancing_transitions=len(streams_rebalancing),
        moves=len(moves), move_list=[dict(m, ts=m["ts"] - T0) for m in moves],
        standby_snapshots=len(standby_seen), standby_first=[dict(s, ts=s["ts"] - T0) for s in standby_seen[:6]],
        per_restart=per_restart,
        startup_restore=dict(n=len(startup_restores),
                             ms=[r["ms"] for r in startup_restores],
                             records=[r["records"] for r in startup_restores]),
        restore_detail=[dict(r, start=r["start"] - T0, end=r["end"] - T0) for r in restores if r["start"] >= T0],
    )
    json.dump(res, open(os.path.join(d, "analysis.json"), "w"), indent=1)
    return res


SCEN = {"static": "streams-static.json", "dynamic": "streams-dynamic.json", "static-wiped": "streams-static-wiped.json",
        "dynamic-standby": "streams-dynamic-standby.json"}


def simulate(cli, path, seeds=5, t0=60000):
    out = []
    for seed in range(1, seeds + 1):
        tr = subprocess.run([cli, "run", path, "--seed", str(seed)], capture_output=True, text=True, check=True).stdout
        lines = [json.loads(l) for l in tr.splitlines() if l.strip()]
        summ = lines[-1]
        reb = sum(1 for l in lines if l.get("type") == "event" and l.get("event") == "state_changed"
                  and l.get("to") == "PreparingRebalance" and l["at_ms"] >= t0)
        restores = [l for l in lines if l.get("type") == "event" and l.get("action") == "restored" and l["at_ms"] >= t0]
        restoring = [l for l in lines if l.get("type") == "event" and l.get("action") == "restoring" and l["at_ms"] >= t0]
        out.append(dict(seed=seed, unavailable_after_startup_ms=summ.get("unavailable_after_startup_ms"),
                        restore_ms_total=summ.get("restore_ms"), rebalances_total=summ["rebalances"],
                        rebalances_after_t0=reb, moves=summ["partition_moves"],
                        restores_after_t0=sum(len(l.get("partitions", [])) for l in restoring),
                        restore_ms_after_t0=sum(l.get("restore_ms", 0) * len(l.get("partitions", [])) for l in restores)))
    return out


def fmt_range(xs):
    xs = [x for x in xs if x is not None]
    if not xs:
        return "-"
    xs = sorted(xs)
    return f"{xs[0]:,}" if xs[0] == xs[-1] else f"{xs[0]:,} .. {xs[-1]:,}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--scenarios", required=True)
    a = ap.parse_args()
    results = []
    for d in sorted(glob.glob(os.path.join(a.out, "*-run*"))):
        if os.path.isdir(d):
            r = analyze_run(d)
            if r:
                results.append(r)
    with open(os.path.join(a.out, "results.ndjson"), "w") as f:
        for r in results:
            f.write(json.dumps({k: v for k, v in r.items() if k not in ("restore_detail",)}) + "\n")
    md = ["| mode | source | partition-unavailable after T0, ms | of which restore, ms | rebalances after T0 | task moves | restores (records>0) after T0 | per restart: unavailable ms / restores |",
          "|---|---|---:|---:|---:|---:|---:|---|"]
    for mode, threads in [("static", 1), ("dynamic", 1), ("static-wiped", 1), ("dynamic-standby", 1), ("static", 2), ("dynamic", 2)]:
        rs = [r for r in results if r["mode"] == mode and r["threads"] == threads]
        if threads > 1 and not rs:
            continue
        sp = os.path.join(a.scenarios, SCEN[mode].replace(".json", f"-t{threads}.json" if threads > 1 else ".json"))
        mode_label = mode if threads == 1 else f"{mode}, {threads} threads"
        for r in rs:
            pr = "; ".join(f"{x['instance']}: {x['unavailable_ms']:,} / {len([y for y in x['restores'] if y['records'] > 0])}"
                           for x in r["per_restart"])
            md.append(f"| {mode_label} | real {r['run']} | {r['partition_unavailable_ms']:,} | {r['restore_ms']:,} | {r['rebalances']} | "
                      f"{r['moves']} | {r['restores']} | {pr} |")
        variants = [(sp, "simulator")]
        if mode == "dynamic" and threads == 1:
            variants.append((os.path.join(a.scenarios, "streams-dynamic-leave.json"), "simulator, LeaveGroup on close"))
        for path, label in variants:
            if os.path.exists(path) and (rs or True):
                sim = simulate(a.cli, path)
                md.append(f"| {mode_label} | {label} (seeds 1-5) | {fmt_range([s['unavailable_after_startup_ms'] for s in sim])} | "
                          f"{fmt_range([s['restore_ms_after_t0'] for s in sim])} | {fmt_range([s['rebalances_after_t0'] for s in sim])} | "
                          f"{fmt_range([s['moves'] for s in sim])} | {fmt_range([s['restores_after_t0'] for s in sim])} | |")
    table = "\n".join(md)
    open(os.path.join(a.out, "report.md"), "w").write(table + "\n")
    print(table)


if __name__ == "__main__":
    main()
