#!/usr/bin/env python3
"""GroupScope's own trace checker: runs scenario files and judges their traces.

    check-trace.py --cli COMMAND FILE... [--timeout SECONDS]
    check-trace.py --self-test

Written from the contract alone (docs/spec/scenario-format.md, sections "The
trace" and "Expectations"); Python 3 standard library only. It shares no code
with `groupscope check` and trusts nothing the CLI says about expectations: it
runs `COMMAND run FILE`, reads the NDJSON trace and compares it itself.

How the contract is read here:

* Steps are the entries of "requests" (protocol scenario) or "actions"
  (simulation scenario). A step is named by its "id", else by "#<index>".
* "expect" is compared with the `response` line whose "request" names the
  step, "expect_group" with the `group` line whose "after" names it, and the
  top-level "expect_summary" with the (last) `summary` line. A missing line,
  or more than one line for one step, is a failure.
* "$NAME" is the member_id of the response to the step whose `join` (or
  `consumer_heartbeat`) carries "bind": NAME, looked up over the whole trace
  before any comparison. A name with no such response is "not bound".
* "new" (member_id of a response): a non-empty id that no earlier response
  line revealed (as its member_id, its leader or a member_id in its members).
  Group and event lines do not count: a parked join's member is listed in
  group lines before its response reaches the client.
* "members" / "pending_members": a set. A string entry stands for
  {"member_id": string}; an object entry fits an actual entry that agrees on
  every key the object gives (a key the actual entry lacks reads as null).
  Expected and actual entries must pair off one to one.
* "leader": null and "" both mean "no leader" (and so does a missing field).
* summary "fenced": a set of consumer names.
* A numeric expectation may be a range {"min": a}, {"max": b} or both;
  bounds are inclusive and the actual value must be a number.
* Anything else: JSON equality ("$NAME" resolved first). true/false are never
  1/0, lists keep their order (an assignment is ordered), and an expected
  null also accepts a field the line leaves out.

Output: `PASS <name>` or `FAIL <name>: <problem>; <problem>...` per file, then
`N passed, M failed`; the exit status is 0 only when every file passed.
Problems name the step and the field: `step j1: error expected "NONE", got
"FENCED_INSTANCE_ID"`, `step s2: group state expected ...`, `summary: fenced
expected ...`. Actual ids that some binding stands for are shown as $NAME.
"""

import argparse
import io
import json
import os
import shlex
import subprocess
import sys
import tempfile
import unittest


# ---------------------------------------------------------------------------
# Small value helpers


class _Missing:
    """Stands for a field the trace line does not have."""

    def __repr__(self):
        return "(absent)"


MISSING = _Missing()


def is_num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def json_equal(want, got):
    """Structural JSON equality in which booleans are not numbers."""
    if isinstance(want, bool) or isinstance(got, bool):
        return isinstance(want, bool) and isinstance(got, bool) and want == got
    if is_num(want) or is_num(got):
        return is_num(want) and is_num(got) and want == got
    if isinstance(want, list):
        return (isinstance(got, list) and len(got) == len(want)
                and all(json_equal(w, g) for w, g in zip(want, got)))
    if isinstance(want, dict):
        return (isinstance(got, dict) and set(got) == set(want)
                and all(json_equal(want[k], got[k]) for k in want))
    return type(want) is type(got) and want == got


def range_of(spec):
    """(low, high) when `spec` is a range expectation, else None."""
    if not isinstance(spec, dict) or not spec:
        return None
    if any(k not in ("min", "max") or not is_num(v) for k, v in spec.items()):
        return None
    return spec.get("min"), spec.get("max")


def within(bounds, value):
    low, high = bounds
    if not is_num(value):
        return False
    return (low is None or value >= low) and (high is None or value <= high)


def compact(value):
    """An expectation as the file wrote it, on one line."""
    return json.dumps(value, separators=(",", ":"))


def entry_fits(pattern, actual):
    """One expected members[] entry against one actual entry."""
    if not isinstance(pattern, dict):
        pattern = {"member_id": pattern}
    if not isinstance(actual, dict):
        actual = {"member_id": actual}
    for key, want in pattern.items():
        if not json_equal(want, actual.get(key)):
            return False
    return True


