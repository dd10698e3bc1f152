//! Live mode (`?live=ws://127.0.0.1:9093`): the app shows the group of a
//! running `groupscope broker` as real clients move it. The broker streams
//! its recording (src/broker/ws.rs has the contract): a `hello` with the
//! protocol scenario so far, then each request `step` as its coordinator
//! handled it, `topics` when a topic appears, and a `clock` four times a
//! second. The app plays that protocol scenario in its own world — the same
//! coordinator, the same steps, the same seed — so every view (the state
//! diagram, the instance map, the grid, the log with its rules) shows what
//! the broker's coordinator did, and step back, the timeline and the
//! exports work on it as on any scenario.
//!
//! While *following*, the view keeps up with the broker's clock; any
//! Step, Step back or seek stops following, and Play follows again.
//!
//! A broker recording a consumer group (KIP-848) streams its
//! `consumer_heartbeat` steps the same way; the world plays them against
//! its own consumer-group coordinator (the page's first bundle, which has
//! none, hands the session to the one that has).

use crate::scenario::model::{RequestStep, TopicSpec};
use crate::scenario::scripted::{self, Cast};
use crate::scenario::{self, ScenarioFile};
use crate::ui::model::AppState;
use serde_json::Value;
use std::collections::BTreeMap;
use std::rc::Rc;

/// The connection to the broker, as the live badge shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiveStatus {
    Connecting,
    Open,
    /// Closed, or never opened: why.
    Closed(String),
}

/// What the broker's stream says (or the socket itself).
#[derive(Clone, Debug, PartialEq)]
pub enum LiveEvent {
    Status(LiveStatus),
    Hello {
        scenario: Box<ScenarioFile>,
        now_ms: u64,
    },
    Step(Box<RequestStep>),
    Topics(Vec<TopicSpec>),
    Clock(u64),
    /// The answer to step `index` came late (a parked JoinGroup or
    /// SyncGroup): the recording keeps it as that step's `expect`.
    Expect {
        index: usize,
        expect: BTreeMap<String, Value>,
    },
    /// Log end offsets per partition (`t-0` → 42) that moved (Produce).
    LogEnd(BTreeMap<String, Value>),
    /// A kind this page does not know (a newer broker's): ignored.
    Other(String),
}

/// A live session.
#[derive(Clone, Debug, PartialEq)]
pub struct Live {
    /// The broker's WebSocket address.
    pub url: String,
    pub status: LiveStatus,
    /// True while the view keeps up with the broker's clock.
    pub following: bool,
    /// The broker's clock, as last heard.
    pub now_ms: u64,
    /// Steps the broker sent that the view could not take, with why.
    pub refused: Option<String>,
    /// Each partition's log end offset, as the broker last said.
    pub log_end: BTreeMap<String, Value>,
    cast: Cast,
}

impl Live {
    pub fn new(url: &str) -> Self {
        Live {
            url: url.to_string(),
            status: LiveStatus::Connecting,
            following: true,
            now_ms: 0,
            refused: None,
            log_end: BTreeMap::new(),
            cast: Cast::default(),
        }
    }
}

/// Whether `url` is an address live mode connects to: `ws://` or `wss://`.
pub fn check_url(url: &str) -> Result<(), String> {
    if url.starts_with("ws://") || url.starts_with("wss://") {
        Ok(())
    } else {
        Err(format!(
            "live={url:?}: expected a WebSocket address like ws://127.0.0.1:9093 (groupscope broker's --ws-port)"
        ))
    }
}

