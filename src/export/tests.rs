use super::markdown::generations;
use super::run::{Item, Run};
use super::*;
use crate::scenario::{parse, presets};

fn preset(id: &str) -> ScenarioFile {
    presets::preset(id).unwrap()
}

const PROTOCOL: &str =
    r#"{"requests":[{"at_ms":0,"join":{"member_id":"","group_instance_id":"a"}}]}"#;

/// A line Mermaid's sequenceDiagram grammar reads: a participant, a
/// request, a response or a note, with text free of what it chokes on.
fn is_mermaid_line(line: &str) -> bool {
    let Some(body) = line.strip_prefix("    ") else {
        return line == "sequenceDiagram";
    };
    let text = match body.split_once(": ") {
        Some((head, text)) => {
            let head_ok = head.starts_with("Note over ")
                || head.contains("->>") && !head.contains(' ')
                || head.contains("-->>") && !head.contains(' ');
            if !head_ok {
                return false;
            }
            text
        }
        None => match body.strip_prefix("participant ") {
            Some(p) => p.split_once(" as ").map_or("", |(_, label)| label),
            None => return false,
        },
    };
    !text.is_empty() && !text.contains([';', '#', '"', '<', '>', '{', '}', '%'])
}

#[test]
fn the_ndjson_export_is_the_run_output_byte_for_byte() {
    for id in ["kip345-restart", "duplicate-instance-id"] {
        let file = preset(id);
        let run = scenario::to_ndjson(&scenario::run(&file, Some(9)).unwrap());
        assert_eq!(ndjson(&file, Some(9)).unwrap(), run, "{id}");
    }
    let protocol = parse(PROTOCOL).unwrap();
    assert_eq!(
        ndjson(&protocol, None).unwrap(),
        scenario::to_ndjson(&scenario::run(&protocol, None).unwrap())
    );
}

#[test]
fn a_protocol_scenario_exports_in_every_format_with_its_consumers_named() {
    // A recorded session (groupscope broker) is a protocol scenario: its
    // report and its diagram name the consumers its requests speak for.
    let protocol = parse(PROTOCOL).unwrap();
    for format in [Format::Markdown, Format::Mermaid, Format::Svg] {
        let text = export(&protocol, None, format, None)
            .unwrap_or_else(|e| panic!("{}: {e}", format.name()));
        assert!(!text.is_empty(), "{}", format.name());
    }
    let mermaid = export(&protocol, None, Format::Mermaid, None).unwrap();
    assert!(mermaid.contains("JoinGroup"), "{mermaid}");
    let text = std::fs::read_to_string(
        "tests/conformance/T21-duplicate-instance-preparing-rebalance-fences-parked-join.json",
    )
    .unwrap();
    let fenced = parse(&text).unwrap();
    let mermaid = export(&fenced, None, Format::Mermaid, None).unwrap();
    for line in mermaid.lines() {
        assert!(is_mermaid_line(line), "{line:?}");
    }
}

#[test]
fn every_preset_exports_in_every_format() {
    for id in presets::ids() {
        for format in Format::ALL {
            let text = export(&preset(id), None, format, None)
                .unwrap_or_else(|e| panic!("{id} {}: {e}", format.name()));
            assert!(!text.is_empty(), "{id} {}", format.name());
        }
    }
}

#[test]
fn the_timeline_holds_every_log_entry_once_in_order_and_requests_and_responses() {
    let run = Run::of(&preset("kip345-restart"), None).unwrap();
    let logged: Vec<usize> = run
        .timeline
        .iter()
        .filter_map(|i| match i {
            Item::Log(i) => Some(*i),
            Item::Message(_) => None,
        })
        .collect();
    assert_eq!(logged, (0..run.world.log().len()).collect::<Vec<_>>());
    let messages: Vec<_> = run
        .timeline
        .iter()
        .filter_map(|i| match i {
            Item::Message(m) => Some(m),
            Item::Log(_) => None,
        })
        .collect();
    let requests = messages.iter().filter(|m| m.to_coordinator).count();
    let responses = messages.len() - requests;
    assert!(requests > 10 && responses > 10, "{requests} {responses}");
    let times: Vec<u64> = messages.iter().map(|m| m.arrives_at_ms).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "in delivery order");
}

