//! The reader on logs real brokers wrote (tests/logs/fixtures/, made by
//! tests/logs/story.py with real librdkafka consumers), and on damaged
//! lines.

use super::*;

fn read(path: &str) -> Reader {
    let text = std::fs::read_to_string(path).expect("fixture");
    let mut r = Reader::default();
    for (i, line) in text.lines().enumerate() {
        r.push("", i as u64 + 1, line);
    }
    r
}

fn strs(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

/// The story of story.py on Kafka 3.9's Scala coordinator: static a and b
/// and dynamic c form generation 1; a restarts (no rebalance); c leaves
/// (generation 2) and comes back (3); b is killed and its session runs out
/// (4); a second process with a's instance id fences the first; c leaves
/// at the end.
#[test]
fn kafka_3_9s_log_of_the_story() {
    let r = read("tests/logs/fixtures/kafka-3.9.1-classic.log");
    let s = r.summary(None);
    assert_eq!(s["group"], "orders-app");
    assert_eq!(s["protocol"], "classic");
    assert_eq!(s["rebalances"], 5);
    assert_eq!(s["generations"], json!([1, 2, 3, 4]));
    assert_eq!(strs(&s["instance_ids"]), ["a", "b"]);
    assert_eq!(strs(&s["fenced"]), ["a"]);
    assert_eq!(s["from"], "2026-12-06T12:51:19.912");
    let total = std::fs::read_to_string("tests/logs/fixtures/kafka-3.9.1-classic.log")
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .count() as u64;
    assert_eq!(r.lines_used + r.lines_unknown, total, "every line counted");
    assert!(r.lines_used >= 25, "{}", r.lines_used);
    let h = &r.groups["orders-app"];
    assert!(h.rebalancing_ms > 0);
}

/// The same story on Kafka 4.4's Java coordinator (the log was taken
/// before the classic group's last leave: four rebalances), beside the
/// consumer protocol's: its epochs bump for each join, leave and expiry,
/// the restart with -2 and the duplicate's refusal bump nothing.
#[test]
fn kafka_4_4s_log_of_both_protocols() {
    let r = read("tests/logs/fixtures/kafka-4.4.0-classic-and-consumer.log");
    let c = r.summary(Some("orders-app"));
    assert_eq!(c["protocol"], "classic");
    assert_eq!(c["rebalances"], 4);
    assert_eq!(c["generations"], json!([1, 2, 3, 4]));
    assert_eq!(strs(&c["fenced"]), ["a"]);
    let k = r.summary(Some("orders-848"));
    assert_eq!(k["protocol"], "consumer");
    assert_eq!(strs(&k["groups"]), ["orders-848", "orders-app"]);
    // Joins of a, b, c (2, 3, 4), c's leave (5) and return (6), b's
    // expiry (7), c's leave at the end (8).
    assert_eq!(k["rebalances"], 7);
    assert_eq!(k["generations"], json!([2, 4, 5, 6, 7]));
    assert_eq!(strs(&k["instance_ids"]), ["a", "b"]);
    assert_eq!(strs(&k["fenced"]), Vec::<String>::new());
}

#[test]
fn each_line_of_a_group_gives_events_then_its_group_line() {
    let mut r = Reader::default();
    let lines = [
        "[2026-12-06 12:51:29,110] INFO [GroupCoordinator 1]: Static member with groupInstanceId=a and unknown member id joins group g in Empty state. Created a new member id a-1 for this member and add to the group. (kafka.coordinator.group.GroupCoordinator)",
        "[2026-12-06 12:51:29,117] INFO [GroupCoordinator 1]: Preparing to rebalance group g in state PreparingRebalance with old generation 0 (__consumer_offsets-0) (reason: Adding new member a-1 with group instance id Some(a); client reason: not provided) (kafka.coordinator.group.GroupCoordinator)",
        "[2026-12-06 12:51:35,129] INFO [GroupCoordinator 1]: Stabilized group g generation 1 (__consumer_offsets-0) with 1 members (kafka.coordinator.group.GroupCoordinator)",
        "[2026-12-06 12:51:35,151] INFO [GroupCoordinator 1]: Assignment received from leader a-1 for group g for generation 1. The group has 1 members, 1 of which are static. (kafka.coordinator.group.GroupCoordinator)",
    ];
    let mut all = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let Taken::Used(out) = r.push("server.log", i as u64 + 1, l) else {
            panic!("line {i} not used");
        };
        all.extend(out.into_iter().map(|(_, v)| v));
    }
    let kinds: Vec<String> = all
        .iter()
        .map(|v| {
            v["event"]
                .as_str()
                .unwrap_or(v["type"].as_str().unwrap())
                .to_string()
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "member_added",
            "group",
            "rebalance_started",
            "state_changed",
            "group",
            "state_changed",
            "generation_started",
            "group",
            "assignment_received",
            "state_changed",
            "group"
        ]
    );
    let last = all.last().unwrap();
    assert_eq!(last["state"], "Stable");
    assert_eq!(last["generation_id"], 1);
    assert_eq!(last["leader"], "a-1");
    assert_eq!(last["static_members"], json!({"a": "a-1"}));
    assert_eq!(last["after"], "server.log:4");
    assert_eq!(all[0]["at_ms"], 0);
    assert_eq!(all[0]["line"], 1);
    assert_eq!(all[8]["at_ms"], 6041);
    assert_eq!(r.groups["g"].rebalancing_ms, 6034);
}