/// Reads one message of the broker's stream; the error names what is wrong.
pub fn parse_message(text: &str) -> Result<LiveEvent, String> {
    // Every part is read by the scenario parser (one copy of serde's
    // machinery in the page): a step or the topics as a scenario of one.
    let v: Value = serde_json::from_slice(text.as_bytes()).map_err(|e| format!("not JSON: {e}"))?;
    let field = |k: &str| {
        v.get(k)
            .ok_or_else(|| format!("a {:?} message without {k:?}", v.get("kind")))
    };
    let now = |k: &str| {
        field(k)?
            .as_u64()
            .ok_or_else(|| format!("{k}: expected a whole number of ms"))
    };
    match v.get("kind").and_then(Value::as_str) {
        Some("hello") => {
            let text = field("scenario")?.to_string();
            let scenario = scenario::parse(&text).map_err(|e| format!("hello.scenario: {e}"))?;
            if scenario.requests.is_none() {
                return Err("hello.scenario: expected a protocol scenario (\"requests\")".into());
            }
            Ok(LiveEvent::Hello {
                scenario: Box::new(scenario),
                now_ms: now("now_ms")?,
            })
        }
        Some("step") => {
            let text = format!("{{\"requests\":[{}]}}", field("step")?);
            let mut file = scenario::parse_unchecked(&text)
                .map_err(|e| e.to_string().replacen("requests[0]", "step", 1))?;
            let step = file.requests.take().and_then(|mut s| s.pop());
            step.map(|s| LiveEvent::Step(Box::new(s)))
                .ok_or_else(|| "step: expected a request step".into())
        }
        Some("topics") => {
            let text = format!("{{\"requests\":[],\"topics\":{}}}", field("topics")?);
            scenario::parse_unchecked(&text)
                .map(|f| LiveEvent::Topics(f.topics))
                .map_err(|e| e.to_string())
        }
        Some("clock") => Ok(LiveEvent::Clock(now("now_ms")?)),
        Some("expect") => {
            let index = now("index")? as usize;
            let text = format!(
                "{{\"requests\":[{{\"at_ms\":0,\"tick\":{{}},\"expect\":{}}}]}}",
                field("expect")?
            );
            let mut file = scenario::parse_unchecked(&text)
                .map_err(|e| e.to_string().replacen("requests[0].", "", 1))?;
            let expect = file.requests.take().and_then(|mut s| s.pop()?.expect);
            Ok(LiveEvent::Expect {
                index,
                expect: expect.unwrap_or_default(),
            })
        }
        Some("log_end") => {
            let text = format!(
                "{{\"requests\":[],\"expect_summary\":{}}}",
                field("offsets")?
            );
            let file = scenario::parse_unchecked(&text)
                .map_err(|e| e.to_string().replacen("expect_summary", "offsets", 1))?;
            Ok(LiveEvent::LogEnd(file.expect_summary.unwrap_or_default()))
        }
        Some(other) => Ok(LiveEvent::Other(other.to_string())),
        None => Err("a message without \"kind\"".into()),
    }
}