#[test]
fn generations_name_each_member_its_ids_the_leader_and_the_assignment() {
    let run = Run::of(&preset("kip345-restart"), None).unwrap();
    let gens = generations(&run.world);
    assert_eq!(
        gens.len(),
        1,
        "a static restart within the session: no new generation"
    );
    let g = &gens[0];
    assert_eq!(g.generation_id, 1);
    assert_eq!(g.protocol_name.as_deref(), Some("range"));
    let names: Vec<&str> = g
        .members
        .keys()
        .map(|c| run.world.clients()[*c].config().name.as_str())
        .collect();
    assert_eq!(names, ["A", "B", "C"]);
    let a = &g.members[&0];
    assert_eq!(
        a.member_ids.len(),
        2,
        "A rejoined under a new id: {:?}",
        a.member_ids
    );
    let parts: Vec<String> = a
        .assignment
        .as_ref()
        .unwrap()
        .iter()
        .map(|p| p.to_string())
        .collect();
    assert_eq!(parts, ["t-0", "t-1", "t-2"]);
    assert!(g.leader.is_some());
}

#[test]
fn the_markdown_report_has_the_story_metrics_generations_and_narration() {
    let file = preset("kip345-restart");
    let text = markdown(&file, None).unwrap();
    let summary = scenario::run(&file, None).unwrap().pop().unwrap();
    assert!(text.starts_with("# kip345-restart\n\n"), "{text}");
    assert!(text.contains(file.description.as_deref().unwrap()));
    assert!(text.contains(&format!("| Rebalances | {} |", summary["rebalances"])));
    assert!(text.contains(&format!(
        "| Partitions moved | {} |",
        summary["partition_moves"]
    )));
    assert!(text.contains(&format!(
        "| Partition-unavailable ms after start-up | {} |",
        summary["unavailable_after_startup_ms"]
    )));
    assert!(text.contains(&format!(
        "| Start-up ms (unavailable while the group formed) | {} |",
        summary["startup_unavailable_ms"]
    )));
    assert!(text.contains(&format!(
        "| All-stopped ms | {} |",
        summary["all_stopped_ms"]
    )));
    assert!(text.contains("| Fenced | — |"));
    assert!(text.contains("### Generation 1 (range, from "));
    assert!(text.contains("| A | `A-"), "{text}");
    assert!(text.contains("` → `A-"), "A's two member ids: {text}");
    assert!(text.contains("| `A` | t-0, t-1, t-2 |"), "{text}");
    assert!(text.contains("\nLeader: "));
    assert!(text.contains("## Narration\n\n- `0 ms` A starts and sends JoinGroup.\n"));
    assert!(!text.to_lowercase().contains("heartbeat (none)"));
}

#[test]
fn the_markdown_report_names_the_fenced_consumer_of_a_duplicate_instance_id() {
    let text = markdown(&preset("duplicate-instance-id"), None).unwrap();
    let run = Run::of(&preset("duplicate-instance-id"), None).unwrap();
    let fenced = run.world.metrics().fenced.join(", ");
    assert!(!fenced.is_empty());
    assert!(text.contains(&format!("| Fenced | {fenced} |")), "{text}");
}

#[test]
fn every_line_of_every_presets_mermaid_export_is_one_mermaid_reads() {
    for id in presets::ids() {
        let text = mermaid(&preset(id), None, None).unwrap();
        assert!(text.starts_with("sequenceDiagram\n    participant G as Coordinator\n"));
        for line in text.lines() {
            assert!(is_mermaid_line(line), "{id}: {line:?}");
        }
        assert!(
            !text.contains(": Heartbeat\n"),
            "{id}: a heartbeat without an error is folded into a note"
        );
    }
}

#[test]
fn the_mermaid_export_shows_the_kip345_restart_without_a_rebalance() {
    let text = mermaid(&preset("kip345-restart"), None, None).unwrap();
    for needle in [
        "    participant C0 as A\n",
        "    C0->>G: JoinGroup\n",
        "    G-->>C0: SyncGroup\n",
        "    Note over G: 6007 ms: generation 1 (range)\n",
        "ms: PreparingRebalance → CompletingRebalance\n",
        "heartbeats (NONE): A ",
        "no rebalance (KIP-345)",
    ] {
        assert!(text.contains(needle), "{needle:?} in\n{text}");
    }
    assert!(!text.contains("generation 2"), "one generation:\n{text}");
}

#[test]
fn a_mermaid_response_with_an_error_names_it() {
    let text = mermaid(&preset("duplicate-instance-id"), None, None).unwrap();
    assert!(text.contains("FENCED_INSTANCE_ID\n"), "{text}");
}