def pair_off(expected, actual):
    """True when expected and actual entries pair off one to one, each pair
    fitting (maximum bipartite matching by augmenting paths)."""
    if len(expected) != len(actual):
        return False
    fits = [[j for j, a in enumerate(actual) if entry_fits(e, a)] for e in expected]
    holder = {}  # actual index -> expected index currently holding it

    def claim(i, visited):
        for j in fits[i]:
            if j in visited:
                continue
            visited.add(j)
            if j not in holder or claim(holder[j], visited):
                holder[j] = i
                return True
        return False

    for i in range(len(expected)):
        if not claim(i, set()):
            return False
    return True


def as_set(values):
    return {json.dumps(v, sort_keys=True) for v in values}


# ---------------------------------------------------------------------------
# The trace


class BadTrace(Exception):
    pass


def read_ndjson(text):
    """The trace's objects, one per non-blank line."""
    out = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if raw.strip() == "":
            continue
        try:
            obj = json.loads(raw)
        except ValueError as err:
            raise BadTrace("line %d: %s: %.80r" % (number, err, raw))
        if not isinstance(obj, dict):
            raise BadTrace("line %d is not an object: %.80r" % (number, raw))
        out.append(obj)
    return out


def revealed_ids(line):
    """Member ids a response line hands to its client."""
    found = []
    for field in ("member_id", "leader"):
        if isinstance(line.get(field), str):
            found.append(line[field])
    members = line.get("members")
    if isinstance(members, list):
        for m in members:
            mid = m.get("member_id") if isinstance(m, dict) else m
            if isinstance(mid, str):
                found.append(mid)
    return [x for x in found if x]


class TraceIndex:
    """Where each step's lines are in the trace."""

    def __init__(self, lines):
        self.lines = lines
        self.responses = {}   # request key -> [position]
        self.group_lines = {}  # after key -> [position]
        self.summaries = []
        self.first_revealed = {}  # member id -> position of first response naming it
        for pos, line in enumerate(lines):
            kind = line.get("type")
            if kind == "response":
                self.responses.setdefault(line.get("request"), []).append(pos)
                for mid in revealed_ids(line):
                    self.first_revealed.setdefault(mid, pos)
            elif kind == "group":
                self.group_lines.setdefault(line.get("after"), []).append(pos)
            elif kind == "summary":
                self.summaries.append(pos)

    def is_new(self, member_id, pos):
        return self.first_revealed.get(member_id, pos) >= pos


# ---------------------------------------------------------------------------
# Steps and bindings


BINDING_KINDS = ("join", "consumer_heartbeat")


def scenario_steps(scenario):
    """[(key, step)] in file order."""
    for list_name in ("requests", "actions"):
        listed = scenario.get(list_name)
        if isinstance(listed, list):
            break
    else:
        return []
    named = []
    for index, step in enumerate(listed):
        label = step.get("id") if isinstance(step, dict) else None
        if not (isinstance(label, str) and label):
            label = "#%d" % index
        named.append((label, step))
    return named


class NotBound(Exception):
    pass


class Bindings:
    """$NAME -> member id, from the responses to the binding steps."""

    def __init__(self, steps, index):
        self.ids = {}
        for key, step in steps:
            if not isinstance(step, dict):
                continue
            for kind in BINDING_KINDS:
                body = step.get(kind)
                if not (isinstance(body, dict) and isinstance(body.get("bind"), str)):
                    continue
                answers = index.responses.get(key)
                if answers:
                    self.ids[body["bind"]] = index.lines[answers[0]].get("member_id")
        self.alias = {}
        for name, mid in self.ids.items():
            if isinstance(mid, str) and mid and mid not in self.alias:
                self.alias[mid] = "$" + name

    def substitute(self, value):
        if isinstance(value, str):
            if len(value) > 1 and value[0] == "$":
                if value[1:] not in self.ids:
                    raise NotBound(value)
                return self.ids[value[1:]]
            return value
        if isinstance(value, list):
            return [self.substitute(v) for v in value]
        if isinstance(value, dict):
            return {k: self.substitute(v) for k, v in value.items()}
        return value

    def render(self, value):
        """An actual value for a message; bound ids appear as $NAME."""
        if value is MISSING:
            return "(absent)"
        if isinstance(value, str):
            return self.alias.get(value) or json.dumps(value)
        if isinstance(value, list):
            return "[%s]" % ", ".join(self.render(v) for v in value)
        if isinstance(value, dict):
            return "{%s}" % ", ".join("%s: %s" % (json.dumps(k), self.render(v))
                                      for k, v in value.items())
        return json.dumps(value)