impl AppState {
    /// The app in live mode on `url`, waiting for the broker's `hello`
    /// (a bad address opens the default preset, saying why).
    pub fn live(url: &str) -> Self {
        if let Err(e) = check_url(url) {
            let mut state = AppState::new(None);
            state.messages.set_error(e);
            return state;
        }
        let waiting = ScenarioFile {
            name: "Live session".into(),
            description: Some(format!(
                "Waiting for groupscope broker at {url}: start it with `groupscope broker --ws-port …` and point a consumer at it."
            )),
            requests: Some(Vec::new()),
            ..scenario::parse(r#"{"requests":[]}"#).expect("an empty protocol scenario parses")
        };
        let mut state = Self::with_scenario(waiting, None);
        state.start_live(url);
        state
    }

    /// What the live badge says, and its state (`connecting`, `open`,
    /// `closed`), while in live mode.
    pub fn live_badge(&self) -> Option<(String, &'static str)> {
        let live = self.mode.live()?;
        let (words, state) = match &live.status {
            LiveStatus::Connecting => ("connecting…".to_string(), "connecting"),
            LiveStatus::Open if live.following => ("live, following the broker".into(), "open"),
            LiveStatus::Open => ("live, paused here (Play follows the broker)".into(), "open"),
            LiveStatus::Closed(why) => (format!("disconnected: {why}"), "closed"),
        };
        Some((format!("{} · {words}", live.url), state))
    }

    /// True when the app plays a protocol scenario (a recorded or live
    /// session): its consumers follow their requests, so nothing can be
    /// added to it, compared or swept.
    pub fn is_protocol(&self) -> bool {
        self.scenario.requests.is_some()
    }

    /// Opens live mode on `url` (before the broker's `hello`, the view
    /// keeps what it shows). [`AppState::live`] calls it on a protocol
    /// scenario, which a live session always plays.
    pub(super) fn start_live(&mut self, url: &str) {
        match check_url(url) {
            Ok(()) => self.mode.start_live(Box::new(Live::new(url))),
            Err(e) => self.messages.set_error(e),
        }
    }

    /// One event of the live stream.
    pub(super) fn live_event(&mut self, event: LiveEvent) {
        let Some(live) = self.mode.live_mut() else {
            return;
        };
        match event {
            LiveEvent::Status(status) => {
                if let LiveStatus::Closed(why) = &status {
                    let notice = format!("Live: disconnected from {} ({why}).", live.url);
                    self.messages.set_notice(notice);
                }
                live.status = status;
            }
            LiveEvent::Hello { scenario, now_ms } => {
                live.now_ms = now_ms;
                live.following = true;
                live.status = LiveStatus::Open;
                self.replay_live(*scenario, 0);
            }
            LiveEvent::Step(step) => self.live_step(*step),
            LiveEvent::Topics(topics) => {
                self.scenario.topics = topics;
                self.rebuild_live();
            }
            LiveEvent::Clock(now_ms) => {
                live.now_ms = live.now_ms.max(now_ms);
                self.follow_live();
            }
            LiveEvent::Expect { index, expect } => {
                // The recording's answer, so Export scenario gives the broker's file.
                if let Some(step) = self
                    .scenario
                    .requests
                    .as_mut()
                    .and_then(|s| s.get_mut(index))
                {
                    step.expect = Some(expect);
                }
            }
            LiveEvent::LogEnd(offsets) => live.log_end.extend(offsets),
            LiveEvent::Other(_) => {}
        }
    }

    /// Takes the broker's next step: queued in the world (and in every
    /// checkpoint, so stepping back replays it too).
    fn live_step(&mut self, step: RequestStep) {
        let Some(live) = self.mode.live_mut() else {
            return;
        };
        live.now_ms = live.now_ms.max(step.at_ms);
        let steps = self.scenario.requests.get_or_insert_with(Vec::new);
        steps.push(step.clone());
        if let Err(e) = scenario::validate(&self.scenario) {
            self.scenario.requests.as_mut().map(Vec::pop);
            live.refused = Some(e.to_string());
            let why = format!("Live: the broker's step cannot be shown: {e}");
            self.messages.set_error(why);
            return;
        }
        let i = self.scenario.requests.as_ref().map_or(0, Vec::len) - 1;
        // The view ran past this step's time, or the session turns out to
        // be a consumer group's (KIP-848) and the world has none yet: play
        // the session again.
        let first_of_group =
            step.consumer_heartbeat.is_some() && self.world.consumer_group().is_none();
        if step.at_ms < self.world.now_ms() || (first_of_group && crate::sim::KIP848) {
            self.rebuild_live();
            return;
        }
        match scripted::prepare_step(&self.world, &mut live.cast, &self.scenario, i, &step) {
            Ok(prepared) => {
                scripted::queue_step(&mut self.world, &prepared);
                for c in &mut self.checkpoints {
                    scripted::queue_step(Rc::make_mut(c), &prepared);
                }
            }
            Err(e) => self.messages.set_error(format!("Live: {e}")),
        }
        self.follow_live();
    }

    /// Plays the session so far again from t = 0 to where the view was.
    fn rebuild_live(&mut self) {
        let at = self.world.now_ms();
        self.replay_live(self.scenario.clone(), at);
    }

    /// The session `scenario` from t = 0, run to `at_ms` and then, while
    /// following, to the broker's clock; the live session itself is kept.
    fn replay_live(&mut self, scenario: ScenarioFile, at_ms: u64) {
        let Some(mut live) = self.mode.take_live() else {
            return;
        };
        let (world, cast) = match scripted::world_of(&scenario, scenario.seed) {
            Ok(built) => built,
            Err(e) => {
                let why = format!("Live: the broker's session cannot be shown: {e}");
                self.messages.set_error(why);
                self.mode.start_live(live);
                return;
            }
        };
        live.cast = cast;
        *self = Self::with_world(scenario, None, world);
        self.mode.start_live(live);
        self.world.extend_run_to(at_ms);
        self.advance_to_ms(at_ms);
        self.follow_live();
    }

    /// While following, the view runs to the broker's clock.
    fn follow_live(&mut self) {
        let Some(live) = self.mode.live() else {
            return;
        };
        if !live.following {
            return;
        }
        let now = live.now_ms;
        self.world.extend_run_to(now);
        self.advance_to_ms(now);
    }

    /// Step, Step back or a seek: the view stays where the user put it.
    pub(super) fn stop_following(&mut self) {
        if let Some(live) = self.mode.live_mut() {
            live.following = false;
        }
    }

    /// Play in live mode: follow the broker again.
    pub(super) fn toggle_following(&mut self) {
        if let Some(live) = self.mode.live_mut() {
            live.following = !live.following;
        }
        self.follow_live();
    }
}
