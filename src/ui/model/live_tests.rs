//! Protocol scenarios and live mode in the app's reducer.

use crate::scenario::model::RequestStep;
use crate::ui::model::*;
use serde_json::json;

fn conformance(name: &str) -> ScenarioFile {
    let text = std::fs::read_to_string(format!("tests/conformance/{name}.json")).unwrap();
    scenario::parse(&text).unwrap()
}

fn play_to_end(state: &mut AppState) {
    for _ in 0..10_000 {
        let before = state.world.steps();
        state.update(Msg::Step);
        if state.world.steps() == before {
            return;
        }
    }
    panic!("does not end");
}

#[test]
fn a_protocol_scenario_plays_in_the_app_and_steps_back() {
    let file = conformance("T08-static-follower-restart-keeps-assignment");
    let mut state = AppState::with_scenario(file, None);
    assert!(state.is_protocol());
    play_to_end(&mut state);
    let end = state.world.snapshot();
    assert_eq!(end.state, GroupState::Stable);
    assert!(end.consumers.iter().all(|c| c.instance_id.is_some()));
    assert!(!end.instances.is_empty());
    // Step back replays the same requests: the same world at every step.
    let steps = state.world.steps();
    state.update(Msg::StepBack);
    assert_eq!(state.world.steps(), steps - 1);
    state.update(Msg::Step);
    let mut again = state.world.snapshot();
    again.ended = end.ended;
    assert_eq!(again, end);
}

#[test]
fn a_protocol_scenario_refuses_what_its_requests_decide() {
    let file = conformance("T08-static-follower-restart-keeps-assignment");
    let mut state = AppState::with_scenario(file, None);
    let name = state
        .world
        .clients()
        .first()
        .map(|c| c.config().name.clone());
    state.update(Msg::Step);
    let steps = state.world.steps();
    state.update(Msg::User(UserAction::Act(crate::sim::Action::Crash(
        name.unwrap_or_default(),
    ))));
    assert!(state
        .messages()
        .error()
        .unwrap()
        .contains("protocol scenario"));
    state.update(Msg::ToggleCompare);
    assert!(state.compare().is_none());
    assert!(state.messages().error().unwrap().contains("compared"));
    assert_eq!(state.world.steps(), steps);
}

fn step_json(at_ms: u64, kind: &str, body: serde_json::Value) -> String {
    json!({"kind": "step", "step": {"at_ms": at_ms, kind: body}}).to_string()
}