#[test]
fn names_with_characters_mermaid_chokes_on_still_give_a_valid_diagram() {
    let file = parse(
        r#"{"topics":[{"name":"t","partitions":2}],
            "consumers":[{"name":"A;#\"<b>%%{x}","group_instance_id":"i;1"}],
            "actions":[{"at_ms":0,"start":"A;#\"<b>%%{x}"},{"at_ms":20000,"end":{}}]}"#,
    )
    .unwrap();
    let text = mermaid(&file, None, None).unwrap();
    assert!(
        text.contains("participant C0 as A,No.'‹b› pct pct(x)\n"),
        "{text}"
    );
    for line in text.lines() {
        assert!(is_mermaid_line(line), "{line:?}");
    }
}

#[test]
fn a_mermaid_time_range_keeps_only_what_happened_inside_it() {
    let file = preset("kip345-restart");
    let text = mermaid(&file, None, Some(27_000..=29_000)).unwrap();
    assert!(text.contains("Note over G: from 27000 ms to 29000 ms of virtual time\n"));
    assert!(text.contains("28000 ms: A starts"), "{text}");
    assert!(
        !text.contains("generation 1 (range)"),
        "6007 ms is outside: {text}"
    );
    assert!(!text.contains("20000 ms:"), "{text}");
    assert_eq!(
        mermaid(&file, None, Some(RangeInclusive::new(5, 4))),
        Err(ExportError::EmptyRange {
            from_ms: 5,
            to_ms: 4
        })
    );
}

/// A minimal well-formedness check: every tag closes in order, attribute
/// values are quoted, and no raw `&` appears outside an entity.
fn assert_well_formed_xml(text: &str) {
    let mut open: Vec<&str> = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find('<') {
        let end = rest[start..].find('>').expect("a tag closes") + start;
        let tag = &rest[start + 1..end];
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(open.pop(), Some(name), "closing {name}");
        } else if !tag.ends_with('/') {
            open.push(tag.split_whitespace().next().unwrap());
        }
        assert_eq!(tag.matches('"').count() % 2, 0, "quoted attributes: {tag}");
        rest = &rest[end + 1..];
    }
    assert!(open.is_empty(), "unclosed: {open:?}");
    for (i, _) in text.match_indices('&') {
        let entity = &text[i..text[i..].find(';').map_or(text.len(), |j| i + j + 1)];
        assert!(
            ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"].contains(&entity),
            "{entity}"
        );
    }
}

