#!/usr/bin/env python3
"""Independent checker for GroupScope scenario files (standard library only).

Usage:
    check-trace.py --cli 'target/release/groupscope' FILE...
    check-trace.py --self-test

For each FILE this runs `COMMAND run FILE`, parses the NDJSON trace it prints
and checks every "expect", "expect_group" and "expect_summary" in FILE against
that trace. It does not rely on any checking the CLI does itself. The contract is
docs/spec/scenario-format.md (a copy of the shared spec/scenario-format.md).

Matching rules:
- A step is known by its "id", or by "#<index>" (0-based) when it has none.
  "expect" is checked against the `response` line whose "request" is that key.
  A response that is expected but never printed is a failure. "expect_group" is
  checked against the `group` line whose "after" is that key.
- "$NAME" stands for the member_id of the response to the join step that carries
  "bind": NAME. All bindings are collected from the whole trace before anything
  is checked, so an expectation may name a member whose response comes later.
- "new" (member_id only): a non-empty id that appears in no earlier response line
  (as member_id, leader, or a members[] entry's member_id).
- "members" and "pending_members" compare as multisets. A string entry matches an
  entry with that member_id. An object entry matches on every key it gives
  (member_id, group_instance_id, error, ...); a key the line lacks counts as null.
- "static_members" compares as a dict, after "$NAME" values are resolved.
- "leader": null and "" both mean "no leader".
- "at_ms", "assignment" and every other field: exact equality after "$NAME" is
  resolved (true/false never equal 1/0). Assignments keep their order.
- "expect_summary" uses the last `summary` line; lists there compare as multisets.
- Ranges: an expected {"min": a, "max": b} (either bound may be left out) matches
  a number inside the bounds, inclusive.

Output: one line per file, `PASS name` or `FAIL name: what differed`, then
`N passed, M failed`. The exit status is 0 only if every file passed.
"""

import argparse
import json
import os
import shlex
import subprocess
import sys

ABSENT = object()


class Unbound(Exception):
    """A "$NAME" whose binding join got no response in the trace."""