# ---------------------------------------------------------------------------
# Judging one scenario


SET_OF_MEMBERS = ("members", "pending_members")
NO_LEADER = (None, "", MISSING)


class Judge:
    def __init__(self, scenario, lines):
        self.scenario = scenario
        self.index = TraceIndex(lines)
        self.steps = scenario_steps(scenario)
        self.bound = Bindings(self.steps, self.index)

    def problems(self):
        found = []
        for key, step in self.steps:
            if not isinstance(step, dict):
                continue
            if "expect" in step:
                found += self.block(step["expect"], "step %s: " % key, "response",
                                    self.index.responses.get(key, []),
                                    "expected a response, none printed",
                                    "%d responses printed, expected one")
            if "expect_group" in step:
                found += self.block(step["expect_group"], "step %s: " % key, "group",
                                    self.index.group_lines.get(key, []),
                                    "expected a group line after it, none printed",
                                    "%d group lines after it, expected one")
        if "expect_summary" in self.scenario:
            positions = self.index.summaries[-1:]
            found += self.block(self.scenario["expect_summary"], "summary: ", "summary",
                                positions, "no summary line printed", "%d summary lines")
        return found

    def block(self, expectations, prefix, kind, positions, none_msg, many_msg):
        if not isinstance(expectations, dict):
            return [prefix + "the expectation block is not an object"]
        if not positions:
            return [prefix + none_msg]
        out = []
        if len(positions) > 1:
            out.append(prefix + many_msg % len(positions))
        pos = positions[0]
        line = self.index.lines[pos]
        label = "group " if kind == "group" else ""
        for field, want in expectations.items():
            got = line.get(field, MISSING)
            why = self.field(kind, field, want, got, pos)
            if why is not None:
                out.append(prefix + label + field + why)
        return out

    def field(self, kind, field, want, got, pos):
        """None when `got` meets `want`, else the rest of the message."""
        if kind == "response" and field == "member_id" and want == "new":
            shown = self.bound.render(got)
            if not (isinstance(got, str) and got):
                return " expected a new id, got %s" % shown
            if not self.index.is_new(got, pos):
                return " expected a new id, got %s, already seen in an earlier response" % shown
            return None
        try:
            target = self.bound.substitute(want)
        except NotBound as err:
            return ": %s is not bound (the step that binds it got no response)" % err
        if self.meets(kind, field, target, got):
            return None
        return " expected %s, got %s" % (compact(want), self.bound.render(got))

    @staticmethod
    def meets(kind, field, target, got):
        bounds = range_of(target)
        if bounds is not None:
            return within(bounds, got)
        if field == "leader" and target in (None, ""):
            return got in NO_LEADER
        if field in SET_OF_MEMBERS and isinstance(target, list):
            return isinstance(got, list) and pair_off(target, got)
        if kind == "summary" and field == "fenced" and isinstance(target, list):
            return isinstance(got, list) and as_set(target) == as_set(got)
        if got is MISSING:
            return target is None
        return json_equal(target, got)


# ---------------------------------------------------------------------------
# Running files


def flatten(text, limit=300):
    return " | ".join(text.strip()[:limit].splitlines())


