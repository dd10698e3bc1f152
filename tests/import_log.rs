//! `groupscope import-log` on logs real brokers wrote
//! (tests/logs/fixtures/): the summary, the NDJSON history, two files
//! merged by time, the lines not understood, and bad input named.

use serde_json::Value;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_groupscope");
const LOG39: &str = "tests/logs/fixtures/kafka-3.9.1-classic.log";
const LOG44: &str = "tests/logs/fixtures/kafka-4.4.0-classic-and-consumer.log";

fn import(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN)
        .arg("import-log")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

#[test]
fn the_summary_of_a_3_9_log() {
    let (code, out, err) = import(&[LOG39, "--summary"]);
    assert_eq!(code, 0, "{err}");
    let s: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(s["group"], "orders-app");
    assert_eq!(s["rebalances"], 5);
    assert_eq!(s["generations"], serde_json::json!([1, 2, 3, 4]));
    assert_eq!(s["fenced"], serde_json::json!(["a"]));
}

#[test]
fn the_history_is_trace_lines_in_time_order_with_their_source_line() {
    let (code, out, err) = import(&[LOG44, "--group", "orders-848"]);
    assert_eq!(code, 0, "{err}");
    let trace = lines(&out);
    assert!(trace.len() > 20);
    let times: Vec<u64> = trace.iter().map(|l| l["at_ms"].as_u64().unwrap()).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]));
    let events: Vec<&str> = trace.iter().filter_map(|l| l["event"].as_str()).collect();
    for e in [
        "member_added",
        "group_epoch_bumped",
        "target_computed",
        "member_away",
        "member_replaced",
        "member_refused",
    ] {
        assert!(events.contains(&e), "{e} in {events:?}");
    }
    let fixture = std::fs::read_to_string(LOG44).unwrap();
    let source: Vec<&str> = fixture.lines().collect();
    for l in trace.iter().filter(|l| l["type"] == "event") {
        let n = l["line"].as_u64().unwrap() as usize;
        assert!(
            source[n - 1].contains("orders-848"),
            "line {n} is the group's"
        );
    }
    assert!(trace
        .iter()
        .all(|l| l["type"] != "group" || l["protocol"] == "consumer"));
}