#[test]
fn the_svg_shows_five_states_the_current_one_marked_and_every_partition_owner() {
    let text = svg(&preset("kip345-restart"), None).unwrap();
    assert!(text.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert_well_formed_xml(&text);
    assert_eq!(text.matches("data-state=").count(), 5);
    assert!(text.contains(r#"<g data-state="Stable" aria-current="step">"#));
    assert_eq!(text.matches("aria-current").count(), 1);
    assert_eq!(text.matches(r#"class="partition""#).count(), 9);
    assert!(text.contains(r#"data-partition="0" data-owner="A""#));
    assert!(text.contains(r#"data-partition="8" data-owner="C""#));
}

#[test]
fn the_svg_escapes_names_so_it_stays_valid_xml() {
    let file = parse(
        r#"{"name":"a <b> & \"c\"","topics":[{"name":"t&u","partitions":1}],
            "consumers":[{"name":"<A>"}],"actions":[{"at_ms":0,"start":"<A>"},{"at_ms":9000,"end":{}}]}"#,
    )
    .unwrap();
    let text = svg(&file, None).unwrap();
    assert_well_formed_xml(&text);
    assert!(text.contains("a &lt;b&gt; &amp; &quot;c&quot;"));
}

#[test]
fn exports_follow_the_seed() {
    let file = preset("kip345-restart");
    assert_eq!(markdown(&file, Some(1)), markdown(&file, Some(1)));
    assert_ne!(markdown(&file, Some(1)), markdown(&file, Some(2)));
    assert_eq!(markdown(&file, None), markdown(&file, Some(file.seed)));
}

#[test]
fn formats_are_named_as_on_the_command_line() {
    for f in Format::ALL {
        assert_eq!(Format::from_name(f.name()), Some(f));
    }
    assert_eq!(Format::from_name("pdf"), None);
}

/// The world remembers only its last 200 messages; the run must still see
/// every delivery once: each response the coordinator sent early enough to
/// arrive before the end is in the timeline, and none twice.
#[test]
fn the_timeline_sees_every_response_delivered_even_past_the_world_s_200_message_memory() {
    use crate::sim::{Requester, TraceRecord};
    for id in ["kip345-restart", "rolling-restart-dynamic"] {
        let run = Run::of(&preset(id), None).unwrap();
        let end = run.world.now_ms();
        let sent: Vec<u64> = run
            .world
            .trace()
            .iter()
            .filter_map(|r| match r {
                TraceRecord::Response { at_ms, request, .. }
                    if matches!(request.requester, Requester::Consumer(_)) =>
                {
                    Some(*at_ms)
                }
                _ => None,
            })
            .collect();
        let delivered = run
            .timeline
            .iter()
            .filter(|i| matches!(i, Item::Message(m) if !m.to_coordinator))
            .count();
        let surely_arrived = sent.iter().filter(|t| **t + 100 <= end).count();
        if id == "rolling-restart-dynamic" {
            assert!(sent.len() > 400, "{id}: {} responses", sent.len());
        }
        assert!(
            (surely_arrived..=sent.len()).contains(&delivered),
            "{id}: {delivered} delivered, {surely_arrived}..={} expected",
            sent.len()
        );
    }
}

/// The summary figures of `file`'s run, as the report's table shows them.
fn assert_same_summary(text: &str, file: &ScenarioFile) {
    let summary = scenario::run(file, None).unwrap().pop().unwrap();
    for (row, key) in [
        ("Rebalances", "rebalances"),
        ("Partitions moved", "partition_moves"),
        (
            "Partition-unavailable ms after start-up",
            "unavailable_after_startup_ms",
        ),
        (
            "Start-up ms (unavailable while the group formed)",
            "startup_unavailable_ms",
        ),
        ("All-stopped ms", "all_stopped_ms"),
    ] {
        let line = format!("| {row} | {} |", summary[key]);
        assert!(text.contains(&line), "{line} in\n{text}");
    }
}

/// When the file's action on `name` of this kind happens.
fn action_times(
    file: &ScenarioFile,
    name: &str,
    kind: fn(&scenario::model::ActionStep) -> Option<&String>,
) -> Vec<u64> {
    let actions = file.actions.as_deref().unwrap_or_default();
    actions
        .iter()
        .filter(|a| kind(a).is_some_and(|n| n == name))
        .map(|a| a.at_ms)
        .collect()
}

#[test]
fn a_consumer_group_report_tells_epochs_targets_and_the_crashed_static_member_refused_until_its_session_ran_out(
) {
    use super::consumer_group::{epoch_bumps, member_histories, moves, refusals, MemberStep};
    use crate::coordinator::consumer::{BumpCause, FenceCause};
    let file = preset("consumer-crash-restart");
    let text = markdown(&file, None).unwrap();
    let run = Run::of(&file, None).unwrap();
    let world = &run.world;
    let group = world.consumer_group().unwrap().group();
    assert!(!text.contains("No generation was formed"), "{text}");
    assert!(!text.contains("## Generations"), "{text}");
    assert!(text.contains("## Consumer group (KIP-848)\n\n"), "{text}");
    assert_same_summary(&text, &file);

    // Group epochs: one row per move, by one each time, ending at the
    // group's epoch.
    let bumps = epoch_bumps(world);
    let epochs: Vec<i32> = bumps.iter().map(|b| b.group_epoch).collect();
    assert!(epochs.windows(2).all(|w| w[1] == w[0] + 1), "{epochs:?}");
    assert_eq!(epochs.last(), Some(&group.group_epoch()));
    for b in &bumps {
        assert!(
            text.contains(&format!("| {} | {} | ", b.at_ms, b.group_epoch)),
            "{b:?}"
        );
    }

    // app-1 crashed: its member was removed when the group's session ran
    // out after its last heartbeat, which came at most one heartbeat
    // interval before the crash.
    let crash = action_times(&file, "app-1", |a| a.crash.as_ref())[0];
    let session = file.config.consumer_session_timeout_ms;
    let interval = file.config.consumer_heartbeat_interval_ms;
    let histories = member_histories(world);
    let app1 = world.client_index("app-1").unwrap().0;
    let of_app1: Vec<_> = histories
        .iter()
        .filter(|h| h.consumer == Some(app1))
        .collect();
    assert_eq!(
        of_app1.len(),
        2,
        "the crashed member and the one that joined later"
    );
    let removed_at = of_app1[0]
        .steps
        .iter()
        .find_map(|s| match s {
            MemberStep::Removed {
                at_ms,
                cause: FenceCause::SessionExpired { session_timeout_ms },
            } if *session_timeout_ms == session => Some(*at_ms),
            _ => None,
        })
        .expect("removed by the session timeout");
    assert!(
        (crash + session - interval..=crash + session).contains(&removed_at),
        "removed at {removed_at}, crash {crash}, session {session}"
    );
    let removal = bumps.iter().find(|b| b.at_ms == removed_at).unwrap();
    assert_eq!(
        (removal.cause, removal.consumer),
        (BumpCause::MemberRemoved, Some(app1))
    );

    // Every start of app-1 while its old member held the instance id was
    // refused with UNRELEASED_INSTANCE_ID; the one after joined.
    let starts = action_times(&file, "app-1", |a| a.start.as_ref());
    let held: Vec<u64> = starts
        .iter()
        .copied()
        .filter(|t| (crash..removed_at).contains(t))
        .collect();
    let refused = refusals(world);
    assert_eq!(refused.len(), held.len(), "{refused:?}");
    for (r, start) in refused.iter().zip(&held) {
        assert_eq!(r.error.name(), "UNRELEASED_INSTANCE_ID");
        assert_eq!(r.consumer, Some(app1));
        assert!(
            r.at_ms > *start && r.at_ms < start + 1000,
            "{r:?} after {start}"
        );
        assert!(text.contains(&format!(
            "| {} | app-1 | UNRELEASED_INSTANCE_ID | `cg.static.join` (§4.1) |",
            r.at_ms
        )));
    }
    let rejoined = starts.iter().find(|t| **t > removed_at).unwrap();
    assert!(matches!(of_app1[1].steps[0], MemberStep::Joined { at_ms } if at_ms > *rejoined));

    // One section per target, each giving every partition once; the target
    // after the removal moves exactly app-1's partitions, to the others.
    assert_eq!(
        text.matches("### Target at assignment epoch ").count(),
        run.targets.len()
    );
    for t in &run.targets {
        let mut parts: Vec<String> = t
            .members
            .iter()
            .flat_map(|m| m.partitions.iter().map(|p| p.to_string()))
            .collect();
        parts.sort();
        let mut all: Vec<String> = (0..6).map(|p| format!("t-{p}")).collect();
        all.sort();
        assert_eq!(parts, all, "{t:?}");
    }
    let after = run
        .targets
        .iter()
        .position(|t| t.at_ms >= removed_at)
        .unwrap();
    let (before, next) = (&run.targets[after - 1], &run.targets[after]);
    let app1_had = before
        .members
        .iter()
        .find(|m| m.consumer == Some(app1))
        .unwrap();
    let moved = moves(world, Some(before), next);
    assert_eq!(moved.len(), app1_had.partitions.len());
    for m in &moved {
        assert_eq!(m.from.as_deref(), Some("app-1"));
        assert!(m.to.as_deref().is_some_and(|to| to != "app-1"), "{m:?}");
    }
    let last = run.targets.last().unwrap();
    for m in &last.members {
        let now: Vec<_> = group
            .target(&m.member_id)
            .unwrap()
            .iter()
            .cloned()
            .collect();
        assert_eq!(m.partitions, now, "the last target is the group's");
    }
}

#[test]
fn a_consumer_group_report_shows_each_static_member_away_and_replaced_without_a_new_epoch() {
    use super::consumer_group::{epoch_bumps, member_histories, MemberStep};
    use crate::coordinator::consumer::BumpCause;
    let file = preset("consumer-rolling-restart-static");
    let run = Run::of(&file, None).unwrap();
    let world = &run.world;
    let consumers = file.consumers.as_ref().unwrap().len();
    // Only the joins moved the epoch: the restarts did not.
    let bumps = epoch_bumps(world);
    assert_eq!(bumps.len(), consumers);
    assert!(bumps.iter().all(|b| b.cause == BumpCause::MemberJoined));
    let histories = member_histories(world);
    let restarted: Vec<_> = histories
        .iter()
        .filter(|h| h.steps.iter().any(|s| matches!(s, MemberStep::Away { .. })))
        .collect();
    assert_eq!(restarted.len(), consumers, "each restarts once");
    for old in restarted {
        let (away, replaced, new) = match old.steps[old.steps.len() - 2..] {
            [MemberStep::Away { at_ms: a }, MemberStep::ReplacedBy { at_ms: r, ref new }] => {
                (a, r, new.clone())
            }
            ref other => panic!("{other:?}"),
        };
        assert!(away < replaced);
        let newer = histories.iter().find(|h| h.member_id == new).unwrap();
        assert_eq!(newer.consumer, old.consumer);
        assert_eq!(newer.instance_id, old.instance_id);
        assert_eq!(
            newer.steps[0],
            MemberStep::TookPlaceOf {
                at_ms: replaced,
                old: old.member_id.clone()
            }
        );
    }
    let text = markdown(&file, None).unwrap();
    assert_same_summary(&text, &file);
    assert!(text.contains("· away (epoch -2) at "), "{text}");
    assert!(
        text.contains("None: the coordinator refused no heartbeat."),
        "{text}"
    );
}

#[test]
fn a_classic_report_has_no_consumer_group_section() {
    let text = markdown(&preset("kip345-restart"), None).unwrap();
    assert!(text.contains("## Generations\n\n"));
    assert!(!text.contains("Consumer group"), "{text}");
}

#[test]
fn a_consumer_group_svg_shows_its_own_states_and_epochs_and_each_targets_owner() {
    let file = preset("consumer-crash-restart");
    let text = svg(&file, None).unwrap();
    assert_well_formed_xml(&text);
    let run = Run::of(&file, None).unwrap();
    let g = run.world.consumer_group().unwrap();
    let epochs = format!(
        "group epoch {} · assignment epoch {}",
        g.group().group_epoch(),
        g.group().assignment_epoch()
    );
    assert!(text.contains(&epochs), "{text}");
    assert!(!text.contains("generation"), "{text}");
    for state in ["Empty", "Assigning", "Reconciling", "Stable", "Dead"] {
        assert!(
            text.contains(&format!("<g data-state=\"{state}\"")),
            "{state}"
        );
    }
    let current = format!(
        "<g data-state=\"{}\" aria-current=\"step\">",
        g.state_name()
    );
    assert!(text.contains(&current), "{text}");
    assert_eq!(text.matches("aria-current").count(), 1);
    for t in &run.targets.last().unwrap().members {
        let owner = &run.world.clients()[t.consumer.unwrap()].config().name;
        for p in &t.partitions {
            let cell = format!("data-partition=\"{}\" data-owner=\"{owner}\"", p.partition);
            assert!(text.contains(&cell), "{cell}");
        }
    }
}

#[test]
fn a_consumer_group_diagram_draws_the_heartbeats_that_changed_something_and_counts_the_rest() {
    use crate::coordinator::classic::Api;
    let file = preset("consumer-crash-restart");
    let text = mermaid(&file, None, None).unwrap();
    let run = Run::of(&file, None).unwrap();
    let delivered = run
        .timeline
        .iter()
        .filter(|i| matches!(i, Item::Message(m) if m.to_coordinator && m.api == Api::ConsumerGroupHeartbeat))
        .count();
    let lines: Vec<&str> = text.lines().collect();
    let drawn = lines
        .iter()
        .filter(|l| l.ends_with("->>G: ConsumerGroupHeartbeat"))
        .count();
    let counted: usize = lines
        .iter()
        .filter_map(|l| l.split_once("heartbeats (NONE): ").map(|(_, c)| c))
        .flat_map(|c| c.split(", "))
        .map(|c| c.rsplit(' ').next().unwrap().parse::<usize>().unwrap())
        .sum();
    assert_eq!(
        drawn + counted,
        delivered,
        "every heartbeat drawn or counted once"
    );
    assert!(
        drawn * 4 < delivered,
        "most are folded: {drawn} of {delivered}"
    );
    // Each refusal follows its request; each new target follows the
    // heartbeat that computed it.
    let refusals = run.world.trace().iter().filter(|r| {
        matches!(r, crate::sim::TraceRecord::ConsumerResponse { response, .. } if !response.error.is_none())
    });
    let refused_lines: Vec<usize> = (0..lines.len())
        .filter(|i| lines[*i].ends_with("ConsumerGroupHeartbeat UNRELEASED_INSTANCE_ID"))
        .collect();
    assert_eq!(refused_lines.len(), refusals.count());
    for i in refused_lines {
        assert_eq!(
            lines[i - 1],
            "    C1->>G: ConsumerGroupHeartbeat",
            "{}",
            lines[i]
        );
    }
    for (i, line) in lines.iter().enumerate() {
        if line.contains("computes a new target assignment") {
            let before = lines[..i]
                .iter()
                .rev()
                .find(|l| !l.starts_with("    Note over G:"));
            assert!(
                before.is_some_and(|l| l.ends_with("->>G: ConsumerGroupHeartbeat")),
                "{line}"
            );
        }
    }
}