def verdict(title, scenario, command, timeout):
    """(passed, report line) for one scenario run by `command`."""
    try:
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, timeout=timeout)
    except OSError as err:
        return False, "FAIL %s: cannot run the CLI %r: %s" % (title, command[0], err)
    except subprocess.TimeoutExpired:
        return False, "FAIL %s: the CLI ran longer than %gs" % (title, timeout)
    if done.returncode != 0:
        return False, "FAIL %s: CLI exited %d; stderr: %s" % (
            title, done.returncode, flatten(done.stderr or ""))
    try:
        lines = read_ndjson(done.stdout or "")
    except BadTrace as err:
        return False, "FAIL %s: CLI printed invalid JSON (%s); stderr: %s" % (
            title, err, flatten(done.stderr or ""))
    try:
        problems = Judge(scenario, lines).problems()
    except Exception as err:  # an odd trace must not stop the other files
        return False, "FAIL %s: could not judge the trace: %r" % (title, err)
    if problems:
        return False, "FAIL %s: %s" % (title, "; ".join(problems))
    return True, "PASS %s" % title


def judge_file(cli, path, timeout):
    title = os.path.basename(path)
    try:
        with open(path, encoding="utf-8") as handle:
            scenario = json.load(handle)
    except (OSError, ValueError) as err:
        return False, "FAIL %s: cannot read scenario file: %s" % (title, err)
    if not isinstance(scenario, dict):
        return False, "FAIL %s: scenario file is not a JSON object" % title
    if isinstance(scenario.get("name"), str):
        title = scenario["name"]
    return verdict(title, scenario, shlex.split(cli) + ["run", path], timeout)


def run_files(cli, paths, timeout, out):
    good = bad = 0
    for path in paths:
        ok, report = judge_file(cli, path, timeout)
        out.write(report + "\n")
        out.flush()
        if ok:
            good += 1
        else:
            bad += 1
    out.write("%d passed, %d failed\n" % (good, bad))
    return 1 if bad else 0


# ---------------------------------------------------------------------------
# Self-test (python3 check-trace.py --self-test)

LEAD = "lead-5d1e-0001"
FOLLOW = "follow-88aa-0002"
FOLLOW2 = "follow-c03b-0003"
JOINER = "client-4f4f-0004"


def toy_scenario():
    """A protocol scenario whose expectations toy_trace() meets."""
    return {
        "name": "toy",
        "requests": [
            {"at_ms": 0, "id": "a", "join": {"member_id": "", "group_instance_id": "p", "bind": "P"},
             "expect": {"error": "NONE", "member_id": "new", "leader": "$P", "generation_id": 1,
                        "at_ms": 30, "skip_assignment": False,
                        "members": [{"member_id": "$Q", "group_instance_id": "q"},
                                    {"member_id": "$P"}]},
             "expect_group": {"state": "PreparingRebalance", "members": ["$P"], "leader": "$P"}},
            {"at_ms": 10, "join": {"member_id": "", "group_instance_id": "q", "bind": "Q"},
             "expect": {"error": "NONE", "member_id": "$Q", "members": [], "at_ms": 30},
             "expect_group": {"members": ["$Q", "$P"], "pending_members": [],
                              "static_members": {"p": "$P", "q": "$Q"}}},
            {"at_ms": 30, "id": "s", "sync": {"member_id": "$P", "generation_id": 1},
             "expect": {"error": "NONE", "assignment": ["t-1", "t-0"]}},
            {"at_ms": 40, "id": "r", "join": {"member_id": "", "group_instance_id": "q", "bind": "Q2"},
             "expect": {"member_id": "new", "leader": "$P", "protocol_name": None},
             "expect_group": {"static_members": {"p": "$P", "q": "$Q2"}}},
            {"at_ms": 50, "id": "d", "join": {"member_id": "", "version": 4, "bind": "D"},
             "expect": {"error": "MEMBER_ID_REQUIRED", "leader": None, "member_id": "new",
                        "generation_id": {"min": -1, "max": -1}},
             "expect_group": {"pending_members": ["$D"]}},
            {"at_ms": 900, "id": "t", "tick": {},
             "expect_group": {"state": "Empty", "leader": "", "members": [], "generation_id": {"min": 2}}},
        ],
    }


