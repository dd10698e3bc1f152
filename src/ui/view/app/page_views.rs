//! What the page reads from the store, once per store version.
//!
//! Every panel gets an `Rc` of a view built here (the [`Snapshot`], the
//! message flow's messages, the event log's rows, and the [`Chrome`] around
//! them), so a panel whose view did not change is not rebuilt.

use crate::coordinator::classic::GroupState;
use crate::scenario::ScenarioFile;
use crate::sim::snapshot::MessageView;
use crate::sim::Snapshot;
use crate::ui::model::lesson::LessonStep;
use crate::ui::model::step_info::STEP_INFO_IDLE;
use crate::ui::model::story::RunTimeline;
use crate::ui::model::{AppState, Messages, PartitionsForm, SettingsForm};
use crate::ui::view::compare::CompareViews;
use crate::ui::view::event_log::{recent_log_views, LogView};
use crate::ui::view::store::Store;
use std::rc::Rc;
use yew::prelude::*;

/// What the page shows besides the snapshot: the transport's and the
/// forms' state, the status line, the log filter.
#[derive(Clone, PartialEq)]
pub struct Chrome {
    pub playing: bool,
    pub speed: u64,
    pub max_steps: u64,
    pub preset: Option<AttrValue>,
    pub description: AttrValue,
    /// The notice, the page's error and the forms' errors.
    pub messages: Messages,
    pub settings_draft: SettingsForm,
    pub partitions_draft: PartitionsForm,
    pub log_filter: String,
    pub last_transition: Option<(GroupState, GroupState)>,
    /// Topics and their partition counts now (the add-partitions form's list).
    pub topics: Rc<Vec<(String, u32)>>,
    /// The narration caption: what the last step did and why it matters.
    pub narration: AttrValue,
    /// The whole run on one axis.
    pub timeline: Rc<RunTimeline>,
    /// What an action at a past point cut, while `Undo` can bring it back.
    pub fork_notice: Option<String>,
    /// The scenario playing (the break-even explorer sweeps it).
    pub scenario: Rc<ScenarioFile>,
    /// The guided lesson's step, while it is open.
    pub lesson: Option<LessonStep>,
    /// What the last `Step` ran (`step-info`).
    pub step_info: AttrValue,
    /// What compare mode's panes differ in (the `Difference` select).
    pub compare_mode: crate::ui::model::compare::CompareMode,
    /// A protocol scenario (recorded or live): nothing to act on or compare.
    pub protocol: bool,
    /// The group protocol the consumers speak (the `Group protocol` select).
    pub group_protocol: crate::sim::GroupProtocol,
    /// Live mode's badge: its words and its state.
    pub live: Option<(AttrValue, &'static str)>,
    /// The guidance line (`guide::hint`).
    pub hint: AttrValue,
    /// The run's figures in a sentence, while the lesson is open.
    pub lesson_figures: AttrValue,
    /// Which protocols' curves the break-even explorer draws.
    pub break_even_protocols: crate::ui::model::break_even_protocols::Protocols,
    /// The log the session replays (`Import log`), and whether compare
    /// mode is on (its what-if buttons turn it on).
    pub imported_log: Option<SameLog>,
    pub comparing: bool,
}

/// The imported log, equal to itself only (the state keeps it in one
/// `Rc` until another is imported), so that comparing views never reads
/// its events.
#[derive(Clone)]
pub struct SameLog(pub Rc<crate::ui::model::imported_log::ImportedLog>);

impl PartialEq for SameLog {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl Chrome {
    /// The chrome of `s`, whose world `snap` shows; `verdict`: the
    /// sentence on its story's twins.
    fn of(s: &AppState, snap: &Snapshot, verdict: Option<&str>) -> Self {
        Chrome {
            hint: crate::ui::model::lesson::guide::hint(s, snap, verdict).into(),
            lesson_figures: match s.lesson_step() {
                Some(_) => crate::ui::model::lesson::guide::figures(snap).into(),
                None => AttrValue::default(),
            },
            // In live mode, Play follows the broker (and Pause stays put).
            playing: s.live_session().map_or(s.is_playing(), |l| l.following),
            protocol: s.is_protocol(),
            group_protocol: s.group_protocol(),
            live: s.live_badge().map(|(t, st)| (t.into(), st)),
            speed: s.speed(),
            max_steps: s.max_steps(),
            preset: s.preset().map(|p| AttrValue::from(p.to_string())),
            description: s.scenario().description.clone().unwrap_or_default().into(),
            scenario: Rc::new(s.scenario().clone()),
            messages: s.messages().clone(),
            settings_draft: s.settings_draft().clone(),
            partitions_draft: s.partitions_draft().clone(),
            log_filter: s.log_filter().to_string(),
            last_transition: s.last_transition(),
            topics: Rc::new(
                s.world
                    .topics()
                    .iter()
                    .map(|(t, n)| (t.clone(), *n))
                    .collect(),
            ),
            narration: s.narration().into(),
            timeline: Rc::new(s.run_timeline()),
            fork_notice: s.fork_notice(),
            lesson: s.lesson_step(),
            compare_mode: s.compare_mode(),
            break_even_protocols: s.break_even_protocols(),
            imported_log: s
                .imported_log()
                .filter(|_| crate::sim::KIP848)
                .map(|l| SameLog(Rc::clone(l))),
            comparing: s.compare().is_some(),
            step_info: s
                .step_info()
                .map_or(AttrValue::Static(STEP_INFO_IDLE), |i| i.text().into()),
        }
    }
}

/// The verdict on this story's static and dynamic twins, whole stories
/// (none for a protocol scenario, or when a twin cannot run).
fn twin_verdict(file: &ScenarioFile) -> Option<String> {
    file.actions.as_ref()?;
    let mode = crate::ui::model::compare::CompareMode::StaticVsDynamic;
    let [s, d] = crate::ui::model::compare::whole_twins(mode, file).ok()?;
    Some(crate::ui::model::compare::verdict::static_vs_dynamic(
        &crate::ui::model::compare::verdict::Facts::of(file),
        &s,
        &d,
    ))
}

/// The views of one store version.
pub struct PageViews {
    pub snap: Rc<Snapshot>,
    /// Recently delivered messages followed by those in flight.
    pub messages: Rc<Vec<MessageView>>,
    /// The newest log rows that pass the filter, and how many pass in all.
    pub log: Rc<(Rc<Vec<LogView>>, usize)>,
    pub chrome: Rc<Chrome>,
    pub compare: Rc<Option<CompareViews>>,
    /// The guidance line (`guide::hint`).
    pub hint: AttrValue,
    /// The run's figures in a sentence, while the lesson is open.
    pub lesson_figures: AttrValue,
}

/// Reads the state once per store version and memoises each view.
#[hook]
pub fn use_page_views(store: UseReducerHandle<Store>) -> PageViews {
    let version = store.version;
    let snap: Rc<Snapshot> = {
        let store = store.clone();
        use_memo(version, move |_| store.state().world.snapshot())
    };
    let messages = {
        let (store, snap) = (store.clone(), Rc::clone(&snap));
        use_memo(version, move |_| {
            let state = store.state();
            let mut all: Vec<MessageView> = state.world.recent_messages().iter().cloned().collect();
            all.extend(snap.messages.iter().cloned());
            all
        })
    };
    let log = {
        let store = store.clone();
        use_memo(version, move |_| {
            let (views, total) = recent_log_views(&store.state());
            (Rc::new(views), total)
        })
    };
    let compare = {
        let store = store.clone();
        use_memo(version, move |_| CompareViews::of(&store.state()))
    };
    // The twins run whole once per scenario, not per step.
    let verdict = {
        let scenario = store.state().scenario().clone();
        use_memo(scenario, twin_verdict)
    };
    let chrome = {
        let snap = Rc::clone(&snap);
        use_memo(version, move |_| {
            Chrome::of(&store.state(), &snap, verdict.as_deref())
        })
    };
    PageViews {
        snap,
        messages,
        log,
        hint: chrome.hint.clone(),
        lesson_figures: chrome.lesson_figures.clone(),
        chrome,
        compare,
    }
}