#[test]
fn damaged_lines_are_counted_never_a_panic() {
    let fixture =
        std::fs::read_to_string("tests/logs/fixtures/kafka-4.4.0-classic-and-consumer.log")
            .unwrap();
    let mut r = Reader::default();
    for (i, line) in fixture.lines().enumerate() {
        // Every prefix of every line, and the line cut in odd places.
        for cut in [line.len() / 3, line.len() / 2, line.len().saturating_sub(7)] {
            let cut = (0..=cut).rev().find(|c| line.is_char_boundary(*c)).unwrap();
            r.push("", i as u64, &line[..cut]);
        }
    }
    let weird = [
        "[2026-12-06 12:51:29,110] INFO [GroupCoordinator 1]: Static member with groupInstanceId=",
        "[2026-12-06 12:51:29,110] INFO [GroupCoordinator 1]: Stabilized group g generation x with y members",
        "[2026-12-06 12:51:29,110] INFO [GroupCoordinator id=1 topic=__consumer_offsets partition=0] [GroupId ",
        "[9999-99-99 99:99:99,999] INFO x",
        "\u{0}\u{1}[2026-12-06 12:51:29,110]",
        "2026-12-06T12:51:29.110+",
        "ÿÿÿÿ 2026-12-06 12:51:29",
    ];
    for w in weird {
        r.push("", 0, w);
    }
    let s = r.summary(None);
    assert!(s["lines_unknown"].as_u64().unwrap() > 0);
}

/// 3.9 does not log a restarted static member's new id; when it never
/// leads, its fencing names an id no line gave, and is still the group's.
#[test]
fn a_fencing_of_an_id_no_line_gave_is_the_instances_group() {
    let mut r = Reader::default();
    let lines = [
        "[2026-12-06 13:22:20,000] INFO [GroupCoordinator 1]: Static member with groupInstanceId=a and unknown member id joins group other in Empty state. Created a new member id a-0 for this member and add to the group. (kafka.coordinator.group.GroupCoordinator)",
        "[2026-12-06 13:22:21,000] INFO [GroupCoordinator 1]: Static member with groupInstanceId=a and unknown member id joins group g in Empty state. Created a new member id a-1 for this member and add to the group. (kafka.coordinator.group.GroupCoordinator)",
        "[2026-12-06 13:22:31,000] INFO [GroupCoordinator 1]: Static member with groupInstanceId=a and unknown member id joins group g in Stable state. Replacing previously mapped member a-1 with this groupInstanceId. (kafka.coordinator.group.GroupCoordinator)",
        "[2026-12-06 13:23:19,797] INFO [GroupCoordinator 1]: Static member with groupInstanceId=a and unknown member id joins group g in Stable state. Replacing previously mapped member a-2 with this groupInstanceId. (kafka.coordinator.group.GroupCoordinator)",
        "[2026-12-06 13:23:20,685] INFO [GroupCoordinator 1]: Request memberId=a-2 for static member with groupInstanceId=a is fenced by current memberId=a-3 during operation heartbeat (kafka.coordinator.group.GroupCoordinator)",
    ];
    for (i, l) in lines.iter().enumerate() {
        assert!(
            matches!(r.push("", i as u64 + 1, l), Taken::Used(_)),
            "line {i}"
        );
    }
    assert_eq!(r.summary(Some("g"))["fenced"], json!(["a"]));
    assert_eq!(r.summary(Some("other"))["fenced"], json!([]));
    assert_eq!(r.groups["g"].static_members["a"], "a-3");
}