def toy_trace():
    """Meets toy_scenario(); members come in other orders than expected, the
    empty group's leader is null, and there are lines the checker ignores."""
    return [
        {"at_ms": 0, "type": "event", "event": "member_added", "member_id": LEAD, "text": "x"},
        {"at_ms": 0, "type": "group", "after": "a", "state": "PreparingRebalance", "generation_id": 0,
         "leader": LEAD, "members": [LEAD], "static_members": {"p": LEAD}, "pending_members": []},
        {"at_ms": 10, "type": "group", "after": "#1", "state": "PreparingRebalance", "generation_id": 0,
         "leader": LEAD, "members": [LEAD, FOLLOW], "static_members": {"q": FOLLOW, "p": LEAD},
         "pending_members": []},
        {"at_ms": 30, "type": "response", "request": "a", "api": "JoinGroup", "error": "NONE",
         "member_id": LEAD, "generation_id": 1, "leader": LEAD, "skip_assignment": False,
         "members": [{"member_id": LEAD, "group_instance_id": "p"},
                     {"member_id": FOLLOW, "group_instance_id": "q"}]},
        {"at_ms": 30, "type": "response", "request": "#1", "api": "JoinGroup", "error": "NONE",
         "member_id": FOLLOW, "generation_id": 1, "leader": LEAD, "skip_assignment": False,
         "members": []},
        {"at_ms": 30, "type": "response", "request": "s", "api": "SyncGroup", "error": "NONE",
         "assignment": ["t-1", "t-0"]},
        {"at_ms": 30, "type": "group", "after": "s", "state": "Stable", "generation_id": 1},
        {"at_ms": 40, "type": "response", "request": "r", "api": "JoinGroup", "error": "NONE",
         "member_id": FOLLOW2, "generation_id": 1, "leader": LEAD, "members": []},
        {"at_ms": 40, "type": "group", "after": "r", "state": "Stable", "generation_id": 1,
         "static_members": {"p": LEAD, "q": FOLLOW2}},
        {"at_ms": 50, "type": "response", "request": "d", "api": "JoinGroup",
         "error": "MEMBER_ID_REQUIRED", "member_id": JOINER, "generation_id": -1, "leader": "",
         "members": []},
        {"at_ms": 50, "type": "group", "after": "d", "state": "Stable", "generation_id": 1,
         "pending_members": [JOINER]},
        {"at_ms": 900, "type": "group", "after": "t", "state": "Empty", "generation_id": 2,
         "leader": None, "members": []},
        {"at_ms": 900, "type": "client", "consumer": "nobody"},
    ]


def toy_simulation():
    return {
        "name": "toy-sim",
        "consumers": [{"name": "A"}, {"name": "B"}],
        "actions": [{"at_ms": 0, "start": "A"}, {"at_ms": 0, "id": "go", "start": "B",
                                                 "expect_group": {"generation_id": 1}}],
        "expect_summary": {"rebalances": 2, "fenced": ["B", "A"], "violations": [],
                           "partition_unavailable_ms": {"min": 100, "max": 200},
                           "all_stopped_ms": {"max": 0}},
    }


def toy_simulation_trace():
    return [
        {"at_ms": 5, "type": "response", "request": "A/join#1", "api": "JoinGroup", "error": "NONE"},
        {"at_ms": 0, "type": "group", "after": "#0", "generation_id": 0},
        {"at_ms": 0, "type": "group", "after": "go", "generation_id": 1},
        {"type": "summary", "rebalances": 2, "fenced": ["A", "B"], "violations": [],
         "partition_unavailable_ms": 150, "all_stopped_ms": 0},
    ]


def line_where(lines, **pattern):
    for line in lines:
        if all(line.get(k) == v for k, v in pattern.items()):
            return line
    raise KeyError(pattern)