fn feed(state: &mut AppState, text: &str) {
    let event = parse_message(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    state.update(Msg::Live(event));
}

/// A static member's session as a broker streams it: the same world as
/// the file of all its steps, opened at once.
#[test]
fn live_steps_give_the_same_world_as_the_recorded_file() {
    let mut state = AppState::new(None);
    state.start_live("ws://127.0.0.1:9093");
    let hello = json!({
        "kind": "hello",
        "now_ms": 0,
        "scenario": {
            "seed": 3,
            "config": {"initial_rebalance_delay_ms": 0},
            "topics": [{"name": "t", "partitions": 3}],
            "requests": []
        }
    });
    feed(&mut state, &hello.to_string());
    assert!(state.is_protocol());
    assert_eq!(state.live_session().unwrap().status, LiveStatus::Open);
    let join = json!({"member_id": "", "group_instance_id": "a", "client_id": "rdkafka",
        "session_timeout_ms": 10000, "rebalance_timeout_ms": 30000, "bind": "a"});
    feed(&mut state, &step_json(100, "join", join));
    feed(
        &mut state,
        &json!({"kind": "clock", "now_ms": 150}).to_string(),
    );
    let sync = json!({"member_id": "$a", "generation_id": 1, "group_instance_id": "a",
        "assignments": {"$a": ["t-0", "t-1", "t-2"]}});
    feed(&mut state, &step_json(160, "sync", sync));
    feed(
        &mut state,
        &json!({"kind": "clock", "now_ms": 3000}).to_string(),
    );
    let hb = json!({"member_id": "$a", "generation_id": 1, "group_instance_id": "a"});
    feed(&mut state, &step_json(3100, "heartbeat", hb));
    // The session expires at 3,100 + 10,000 with no further heartbeat.
    feed(
        &mut state,
        &json!({"kind": "clock", "now_ms": 14000}).to_string(),
    );
    let live_snap = state.world.snapshot();
    assert_eq!(live_snap.now_ms, 14000);
    assert_eq!(live_snap.state, GroupState::Empty, "expired");
    assert_eq!(live_snap.consumers.len(), 1);
    assert_eq!(live_snap.consumers[0].name, "a");

    // The file of the same steps, opened and played to the same time.
    let mut file = state.scenario.clone();
    file.requests.as_mut().unwrap().push(RequestStep {
        at_ms: 14000,
        tick: Some(Default::default()),
        ..serde_json::from_value(json!({"at_ms": 0})).unwrap()
    });
    let mut opened = AppState::with_scenario(file, None);
    play_to_end(&mut opened);
    let mut a = opened.world.snapshot();
    let mut b = live_snap.clone();
    a.steps = 0;
    b.steps = 0;
    a.ended = false;
    b.ended = false;
    a.next_event_ms = None;
    b.next_event_ms = None;
    assert_eq!(a, b);

    // Stepping back stops following; Play follows the broker again.
    state.update(Msg::StepBack);
    assert!(!state.live_session().unwrap().following);
    feed(
        &mut state,
        &json!({"kind": "clock", "now_ms": 15000}).to_string(),
    );
    assert!(state.world.now_ms() < 14000);
    state.update(Msg::TogglePlay);
    assert_eq!(state.world.now_ms(), 15000);
}

#[test]
fn a_live_step_older_than_the_view_replays_the_session() {
    let mut state = AppState::new(None);
    state.start_live("ws://127.0.0.1:9093");
    let hello = json!({"kind": "hello", "now_ms": 0, "scenario": {
        "config": {"initial_rebalance_delay_ms": 0},
        "topics": [{"name": "t", "partitions": 2}], "requests": []}});
    feed(&mut state, &hello.to_string());
    feed(
        &mut state,
        &json!({"kind": "clock", "now_ms": 500}).to_string(),
    );
    let join = json!({"member_id": "", "group_instance_id": "a", "bind": "a",
        "session_timeout_ms": 10000});
    feed(&mut state, &step_json(400, "join", join));
    assert_eq!(state.world.now_ms(), 500);
    assert_eq!(state.world.snapshot().consumers.len(), 1);
    assert_eq!(state.world.snapshot().generation_id, 1);
}

#[test]
fn bad_live_messages_are_named_and_change_nothing() {
    assert!(parse_message("{").unwrap_err().contains("not JSON"));
    // A kind from a newer broker is ignored, not an error.
    assert_eq!(
        parse_message(r#"{"kind":"nope"}"#),
        Ok(LiveEvent::Other("nope".into()))
    );
    let e = parse_message(r#"{"kind":"expect","index":0,"expect":[1]}"#).unwrap_err();
    assert!(e.contains("expect"), "{e}");
    assert!(parse_message(r#"{"kind":"clock"}"#)
        .unwrap_err()
        .contains("now_ms"));
    let e = parse_message(r#"{"kind":"step","step":{"at_ms":1,"jion":{}}}"#).unwrap_err();
    assert!(e.contains("jion"), "{e}");
    assert!(check_url("http://x").is_err());
    let mut state = AppState::new(None);
    state.start_live("ws://127.0.0.1:9093");
    let hello = json!({"kind": "hello", "now_ms": 0, "scenario": {"requests": []}});
    feed(&mut state, &hello.to_string());
    // A sync for a member no join bound: refused, named, not kept.
    let bad = json!({"member_id": "$ghost", "generation_id": 1});
    feed(&mut state, &step_json(10, "sync", bad));
    assert!(state.messages().error().unwrap().contains("ghost"));
    assert_eq!(state.scenario.requests.as_ref().unwrap().len(), 0);
}

#[test]
fn a_recorded_session_exports_and_shares_like_any_scenario() {
    use crate::ui::model::share::{download, open_link, share_fragment, Download};
    let file = conformance("T08-static-follower-restart-keeps-assignment");
    let mut state = AppState::with_scenario(file.clone(), None);
    for _ in 0..5 {
        state.update(Msg::Step);
    }
    for kind in Download::ALL {
        let out = download(&state, kind).unwrap_or_else(|e| panic!("{e}"));
        assert!(!out.text.is_empty(), "{kind:?}");
    }
    // The trace is the CLI's, byte for byte; the scenario is the file.
    let trace = download(&state, Download::Trace).unwrap().text;
    assert_eq!(
        trace,
        scenario::to_ndjson(&scenario::run(&file, None).unwrap())
    );
    let exported = download(&state, Download::Scenario).unwrap().text;
    assert_eq!(scenario::parse(&exported).unwrap(), file);
    // A share link reopens the same step.
    let back = open_link(&share_fragment(&state).unwrap()).unwrap();
    assert_eq!(back.world.snapshot(), state.world.snapshot());
}

#[test]
fn a_late_answer_becomes_its_steps_expect_as_in_the_record_file() {
    let mut state = AppState::live("ws://127.0.0.1:9093");
    let hello = json!({"kind": "hello", "now_ms": 0, "scenario": {
        "topics": [{"name": "t", "partitions": 2}], "requests": []}});
    feed(&mut state, &hello.to_string());
    let join = json!({"member_id": "", "group_instance_id": "a", "bind": "a"});
    feed(&mut state, &step_json(10, "join", join));
    let expect = json!({"kind": "expect", "index": 0,
        "expect": {"error": "NONE", "generation_id": 1, "member_id": "$a"}});
    feed(&mut state, &expect.to_string());
    let step = &state.scenario.requests.as_ref().unwrap()[0];
    assert_eq!(step.expect.as_ref().unwrap()["generation_id"], json!(1));
    feed(&mut state, r#"{"kind":"log_end","offsets":{"t-0":42}}"#);
    assert_eq!(state.live_session().unwrap().log_end["t-0"], json!(42));
    assert_eq!(state.messages().error(), None);
}

/// A consumer group's session as a broker streams it (KIP-848): the first
/// `consumer_heartbeat` turns the view into a consumer group's, the cards
/// follow their members, a -2 leave shows the member away, and the world
/// is the one the file of the same steps gives.
#[test]
fn a_live_consumer_group_plays_as_its_recorded_file() {
    let mut state = AppState::new(None);
    state.start_live("ws://127.0.0.1:9093");
    let hello = json!({
        "kind": "hello", "now_ms": 0,
        "scenario": {"seed": 3, "topics": [{"name": "t", "partitions": 2}], "requests": []}
    });
    feed(&mut state, &hello.to_string());
    assert_eq!(state.group_protocol(), crate::sim::GroupProtocol::Classic);
    let join = |m: &str, bind: &str| {
        json!({"member_id": m, "member_epoch": 0, "instance_id": bind,
               "rebalance_timeout_ms": 300000, "subscribed_topic_names": ["t"],
               "owned": [], "bind": bind})
    };
    feed(
        &mut state,
        &step_json(100, "consumer_heartbeat", join("id-a", "a")),
    );
    assert_eq!(state.group_protocol(), crate::sim::GroupProtocol::Consumer);
    assert!(
        state.world.consumer_group().is_some(),
        "the world has one now"
    );
    feed(
        &mut state,
        &step_json(200, "consumer_heartbeat", join("id-b", "b")),
    );
    let epoch_of = |state: &AppState, i: usize| {
        state.world.snapshot().consumers[i]
            .member_epoch
            .as_ref()
            .map(|m| m.member_epoch)
            .unwrap()
    };
    let beat = |name: &str, epoch: i32, owned: Vec<String>| {
        json!({"member_id": format!("${name}"), "member_epoch": epoch, "instance_id": name,
               "owned": owned})
    };
    // a gives up what moves to b; b then takes it.
    let all = vec!["t-0".to_string(), "t-1".to_string()];
    let a = beat("a", epoch_of(&state, 0), all);
    feed(&mut state, &step_json(300, "consumer_heartbeat", a));
    let target = state.world.consumer_group().unwrap().group().group_epoch();
    let kept: Vec<String> = state.world.snapshot().consumers[0]
        .member_epoch
        .as_ref()
        .map(|m| m.pending_revocation.clone())
        .into_iter()
        .flatten()
        .map(|p| p.to_string())
        .collect();
    assert_eq!(kept.len(), 1, "one partition to revoke");
    let rest: Vec<String> = ["t-0", "t-1"]
        .iter()
        .map(|p| p.to_string())
        .filter(|p| !kept.contains(p))
        .collect();
    let a = beat("a", epoch_of(&state, 0), rest);
    feed(&mut state, &step_json(400, "consumer_heartbeat", a));
    assert_eq!(epoch_of(&state, 0), target);
    let b = beat("b", epoch_of(&state, 1), Vec::new());
    feed(&mut state, &step_json(500, "consumer_heartbeat", b));
    feed(
        &mut state,
        &json!({"kind": "clock", "now_ms": 600}).to_string(),
    );
    let snap = state.world.snapshot();
    let owned: Vec<usize> = snap.consumers.iter().map(|c| c.owned.len()).collect();
    assert_eq!(owned, vec![1, 1], "{:?}", snap.consumers);
    // a leaves for now: away, its place kept.
    let away = json!({"member_id": "$a", "member_epoch": -2, "instance_id": "a"});
    feed(&mut state, &step_json(700, "consumer_heartbeat", away));
    let snap = state.world.snapshot();
    let a = &snap.consumers[0];
    assert_eq!(a.name, "a");
    assert!(a.member_epoch.as_ref().is_some_and(|m| m.away), "{a:?}");
    assert!(snap.instances.iter().any(|r| r.away));

    let mut opened = AppState::with_scenario(state.scenario.clone(), None);
    play_to_end(&mut opened);
    let (mut x, mut y) = (opened.world.snapshot(), snap.clone());
    for s in [&mut x, &mut y] {
        s.steps = 0;
        s.ended = false;
        s.next_event_ms = None;
    }
    assert_eq!(x, y);
}