#[test]
fn two_files_are_merged_by_time() {
    let dir = std::env::temp_dir().join(format!("groupscope-import-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fixture = std::fs::read_to_string(LOG39).unwrap();
    let (mut odd, mut even) = (String::new(), String::new());
    for (i, l) in fixture.lines().enumerate() {
        let half = if i % 2 == 0 { &mut even } else { &mut odd };
        half.push_str(l);
        half.push('\n');
    }
    let (a, b) = (dir.join("a.log"), dir.join("b.log"));
    std::fs::write(&a, even).unwrap();
    std::fs::write(&b, odd).unwrap();
    let (code, out, err) = import(&[b.to_str().unwrap(), a.to_str().unwrap(), "--summary"]);
    assert_eq!(code, 0, "{err}");
    let (_, whole, _) = import(&[LOG39, "--summary"]);
    let (x, y): (Value, Value) = (
        serde_json::from_str(&out).unwrap(),
        serde_json::from_str(&whole).unwrap(),
    );
    for k in [
        "rebalances",
        "generations",
        "instance_ids",
        "fenced",
        "lines_used",
        "lines_unknown",
        "from",
        "to",
    ] {
        assert_eq!(x[k], y[k], "{k}");
    }
    let (_, trace, _) = import(&[a.to_str().unwrap(), b.to_str().unwrap()]);
    let trace = lines(&trace);
    assert!(trace
        .iter()
        .any(|l| l["source"].as_str().is_some_and(|s| s.ends_with("a.log"))));
    assert!(trace
        .iter()
        .any(|l| l["source"].as_str().is_some_and(|s| s.ends_with("b.log"))));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_lines_not_understood_can_be_listed() {
    let (_, summary, _) = import(&[LOG39, "--summary"]);
    let s: Value = serde_json::from_str(&summary).unwrap();
    let (code, out, _) = import(&[LOG39, "--unknown"]);
    assert_eq!(code, 0);
    assert_eq!(
        out.lines().count() as u64,
        s["lines_unknown"].as_u64().unwrap()
    );
    assert!(out
        .lines()
        .all(|l| l.split(':').next().unwrap().parse::<u64>().is_ok()));
}

#[test]
fn bad_input_is_named() {
    let (code, _, err) = import(&[LOG39, "--group", "nope"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--group \"nope\"") && err.contains("orders-app"),
        "{err}"
    );
    let (code, _, err) = import(&["no/such/file.log", "--summary"]);
    assert_eq!(code, 2);
    assert!(err.contains("no/such/file.log"), "{err}");
    let (code, _, err) = import(&["Cargo.toml"]);
    assert_eq!(code, 2);
    assert!(err.contains("no consumer group"), "{err}");
}

/// The what-if scenario of a classic log, run as it is, has the log's
/// rebalances and fencing: the same members did the same things.
#[test]
fn the_what_if_scenario_replays_the_logs_rebalances() {
    for (log, group) in [(LOG39, "orders-app"), (LOG44, "orders-app")] {
        let (code, out, err) = import(&[log, "--group", group, "--as-scenario"]);
        assert_eq!(code, 0, "{err}");
        let file = groupscope::scenario::parse(&out).expect("a valid scenario");
        assert!(file.consumers.as_ref().is_some_and(|c| c.len() >= 3));
        let trace = groupscope::scenario::run(&file, None).expect("runs");
        let summary = trace.last().unwrap();
        let (_, logged, _) = import(&[log, "--group", group, "--summary"]);
        let logged: Value = serde_json::from_str(&logged).unwrap();
        assert_eq!(summary["rebalances"], logged["rebalances"], "{log}");
        assert_eq!(summary["fenced"], serde_json::json!(["a"]), "{log}");
        assert_eq!(summary["violations"], serde_json::json!([]));
    }
}

/// A consumer group's what-if speaks the consumer protocol, and its
/// duplicate process is refused as in the log.
#[test]
fn a_consumer_groups_what_if_refuses_the_duplicate() {
    let (code, out, err) = import(&[LOG44, "--group", "orders-848", "--as-scenario"]);
    assert_eq!(code, 0, "{err}");
    let file = groupscope::scenario::parse(&out).expect("a valid scenario");
    assert_eq!(
        file.group_protocol,
        Some(groupscope::sim::GroupProtocol::Consumer)
    );
    assert_eq!(file.config.consumer_session_timeout_ms, 10_000);
    let trace = groupscope::scenario::run(&file, None).expect("runs");
    assert!(trace.iter().any(|l| l["error"] == "UNRELEASED_INSTANCE_ID"));
    assert_eq!(trace.last().unwrap()["violations"], serde_json::json!([]));
}

/// The app's worker reads a log in pieces cut anywhere (`logs::job`);
/// what it reports is what the CLI prints for the same file: the summary,
/// every trace line (each event with its source line's text beside it),
/// and the what-if scenario.
#[test]
fn the_apps_reader_in_pieces_says_what_the_cli_says() {
    use groupscope::logs::job::answer;
    for log in [LOG39, LOG44] {
        let text = std::fs::read_to_string(log).unwrap();
        let (_, summary, _) = import(&[log, "--summary"]);
        let (_, trace, _) = import(&[log]);
        let (_, scenario, _) = import(&[log, "--as-scenario"]);
        for piece in [1usize, 7, 4096, 1 << 20] {
            let mut state = None;
            let mut at = 0;
            let mut id = 0;
            while at < text.len() {
                let mut end = (at + piece).min(text.len());
                while !text.is_char_boundary(end) {
                    end += 1;
                }
                let reply = answer(
                    &mut state,
                    &format!("{id} log-chunk\nserver.log\n{}", &text[at..end]),
                )
                .expect("a log message");
                assert!(reply.starts_with(&format!("{id} ok\n")), "{reply}");
                at = end;
                id += 1;
            }
            let reply = answer(&mut state, "99 log-end\n").unwrap();
            let report: Value =
                serde_json::from_str(reply.strip_prefix("99 ok\n").unwrap()).unwrap();
            let want: Value = serde_json::from_str(&summary).unwrap();
            assert_eq!(report["summary"], want, "{log} in pieces of {piece}");
            let got = report["trace"].as_array().unwrap();
            let want = lines(&trace);
            assert_eq!(got.len(), want.len(), "{log} in pieces of {piece}");
            for (g, w) in got.iter().zip(&want) {
                let mut g = g.clone();
                if let Some(original) = g.as_object_mut().unwrap().shift_remove("original") {
                    let n = w["line"].as_u64().unwrap() as usize;
                    assert_eq!(original, text.lines().nth(n - 1).unwrap(), "{log}:{n}");
                }
                assert_eq!(&g, w);
            }
            let scenario: Value = serde_json::from_str(&scenario).unwrap();
            let made = groupscope::scenario::parse(&report["scenario"].to_string()).unwrap();
            let made: Value = serde_json::from_str(&groupscope::scenario::to_json(&made)).unwrap();
            assert_eq!(made, scenario, "{log}");
            assert!(state.is_none(), "the next chunk starts a new import");
        }
    }
}

#[test]
fn the_apps_reader_names_a_group_the_log_does_not_have() {
    use groupscope::logs::job::answer;
    let text = std::fs::read_to_string(LOG39).unwrap();
    let mut state = None;
    answer(&mut state, &format!("1 log-chunk\nserver.log\n{text}")).unwrap();
    let reply = answer(&mut state, "2 log-end\nnope").unwrap();
    let report: Value = serde_json::from_str(reply.strip_prefix("2 ok\n").unwrap()).unwrap();
    assert_eq!(report["summary"]["missing"], true);
    assert_eq!(
        report["summary"]["groups"],
        serde_json::json!(["orders-app"])
    );
    assert_eq!(report["scenario"], Value::Null);
    assert_eq!(
        answer(&mut state, "3 markdown\n{}"),
        None,
        "an export is no log message"
    );
}

const CLIENTS: &str = "tests/logs/fixtures/clients";
/// The same story with Java consumers (tests/logs/java/).
const JAVA: &str = "tests/logs/fixtures/java";

/// The broker's log and its clients' (librdkafka `debug=cgrp`, or the Java
/// consumer's INFO lines), as tests/logs/story.py made them on Kafka 3.9.1
/// with GROUPSCOPE_CLIENT_LOGS set (and GROUPSCOPE_CLIENT=java): in the
/// files' order.
fn client_fixture(dir: &str) -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path().to_string_lossy().into_owned())
        .filter(|p| p.ends_with(".log"))
        .collect();
    files.sort();
    files
}

#[test]
fn a_broker_log_with_its_clients_logs_gives_each_members_time_without_partitions() {
    clients_story(
        CLIENTS,
        "orders-app",
        &[
            "member_id",
            "joined",
            "assigned",
            "fetching",
            "revoked",
            "left",
        ],
    );
}

#[test]
fn a_broker_log_with_its_java_consumers_logs() {
    clients_story(
        JAVA,
        "orders-java",
        &["joined", "assigned", "fetching", "revoked", "left"],
    );
}

fn clients_story(dir: &str, group: &str, actions: &[&str]) {
    let files = client_fixture(dir);
    assert_eq!(files.len(), 7, "{files:?}");
    let mut args: Vec<&str> = files.iter().map(String::as_str).collect();
    args.extend(["--group", group, "--summary"]);
    let (code, out, err) = import(&args);
    assert_eq!(code, 0, "{err}");
    let s: Value = serde_json::from_str(&out).unwrap();
    // The broker's story is the same as without the clients' logs.
    assert_eq!(s["rebalances"], 5);
    assert_eq!(s["generations"], serde_json::json!([1, 2, 3, 4]));
    assert_eq!(s["fenced"], serde_json::json!(["a"]));
    // Every non-empty line of every file counted once.
    let total: usize = files
        .iter()
        .map(|f| {
            std::fs::read_to_string(f)
                .unwrap()
                .lines()
                .filter(|l| !l.trim().is_empty())
                .count()
        })
        .sum();
    assert_eq!(
        s["lines_used"].as_u64().unwrap() + s["lines_unknown"].as_u64().unwrap(),
        total as u64
    );
    // The clients' figures: b and a were without partitions in the eager
    // rebalances (revoke, then assign), and the whole group stopped.
    let c = &s["clients"];
    let members = c["members"].as_object().unwrap();
    assert!(members.keys().any(|m| m.starts_with("b-")), "{members:?}");
    assert!(members.keys().any(|m| m.starts_with("a-")), "{members:?}");
    let without = |prefix: &str| {
        members
            .iter()
            .filter(|(m, _)| m.starts_with(prefix))
            .any(|(_, f)| f["windows"].as_u64().unwrap() >= 1)
    };
    assert!(without("a-") && without("b-"), "{members:?}");
    // Every member assigned partitions started fetching them, a few ms
    // later (librdkafka) or up to a tenth of a second (the Java consumer
    // fetching its committed offsets).
    for f in members.values() {
        let ms = f["to_first_fetch_ms"].as_i64().unwrap();
        assert!((0..1000).contains(&ms), "{f}");
        assert!(f["unavailable_ms"].as_i64().unwrap() >= 0, "{f}");
    }
    assert!(c["stop_the_world_windows"].as_u64().unwrap() >= 1, "{c}");
    // Each client's lines are `client` events naming the process and what it did.
    args.truncate(files.len());
    args.extend(["--group", group]);
    let (_, trace, _) = import(&args);
    let trace = lines(&trace);
    let client: Vec<&Value> = trace.iter().filter(|l| l["event"] == "client").collect();
    for action in actions {
        assert!(client.iter().any(|l| l["action"] == *action), "no {action}");
    }
    assert!(client
        .iter()
        .all(|l| l["consumer"].as_str().unwrap().starts_with("client-")));
    assert!(client
        .iter()
        .any(|l| l["action"] == "joined" && l["generation_id"] == 4));
    // Each assignment of partitions is followed by its first fetch, by the
    // same process, before anything else it does.
    for (i, l) in client.iter().enumerate() {
        if l["action"] == "assigned" && l["partitions"].as_u64().unwrap() > 0 {
            let next = client[i + 1..]
                .iter()
                .find(|n| n["consumer"] == l["consumer"])
                .unwrap_or_else(|| panic!("nothing after {l}"));
            assert_eq!(next["action"], "fetching", "after {l}");
        }
    }
    // The broker's and the clients' lines interleave by time.
    let at: Vec<i64> = trace.iter().map(|l| l["at_ms"].as_i64().unwrap()).collect();
    assert!(at.windows(2).all(|w| w[0] <= w[1]), "merged by time");
}

/// A consumer group's story (KIP-848) on Kafka 4.4.0 with its librdkafka
/// clients' `debug=cgrp` logs, as tests/logs/story.py made them.
const CLIENTS_848: &str = "tests/logs/fixtures/clients-848";

#[test]
fn a_consumer_groups_clients_tell_their_epochs_and_incremental_assignments() {
    let files = client_fixture(CLIENTS_848);
    let args: Vec<&str> = files.iter().map(String::as_str).collect();
    let (code, out, err) = import(&[&args[..], &["--summary"]].concat());
    assert_eq!(code, 0, "{err}");
    let s: Value = serde_json::from_str(&out).unwrap();
    // The broker's story is the one it tells alone.
    let (_, alone, _) = import(&[&format!("{CLIENTS_848}/server.log"), "--summary"]);
    let alone: Value = serde_json::from_str(&alone).unwrap();
    for k in [
        "protocol",
        "rebalances",
        "generations",
        "instance_ids",
        "fenced",
    ] {
        assert_eq!(s[k], alone[k], "{k}");
    }
    assert_eq!(s["protocol"], "consumer");
    // Members keep what they hold while others move: no stop-the-world.
    let c = &s["clients"];
    assert_eq!(c["stop_the_world_windows"], 0, "{c}");
    let members = c["members"].as_object().unwrap();
    assert!(members.len() >= 4, "{members:?}");
    for f in members.values() {
        assert!(
            (0..1000).contains(&f["to_first_fetch_ms"].as_i64().unwrap()),
            "{f}"
        );
    }
    let (_, trace, _) = import(&args);
    let trace = lines(&trace);
    let client: Vec<&Value> = trace.iter().filter(|l| l["event"] == "client").collect();
    for action in [
        "member_id",
        "epoch",
        "assigned",
        "revoked",
        "fetching",
        "left",
    ] {
        assert!(client.iter().any(|l| l["action"] == action), "no {action}");
    }
    assert!(client
        .iter()
        .any(|l| l["action"] == "assigned" && l["incremental"] == true));
    // Each member id a client names is one the broker knew, and each epoch
    // a client is answered with is one the group had reached by then.
    let known: Vec<&Value> = trace
        .iter()
        .filter(|l| l["event"] != "client")
        .filter_map(|l| l.get("member_id"))
        .collect();
    let mut group_epoch = 0;
    for l in &trace {
        if l["event"] == "group_epoch_bumped" {
            group_epoch = l["group_epoch"].as_i64().unwrap();
        }
        if l["event"] == "client" {
            assert!(known.contains(&&l["member_id"]), "{l}");
        }
        if l["action"] == "epoch" {
            let e = l["member_epoch"].as_i64().unwrap();
            assert!(e <= group_epoch, "{l} after group epoch {group_epoch}");
        }
    }
}

/// The app's reader, given the same files one after the other in pieces,
/// reports what the CLI prints.
#[test]
fn the_apps_reader_merges_the_clients_logs_as_the_cli_does() {
    for (dir, group) in [
        (CLIENTS, "orders-app"),
        (JAVA, "orders-java"),
        (CLIENTS_848, "orders-848"),
    ] {
        apps_reader_on(dir, group);
    }
}

fn apps_reader_on(dir: &str, group: &str) {
    use groupscope::logs::job::answer;
    let files = client_fixture(dir);
    let mut args: Vec<&str> = files.iter().map(String::as_str).collect();
    args.extend(["--group", group, "--summary"]);
    let (_, want, _) = import(&args);
    let mut state = None;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for piece in text.as_bytes().chunks(64 * 1024) {
            let piece = std::str::from_utf8(piece).unwrap();
            answer(&mut state, &format!("1 log-chunk\n{f}\n{piece}")).unwrap();
        }
    }
    let reply = answer(&mut state, &format!("2 log-end\n{group}")).unwrap();
    let report: Value = serde_json::from_str(reply.strip_prefix("2 ok\n").unwrap()).unwrap();
    let want: Value = serde_json::from_str(&want).unwrap();
    assert_eq!(report["summary"], want, "{dir}");
    // The lines not understood it lists are the first of those the CLI's
    // `--unknown` lists (which go in time order), in file order.
    args.truncate(files.len());
    args.push("--unknown");
    let (_, listed, _) = import(&args);
    let mut cli: Vec<(usize, u64, String, String)> = listed
        .lines()
        .map(|l| {
            let (at, text) = l.split_once(": ").unwrap();
            let (file, n) = at.rsplit_once(':').unwrap();
            let i = files.iter().position(|f| f == file).unwrap();
            (i, n.parse().unwrap(), at.to_string(), text.to_string())
        })
        .collect();
    assert_eq!(cli.len() as u64, want["lines_unknown"].as_u64().unwrap());
    cli.sort();
    let app = report["unknown"].as_array().unwrap();
    assert_eq!(app.len(), cli.len().min(500), "{dir}");
    for (a, (_, _, at, text)) in app.iter().zip(&cli) {
        assert_eq!(a["at"], *at);
        let shown = a["text"].as_str().unwrap();
        assert!(
            text.starts_with(shown) && shown.len() >= text.len().min(397),
            "{a} vs {text}"
        );
    }
}