class ValueRules(unittest.TestCase):
    def test_equality_keeps_booleans_apart(self):
        self.assertTrue(json_equal(False, False))
        self.assertFalse(json_equal(0, False))
        self.assertFalse(json_equal(True, 1))
        self.assertFalse(json_equal([1, True], [1, 1]))
        self.assertTrue(json_equal(3, 3.0))
        self.assertFalse(json_equal("1", 1))
        self.assertFalse(json_equal(None, 0))

    def test_equality_of_containers(self):
        self.assertTrue(json_equal({"a": [1, {"b": None}]}, {"a": [1, {"b": None}]}))
        self.assertFalse(json_equal({"a": 1}, {"a": 1, "b": 2}))
        self.assertFalse(json_equal(["t-0", "t-1"], ["t-1", "t-0"]))

    def test_ranges(self):
        self.assertEqual(range_of({"min": 1, "max": 3}), (1, 3))
        self.assertEqual(range_of({"max": 0}), (None, 0))
        self.assertIsNone(range_of({}))
        self.assertIsNone(range_of({"min": 1, "other": 2}))
        self.assertIsNone(range_of({"min": True}))
        self.assertTrue(within((1, 3), 1) and within((1, 3), 3))
        self.assertFalse(within((1, 3), 4) or within((1, None), 0) or within((None, 0), 1))
        self.assertFalse(within((None, 5), True))
        self.assertFalse(within((None, 5), MISSING))

    def test_member_sets(self):
        got = [{"member_id": "x", "group_instance_id": "a"},
               {"member_id": "y", "group_instance_id": None}]
        self.assertTrue(pair_off(["y", "x"], got))
        self.assertTrue(pair_off([{"member_id": "y", "group_instance_id": None},
                                  {"group_instance_id": "a"}], got))
        self.assertFalse(pair_off(["x"], got))
        self.assertFalse(pair_off(["x", "y", "z"], got))
        self.assertFalse(pair_off(["x", "x"], got))
        self.assertFalse(pair_off([{"member_id": "x", "group_instance_id": None}, "y"], got))
        # a greedy choice would give the first pattern "x" and strand the second
        self.assertTrue(pair_off([{"error": "NONE"}, {"member_id": "x"}],
                                 [{"member_id": "x", "error": "NONE"},
                                  {"member_id": "y", "error": "NONE"}]))
        self.assertTrue(pair_off(["x"], ["x"]))

    def test_read_ndjson(self):
        self.assertEqual(read_ndjson('{"a":1}\n\n{"b":2}\n'), [{"a": 1}, {"b": 2}])
        with self.assertRaises(BadTrace):
            read_ndjson('{"a":1}\nnope\n')
        with self.assertRaises(BadTrace):
            read_ndjson('[1]\n')