def same(a, b):
    """JSON equality that keeps true/false apart from 1/0."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, dict)) or isinstance(b, (list, dict)):
        return False
    return a == b


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def is_bounds(v):
    """An expected {"min": a, "max": b} range (either key may be absent)."""
    return (isinstance(v, dict) and v and set(v) <= {"min", "max"}
            and all(is_number(x) for x in v.values()))


def canon(v):
    return json.dumps(v, sort_keys=True)


def step_key(step, index):
    sid = step.get("id") if isinstance(step, dict) else None
    return sid if isinstance(sid, str) and sid else "#%d" % index


def ids_in(line):
    """Member ids a response line reveals: member_id, leader, members[].member_id."""
    out = set()
    for k in ("member_id", "leader"):
        v = line.get(k)
        if isinstance(v, str) and v:
            out.add(v)
    members = line.get("members")
    if isinstance(members, list):
        for m in members:
            v = m.get("member_id") if isinstance(m, dict) else m
            if isinstance(v, str) and v:
                out.add(v)
    return out


def parse_trace(text):
    """Returns (lines, None) or (None, message about the first bad line)."""
    lines = []
    for n, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as e:
            return None, "line %d is not JSON (%s): %r" % (n, e.msg, raw[:80])
        if not isinstance(obj, dict):
            return None, "line %d is not a JSON object: %r" % (n, raw[:80])
        lines.append(obj)
    return lines, None


class Checker:
    """Checks one scenario's expectations against one parsed trace."""

    def __init__(self, scenario, trace):
        self.scenario = scenario
        steps = scenario.get("requests")
        if not isinstance(steps, list):
            steps = scenario.get("actions")
        self.steps = steps if isinstance(steps, list) else []
        self.keys = [step_key(s, i) for i, s in enumerate(self.steps)]
        self.trace = trace
        self.responses = {}  # step key -> [(trace index, line)]
        self.groups = {}     # step key -> [line]
        for idx, line in enumerate(trace):
            kind = line.get("type")
            if kind == "response":
                self.responses.setdefault(line.get("request"), []).append((idx, line))
            elif kind == "group":
                self.groups.setdefault(line.get("after"), []).append(line)
        bind_of = {}
        for key, s in zip(self.keys, self.steps):
            join = s.get("join") if isinstance(s, dict) else None
            if isinstance(join, dict) and isinstance(join.get("bind"), str):
                bind_of[key] = join["bind"]
        self.bindings = {}
        for line in trace:
            if line.get("type") == "response" and line.get("request") in bind_of:
                self.bindings[bind_of[line["request"]]] = line.get("member_id")
        self.names = {}
        for name, mid in self.bindings.items():
            if isinstance(mid, str) and mid:
                self.names.setdefault(mid, name)

    # -- helpers -------------------------------------------------------------
    def resolve(self, v):
        if isinstance(v, str) and v.startswith("$") and len(v) > 1:
            if v[1:] not in self.bindings:
                raise Unbound(v[1:])
            return self.bindings[v[1:]]
        if isinstance(v, list):
            return [self.resolve(x) for x in v]
        if isinstance(v, dict):
            return {k: self.resolve(x) for k, x in v.items()}
        return v

    def show(self, v):
        """Renders an actual value, naming bound ids as $NAME."""
        if v is ABSENT:
            return "(absent)"
        if isinstance(v, str):
            return "$" + self.names[v] if v in self.names else json.dumps(v)
        if isinstance(v, list):
            return "[" + ", ".join(self.show(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{" + ", ".join("%s: %s" % (k, self.show(x)) for k, x in v.items()) + "}"
        return json.dumps(v)

    @staticmethod
    def show_expected(v):
        return json.dumps(v, separators=(",", ":"))

    def seen_before(self, index):
        seen = set()
        for line in self.trace[:index]:
            if line.get("type") == "response":
                seen |= ids_in(line)
        return seen

    @staticmethod
    def members_match(expected, got):
        if not isinstance(expected, list) or not isinstance(got, list):
            return False
        if len(expected) != len(got):
            return False
        exp = [e if isinstance(e, dict) else {"member_id": e} for e in expected]
        act = [g if isinstance(g, dict) else {"member_id": g} for g in got]

        def fits(e, a):
            return all(same(a.get(k), v) for k, v in e.items())

        owner = [-1] * len(act)  # bipartite matching, augmenting paths

        def place(i, tried):
            for j in range(len(act)):
                if j in tried or not fits(exp[i], act[j]):
                    continue
                tried.add(j)
                if owner[j] == -1 or place(owner[j], tried):
                    owner[j] = i
                    return True
            return False

        return all(place(i, set()) for i in range(len(exp)))

    def compare(self, field, expected, line, index, kind):
        """Returns None when the field matches, else a message."""
        got = line.get(field, ABSENT)
        if kind == "response" and field == "member_id" and expected == "new":
            if not isinstance(got, str) or not got:
                return "member_id expected a new id, got %s" % self.show(got)
            if got in self.seen_before(index):
                return "member_id expected a new id, got %s, already seen in an earlier response" % self.show(got)
            return None
        try:
            want = self.resolve(expected)
        except Unbound as u:
            return "%s: $%s is not bound (the join that binds it got no response)" % (field, u)
        value = None if got is ABSENT else got
        if is_bounds(want) and is_number(value):
            ok = want.get("min", value) <= value <= want.get("max", value)
        elif field in ("members", "pending_members"):
            ok = got is not ABSENT and self.members_match(want, value)
        elif field == "leader":
            ok = (want in (None, "") and value in (None, "")) or (got is not ABSENT and same(want, value))
        elif kind == "summary" and isinstance(want, list):
            ok = isinstance(value, list) and sorted(map(canon, want)) == sorted(map(canon, value))
        else:
            ok = (got is not ABSENT or want is None) and same(want, value)
        if ok:
            return None
        return "%s expected %s, got %s" % (field, self.show_expected(expected), self.show(got))

    # -- checks ----------------------------------------------------------------
    def check(self):
        fails = []
        for key, step in zip(self.keys, self.steps):
            if not isinstance(step, dict):
                continue
            if isinstance(step.get("expect"), dict):
                fails += self.check_response(key, step["expect"])
            if isinstance(step.get("expect_group"), dict):
                fails += self.check_group(key, step["expect_group"])
        if isinstance(self.scenario.get("expect_summary"), dict):
            fails += self.check_summary(self.scenario["expect_summary"])
        return fails

    def check_response(self, key, expect):
        found = self.responses.get(key, [])
        if not found:
            return ["step %s: expected a response, none printed" % key]
        out = []
        if len(found) > 1:
            out.append("step %s: %d responses printed, expected one" % (key, len(found)))
        index, line = found[0]
        for field, expected in expect.items():
            msg = self.compare(field, expected, line, index, "response")
            if msg:
                out.append("step %s: %s" % (key, msg))
        return out

    def check_group(self, key, expect):
        found = self.groups.get(key, [])
        if not found:
            return ["step %s: expected a group line after it, none printed" % key]
        out = []
        if len(found) > 1:
            out.append("step %s: %d group lines after it, expected one" % (key, len(found)))
        for field, expected in expect.items():
            msg = self.compare(field, expected, found[0], None, "group")
            if msg:
                out.append("step %s: group %s" % (key, msg))
        return out

    def check_summary(self, expect):
        found = [line for line in self.trace if line.get("type") == "summary"]
        if not found:
            return ["expect_summary: no summary line printed"]
        out = []
        for field, expected in expect.items():
            msg = self.compare(field, expected, found[-1], None, "summary")
            if msg:
                out.append("summary: " + msg)
        return out


def one_line(text, limit=300):
    return " | ".join(part for part in text.strip()[:limit].splitlines())


def check_run(name, scenario, argv, timeout):
    """Runs the CLI and checks the trace. Returns (passed, report line)."""
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    except OSError as e:
        return False, "FAIL %s: cannot run CLI %r: %s" % (name, argv[0], e)
    except subprocess.TimeoutExpired:
        return False, "FAIL %s: CLI timed out after %ss" % (name, timeout)
    stderr = one_line(proc.stderr or "")
    if proc.returncode != 0:
        return False, "FAIL %s: CLI exited %d; stderr: %s" % (name, proc.returncode, stderr)
    trace, problem = parse_trace(proc.stdout or "")
    if problem:
        return False, "FAIL %s: CLI printed invalid JSON (%s); stderr: %s" % (name, problem, stderr)
    try:
        fails = Checker(scenario, trace).check()
    except Exception as e:  # a malformed trace must not stop the other files
        return False, "FAIL %s: checker could not read the trace: %r" % (name, e)
    if fails:
        return False, "FAIL %s: %s" % (name, "; ".join(fails))
    return True, "PASS %s" % name


def check_file(cli, path, timeout):
    label = os.path.basename(path)
    try:
        with open(path, encoding="utf-8") as f:
            scenario = json.load(f)
    except (OSError, ValueError) as e:
        return False, "FAIL %s: cannot read scenario file: %s" % (label, e)
    if not isinstance(scenario, dict):
        return False, "FAIL %s: scenario file is not a JSON object" % label
    name = scenario.get("name") if isinstance(scenario.get("name"), str) else label
    return check_run(name, scenario, shlex.split(cli) + ["run", path], timeout)


# ---------------------------------------------------------------------------
# Self-test: hand-written fake traces, printed by a fake CLI (python -c).

SELF_SCENARIO = {
    "name": "self-test",
    "requests": [
        {"at_ms": 0, "id": "j1",
         "join": {"member_id": "", "group_instance_id": "leader", "bind": "L1"},
         "expect": {"error": "NONE", "member_id": "new", "generation_id": 1, "leader": "$L1",
                    "members": [{"member_id": "$L1", "group_instance_id": "leader"},
                                {"member_id": "$F1", "group_instance_id": "follower"}],
                    "skip_assignment": False, "at_ms": 100}},
        {"at_ms": 0,
         "join": {"member_id": "", "group_instance_id": "follower", "bind": "F1"},
         "expect": {"error": "NONE", "generation_id": 1, "leader": "$L1", "members": [], "at_ms": 100},
         "expect_group": {"state": "PreparingRebalance", "generation_id": 0, "leader": "$L1",
                          "members": ["$F1", "$L1"],
                          "static_members": {"leader": "$L1", "follower": "$F1"}}},
        {"at_ms": 100, "id": "s1",
         "sync": {"member_id": "$L1", "generation_id": 1, "group_instance_id": "leader",
                  "assignments": {"$L1": ["t-0"], "$F1": ["t-1"]}},
         "expect": {"error": "NONE", "assignment": ["t-0"], "at_ms": 100}},
        {"at_ms": 101, "id": "j2",
         "join": {"member_id": "", "group_instance_id": "follower", "bind": "F2"},
         "expect": {"error": "NONE", "member_id": "new", "generation_id": 1, "leader": "$L1",
                    "members": [], "at_ms": 101},
         "expect_group": {"state": "Stable", "generation_id": 1, "leader": "$L1",
                          "members": ["$L1", "$F2"],
                          "static_members": {"leader": "$L1", "follower": "$F2"}}},
        {"at_ms": 102, "id": "lv",
         "leave": {"members": [{"member_id": "", "group_instance_id": "nope"}]},
         "expect": {"error": "NONE", "members": [{"member_id": "", "group_instance_id": "nope",
                                                  "error": "UNKNOWN_MEMBER_ID"}]}},
        {"at_ms": 700, "tick": {},
         "expect_group": {"state": "Empty", "generation_id": 2, "leader": None, "members": []}},
    ],
}

SELF_SIM_SCENARIO = {
    "name": "self-test simulation",
    "consumers": [{"name": "A", "group_instance_id": "A"}],
    "actions": [{"at_ms": 0, "start": "A"}, {"at_ms": 60000, "end": {}}],
    "expect_summary": {"rebalances": 1, "fenced": ["A1", "B1"], "violations": [],
                       "partition_unavailable_ms": {"min": 4000, "max": 9000}},
}


def sim_trace(unavailable_ms):
    return [
        {"at_ms": 0, "type": "group", "after": "#0", "state": "PreparingRebalance", "generation_id": 0},
        {"at_ms": 3005, "type": "response", "request": "A/join#1", "api": "JoinGroup", "error": "NONE"},
        {"at_ms": 60000, "type": "group", "after": "#1", "state": "Stable", "generation_id": 1},
        {"type": "summary", "rebalances": 1, "generation_id": 1, "partition_moves": 0,
         "partition_unavailable_ms": unavailable_ms, "fenced": ["B1", "A1"], "violations": []},
    ]


L, F, F2 = "leader-0f3c-aaaa", "follower-77b1-bbbb", "follower-9e02-cccc"


def good_trace():
    """A trace that meets every expectation of SELF_SCENARIO. Members come in
    another order than expected, the empty group's leader is "" (not null), and
    there are line types and fields the checker must ignore."""
    return [
        {"at_ms": 0, "type": "group", "after": "j1", "state": "PreparingRebalance", "generation_id": 0,
         "leader": L, "members": [L], "static_members": {"leader": L}, "pending_members": []},
        {"at_ms": 0, "type": "group", "after": "#1", "state": "PreparingRebalance", "generation_id": 0,
         "leader": L, "members": [L, F], "static_members": {"leader": L, "follower": F}, "pending_members": []},
        {"at_ms": 50, "type": "event", "rule": "5.3", "text": "initial delay extended"},
        {"at_ms": 100, "type": "response", "request": "j1", "api": "JoinGroup", "error": "NONE",
         "member_id": L, "generation_id": 1, "leader": L, "protocol_name": "range", "skip_assignment": False,
         "members": [{"member_id": F, "group_instance_id": "follower"},
                     {"member_id": L, "group_instance_id": "leader"}]},
        {"at_ms": 100, "type": "response", "request": "#1", "api": "JoinGroup", "error": "NONE",
         "member_id": F, "generation_id": 1, "leader": L, "protocol_name": "range", "skip_assignment": False,
         "members": []},
        {"at_ms": 100, "type": "response", "request": "s1", "api": "SyncGroup", "error": "NONE",
         "assignment": ["t-0"]},
        {"at_ms": 100, "type": "group", "after": "s1", "state": "Stable", "generation_id": 1, "leader": L,
         "members": [L, F], "static_members": {"leader": L, "follower": F}, "pending_members": []},
        {"at_ms": 101, "type": "response", "request": "j2", "api": "JoinGroup", "error": "NONE",
         "member_id": F2, "generation_id": 1, "leader": L, "protocol_name": "range", "skip_assignment": False,
         "members": []},
        {"at_ms": 101, "type": "group", "after": "j2", "state": "Stable", "generation_id": 1, "leader": L,
         "members": [F2, L], "static_members": {"follower": F2, "leader": L}, "pending_members": []},
        {"at_ms": 102, "type": "response", "request": "lv", "api": "LeaveGroup", "error": "NONE",
         "members": [{"member_id": "", "group_instance_id": "nope", "error": "UNKNOWN_MEMBER_ID"}]},
        {"at_ms": 102, "type": "group", "after": "lv", "state": "Stable", "generation_id": 1, "leader": L,
         "members": [L, F2], "static_members": {"leader": L, "follower": F2}, "pending_members": []},
        {"at_ms": 700, "type": "group", "after": "#5", "state": "Empty", "generation_id": 2, "leader": "",
         "members": [], "static_members": {}, "pending_members": []},
    ]


def mutate(edit):
    trace = good_trace()
    edit(trace)
    return trace


def find(trace, **match):
    return next(line for line in trace if all(line.get(k) == v for k, v in match.items()))


def drop(trace, **match):
    trace.remove(find(trace, **match))


def fake_cli(stdout="", stderr="", code=0):
    program = "import sys; sys.stdout.write(%r); sys.stderr.write(%r); sys.exit(%d)" % (stdout, stderr, code)
    return shlex.join([sys.executable, "-c", program])


def ndjson(trace):
    return "".join(json.dumps(line) + "\n" for line in trace)


def self_test():
    resp = dict(type="response")
    cases = [
        # (description, fake CLI command, should pass, substrings the report must contain)
        ("all fields match", fake_cli(ndjson(good_trace())), True, ["PASS self-test"]),
        ("JoinGroup error differs", fake_cli(ndjson(mutate(
            lambda t: find(t, request="j1", **resp).update(error="FENCED_INSTANCE_ID")))),
         False, ["step j1: error expected \"NONE\", got \"FENCED_INSTANCE_ID\""]),
        ("deferred response released at another time", fake_cli(ndjson(mutate(
            lambda t: find(t, request="#1", **resp).update(at_ms=50)))),
         False, ["step #1: at_ms expected 100, got 50"]),
        ("leader's member list lacks a member", fake_cli(ndjson(mutate(
            lambda t: find(t, request="j1", **resp)["members"].pop(0)))),
         False, ["step j1: members expected"]),
        ("member ids right but instance ids swapped", fake_cli(ndjson(mutate(
            lambda t: find(t, request="j1", **resp).update(members=[
                {"member_id": F, "group_instance_id": "leader"},
                {"member_id": L, "group_instance_id": "follower"}])))),
         False, ["step j1: members expected"]),
        ("restart reuses an old id where a new one is expected", fake_cli(ndjson(mutate(
            lambda t: find(t, request="j2", **resp).update(member_id=F)))),
         False, ["step j2: member_id expected a new id, got $F1"]),
        ("skip_assignment is 0 instead of false", fake_cli(ndjson(mutate(
            lambda t: find(t, request="j1", **resp).update(skip_assignment=0)))),
         False, ["step j1: skip_assignment expected false, got 0"]),
        ("group state differs", fake_cli(ndjson(mutate(
            lambda t: find(t, type="group", after="j2").update(state="PreparingRebalance")))),
         False, ["step j2: group state expected \"Stable\", got \"PreparingRebalance\""]),
        ("static map points at the old id", fake_cli(ndjson(mutate(
            lambda t: find(t, type="group", after="j2").update(static_members={"leader": L, "follower": F})))),
         False, ["step j2: group static_members expected"]),
        ("per-member leave error differs", fake_cli(ndjson(mutate(
            lambda t: find(t, request="lv", **resp)["members"][0].update(error="NONE")))),
         False, ["step lv: members expected"]),
        ("expected response never printed", fake_cli(ndjson(mutate(
            lambda t: drop(t, request="s1", **resp)))),
         False, ["step s1: expected a response, none printed"]),
        ("group line missing for an unnamed step", fake_cli(ndjson(mutate(
            lambda t: drop(t, type="group", after="#5")))),
         False, ["step #5: expected a group line after it, none printed"]),
        ("CLI exits non-zero", fake_cli("", "error: requests[3].join.session_timeout_ms: expected 10..600000\n", 2),
         False, ["CLI exited 2", "requests[3].join.session_timeout_ms"]),
        ("CLI prints invalid JSON", fake_cli(ndjson(good_trace()) + "not json\n", "warning: x"),
         False, ["invalid JSON", "line 13", "warning: x"]),
    ]
    cases = [(d, c, p, n, SELF_SCENARIO) for d, c, p, n in cases] + [
        ("summary within bounds, lists in another order", fake_cli(ndjson(sim_trace(4000))), True,
         ["PASS self-test simulation"], SELF_SIM_SCENARIO),
        ("summary metric outside its bounds", fake_cli(ndjson(sim_trace(12000))), False,
         ["summary: partition_unavailable_ms expected {\"min\":4000,\"max\":9000}, got 12000"], SELF_SIM_SCENARIO),
    ]
    bad = 0
    for description, cli, should_pass, needles, scenario in cases:
        passed, report = check_run(scenario["name"], scenario,
                                   shlex.split(cli) + ["run", "self-test.json"], 30)
        fine = passed == should_pass and all(n in report for n in needles)
        bad += not fine
        print("%s %-52s -> %s" % ("ok " if fine else "BAD", description, report))
        if not fine:
            print("    expected %s containing %r" % ("PASS" if should_pass else "FAIL", needles))
    print("self-test: %d/%d cases behaved as expected" % (len(cases) - bad, len(cases)))
    return 0 if bad == 0 else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cli", help="the CLI command, e.g. 'target/release/groupscope'; run as COMMAND run FILE")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds allowed per CLI run (default 120)")
    ap.add_argument("--self-test", action="store_true", help="check the checker against built-in fake traces")
    ap.add_argument("files", nargs="*", metavar="FILE")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    if not args.cli or not args.files:
        ap.error("--cli COMMAND and at least one FILE are required (or --self-test)")
    passed = failed = 0
    for path in args.files:
        ok, report = check_file(args.cli, path, args.timeout)
        print(report, flush=True)
        passed += ok
        failed += not ok
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