class Judging(unittest.TestCase):
    def problems(self, scenario=None, lines=None, change=None):
        scenario = scenario if scenario is not None else toy_scenario()
        lines = lines if lines is not None else toy_trace()
        if change:
            change(scenario, lines)
        return Judge(scenario, lines).problems()

    def fails_with(self, needle, **kw):
        found = self.problems(**kw)
        self.assertTrue(any(needle in p for p in found), "%r not in %r" % (needle, found))

    def test_the_toy_trace_meets_every_expectation(self):
        self.assertEqual(self.problems(), [])
        self.assertEqual(self.problems(toy_simulation(), toy_simulation_trace()), [])

    def test_wrong_error(self):
        self.fails_with('step a: error expected "NONE", got "FENCED_INSTANCE_ID"', change=lambda s, t:
                        line_where(t, request="a").update(error="FENCED_INSTANCE_ID"))

    def test_wrong_generation_and_time(self):
        def change(s, t):
            s["requests"][0]["expect"]["generation_id"] = 2
            s["requests"][1]["expect"]["at_ms"] = 31
        found = self.problems(change=change)
        self.assertIn("step a: generation_id expected 2, got 1", found)
        self.assertIn("step #1: at_ms expected 31, got 30", found)

    def test_leader_names(self):
        self.fails_with('step a: leader expected "$Q", got $P', change=lambda s, t:
                        s["requests"][0]["expect"].update(leader="$Q"))
        self.fails_with("step a: leader expected null, got $P", change=lambda s, t:
                        s["requests"][0]["expect"].update(leader=None))
        self.fails_with('step d: leader expected "$P", got ""', change=lambda s, t:
                        s["requests"][4]["expect"].update(leader="$P"))
        self.fails_with('step t: group leader expected "$P", got null', change=lambda s, t:
                        s["requests"][5]["expect_group"].update(leader="$P"))

    def test_members(self):
        self.fails_with("step a: members expected", change=lambda s, t:
                        line_where(t, request="a")["members"].pop())
        self.fails_with("step a: members expected", change=lambda s, t:
                        line_where(t, request="a")["members"][1].update(group_instance_id="p"))
        self.fails_with("step #1: members expected", change=lambda s, t:
                        s["requests"][1]["expect"].update(members=["$P", "$Q"]))
        self.fails_with("step #1: group members expected", change=lambda s, t:
                        s["requests"][1]["expect_group"].update(members=["$P"]))
        self.fails_with("step d: group pending_members expected [], got [$D]", change=lambda s, t:
                        s["requests"][4]["expect_group"].update(pending_members=[]))

    def test_assignment_is_ordered(self):
        self.fails_with('step s: assignment expected ["t-0","t-1"], got ["t-1", "t-0"]',
                        change=lambda s, t: s["requests"][2]["expect"].update(assignment=["t-0", "t-1"]))

    def test_booleans_are_not_numbers(self):
        self.fails_with("step a: skip_assignment expected 0, got false", change=lambda s, t:
                        s["requests"][0]["expect"].update(skip_assignment=0))

    def test_new_ids(self):
        self.fails_with("step r: member_id expected a new id, got $Q, already seen in an earlier response",
                        change=lambda s, t: line_where(t, request="r").update(member_id=FOLLOW))
        self.fails_with("step s: member_id expected a new id, got (absent)", change=lambda s, t:
                        s["requests"][2]["expect"].update(member_id="new"))
        self.fails_with('step d: member_id expected a new id, got ""', change=lambda s, t:
                        line_where(t, request="d").update(member_id=""))

    def test_bound_names(self):
        self.fails_with('step r: member_id expected "$Q", got $Q2', change=lambda s, t:
                        s["requests"][3]["expect"].update(member_id="$Q"))
        self.fails_with("step r: member_id: $NOPE is not bound", change=lambda s, t:
                        s["requests"][3]["expect"].update(member_id="$NOPE"))
        # the binding join got no response: its name is not bound
        self.fails_with("step r: leader: $P is not bound", change=lambda s, t:
                        t.remove(line_where(t, request="a")))

    def test_absent_fields(self):
        self.fails_with("step s: generation_id expected 1, got (absent)", change=lambda s, t:
                        s["requests"][2]["expect"].update(generation_id=1))
        self.fails_with("step s: group no_field expected 1, got (absent)", change=lambda s, t:
                        s["requests"][2].update(expect_group={"no_field": 1}))

    def test_static_members(self):
        self.fails_with("step r: group static_members expected", change=lambda s, t:
                        s["requests"][3]["expect_group"].update(static_members={"p": "$P", "q": "$Q"}))

    def test_missing_and_doubled_lines(self):
        self.fails_with("step s: expected a response, none printed", change=lambda s, t:
                        t.remove(line_where(t, request="s")))
        self.fails_with("step t: expected a group line after it, none printed", change=lambda s, t:
                        t.remove(line_where(t, after="t")))
        self.fails_with("step s: 2 responses printed", change=lambda s, t:
                        t.append(dict(line_where(t, request="s"))))
        self.fails_with("summary: no summary line printed",
                        scenario=toy_simulation(), lines=toy_simulation_trace()[:-1])

    def test_every_problem_is_reported(self):
        def change(s, t):
            s["requests"][0]["expect"]["error"] = "X"
            s["requests"][5]["expect_group"]["state"] = "Dead"
        self.assertEqual(len(self.problems(change=change)), 2)

    def test_summary(self):
        sim = toy_simulation()

        def with_summary(**fields):
            lines = toy_simulation_trace()
            lines[-1].update(fields)
            return Judge(sim, lines).problems()
        self.assertIn('summary: partition_unavailable_ms expected {"min":100,"max":200}, got 201',
                      with_summary(partition_unavailable_ms=201))
        self.assertIn('summary: all_stopped_ms expected {"max":0}, got 1', with_summary(all_stopped_ms=1))
        self.assertIn('summary: fenced expected ["B","A"], got ["A"]', with_summary(fenced=["A"]))
        self.assertIn('summary: violations expected [], got ["x"]', with_summary(violations=["x"]))
        self.assertIn("summary: rebalances expected 2, got 3", with_summary(rebalances=3))
        self.assertIn('summary: rebalances expected 2, got "2"', with_summary(rebalances="2"))
        # the last summary line counts
        lines = toy_simulation_trace()
        lines.insert(0, dict(lines[-1], rebalances=7))
        self.assertEqual(Judge(sim, lines).problems(), [])


def fake_cli(stdout, stderr="", status=0):
    """A CLI command that prints a canned trace whatever file it is given."""
    program = "import sys; sys.stdout.write(%r); sys.stderr.write(%r); sys.exit(%d)" % (
        stdout, stderr, status)
    return " ".join(shlex.quote(part) for part in (sys.executable, "-c", program))


def as_ndjson(lines):
    return "".join(json.dumps(line) + "\n" for line in lines)


class CommandLine(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.file = os.path.join(self.dir.name, "toy.json")
        with open(self.file, "w", encoding="utf-8") as handle:
            json.dump(toy_scenario(), handle)

    def tearDown(self):
        self.dir.cleanup()

    def run_main(self, cli, paths):
        out = io.StringIO()
        status = run_files(cli, paths, 60, out)
        return status, out.getvalue().splitlines()

    def test_passing_file(self):
        status, lines = self.run_main(fake_cli(as_ndjson(toy_trace())), [self.file])
        self.assertEqual((status, lines), (0, ["PASS toy", "1 passed, 0 failed"]))

    def test_failing_file_and_count(self):
        trace = toy_trace()
        line_where(trace, request="a")["error"] = "UNKNOWN_MEMBER_ID"
        status, lines = self.run_main(fake_cli(as_ndjson(trace)), [self.file, self.file])
        self.assertEqual(status, 1)
        self.assertTrue(lines[0].startswith('FAIL toy: step a: error expected "NONE", got "UNKNOWN_MEMBER_ID"'))
        self.assertEqual(lines[-1], "0 passed, 2 failed")

    def test_cli_errors(self):
        status, lines = self.run_main(fake_cli("", "error: requests[0].join: bad\n", 2), [self.file])
        self.assertEqual(status, 1)
        self.assertIn("CLI exited 2", lines[0])
        self.assertIn("requests[0].join: bad", lines[0])
        status, lines = self.run_main(fake_cli(as_ndjson(toy_trace()) + "oops\n"), [self.file])
        self.assertIn("invalid JSON", lines[0])
        self.assertIn("line 14", lines[0])

    def test_unreadable_scenario(self):
        broken = os.path.join(self.dir.name, "broken.json")
        with open(broken, "w", encoding="utf-8") as handle:
            handle.write("{")
        status, lines = self.run_main(fake_cli(""), [broken, self.file + ".missing"])
        self.assertEqual(status, 1)
        self.assertTrue(lines[0].startswith("FAIL broken.json: cannot read scenario file"))
        self.assertEqual(lines[-1], "0 passed, 2 failed")


def self_test():
    loader = unittest.defaultTestLoader
    suite = unittest.TestSuite()
    for case in (ValueRules, Judging, CommandLine):
        suite.addTests(loader.loadTestsFromTestCase(case))
    result = unittest.TextTestRunner(stream=sys.stdout, verbosity=2).run(suite)
    return 0 if result.wasSuccessful() else 1


# ---------------------------------------------------------------------------


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Run GroupScope scenario files and check their traces against their expectations.")
    parser.add_argument("--cli", metavar="COMMAND",
                        help="the CLI, e.g. target/release/groupscope (run as COMMAND run FILE)")
    parser.add_argument("--timeout", type=float, default=120.0,
                        help="seconds allowed for each CLI run (default 120)")
    parser.add_argument("--self-test", action="store_true",
                        help="run the checker's own unit tests")
    parser.add_argument("files", nargs="*", metavar="FILE")
    args = parser.parse_args(argv)
    if args.self_test:
        return self_test()
    if not args.cli or not args.files:
        parser.error("give --cli COMMAND and at least one FILE, or --self-test")
    return run_files(args.cli, args.files, args.timeout, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
