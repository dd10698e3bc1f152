//! The guided lesson "Why static membership?": its steps (what each one
//! says, which preset it loads, where it stands in the run, whether compare
//! mode or the break-even explorer is open, which part of the page it
//! outlines) and the moves between them. No Yew import: the reducer
//! ([`crate::ui::model`]) applies a step and the steps are tested natively; the
//! panel (`lesson_view`, wasm only) only draws them.
//!
//! The story follows `teaching-notes.md` §4 (S1, S2, S4, S5) and the
//! presets' own descriptions: a dynamic rolling restart, the same one with
//! static members, the two side by side, when static membership does not
//! pay (break-even), a restart slower than the session, a duplicate
//! instance id fenced, and the admin's batch removal.

pub mod guide;

use crate::ui::model::compare::CompareMode;

/// The part of the page a lesson step outlines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    /// The Group panel: state, generation, rebalances, moves.
    Group,
    /// The Static members table (group.instance.id → member.id).
    Instances,
    /// The consumer cards.
    Consumers,
    /// The assignment grid.
    Assignment,
    /// Compare mode: the diff strip, the panes and the availability chart.
    Compare,
    /// The break-even explorer.
    BreakEven,
    /// The run timeline.
    Timeline,
}

impl Region {
    /// The CSS selector of the region's element on the full page.
    pub fn selector(self) -> &'static str {
        match self {
            Region::Group => ".panel-group",
            Region::Instances => ".panel-instances",
            Region::Consumers => ".panel-consumers",
            Region::Assignment => ".panel-assignment",
            Region::Compare => ".compare",
            Region::BreakEven => ".break-even-explorer",
            Region::Timeline => ".run-timeline",
        }
    }

    /// The region as the step's text names it ("the Group panel").
    pub fn words(self) -> &'static str {
        match self {
            Region::Group => "the Group panel",
            Region::Instances => "the Static members table",
            Region::Consumers => "the Consumers panel",
            Region::Assignment => "the Assignment grid",
            Region::Compare => "the compare section",
            Region::BreakEven => "the Break-even explorer",
            Region::Timeline => "the run timeline",
        }
    }
}

/// One step of the lesson.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stage {
    pub title: &'static str,
    /// One short paragraph.
    pub text: &'static str,
    /// The preset it loads.
    pub preset: &'static str,
    /// Where in the run it stands (virtual ms; the last event at or before it).
    pub at_ms: u64,
    /// Compare mode is open.
    pub compare: bool,
    /// What compare mode's panes differ in, when it is open.
    pub difference: CompareMode,
    /// The break-even explorer is open.
    pub break_even: bool,
    /// The part of the page outlined (the text names it).
    pub region: Region,
}

/// The steps, in order.
pub const STAGES: [Stage; 10] = [
    Stage {
        title: "A dynamic rolling restart",
        text: "Twelve consumers without group.instance.id are restarted one by one, each down 20 s; \
               a batch takes 2–5 s. A dynamic member sends LeaveGroup when it stops and joins as a \
               brand-new member when it starts: two rebalances per pod. At each one every consumer \
               finishes its batch, revokes all its partitions (eager) and waits for the slowest \
               member, so the whole group stops. Outlined: the Group panel — at 75 s app-11 has been \
               back for a while and app-10 is down: already generation 4, and partitions have moved.",
        preset: "rolling-restart-dynamic",
        at_ms: 75_000,
        compare: false,
        difference: CompareMode::StaticVsDynamic,
        break_even: false,
        region: Region::Group,
    },
    Stage {
        title: "The same rollout, static",
        text: "Now the pods are static members: group.instance.id is the pod name and \
               session.timeout.ms is 60 s. A static member sends no LeaveGroup when it stops; when it \
               comes back within its session with an empty member id, the coordinator replaces it under \
               its instance id — a new member.id, the same generation, the same two partitions. \
               Outlined: the Static members table — app-11 and app-10 already carry new member ids \
               (the old ones listed as replaced), and the generation is still 1.",
        preset: "rolling-restart-static",
        at_ms: 85_000,
        compare: false,
        difference: CompareMode::StaticVsDynamic,
        break_even: false,
        region: Region::Instances,
    },
    Stage {
        title: "Side by side on one clock",
        text: "The static group and its dynamic twin run the same rollout on one clock. Outlined: the \
               compare section — the diff strip counts rebalances, partitions moved and the time \
               partitions went unconsumed after start-up; the chart plots partitions being consumed. \
               The dynamic line drops at every rebalance, to zero while the whole group stops; the \
               static one dips only by the restarting pod's two partitions, which wait for it.",
        preset: "rolling-restart-static",
        at_ms: 200_000,
        compare: true,
        difference: CompareMode::StaticVsDynamic,
        break_even: false,
        region: Region::Compare,
    },
    Stage {
        title: "State makes a move expensive",
        text: "Kafka Streams keeps state per task: a partition that moves to another instance must have \
               its store restored from the changelog before it is processed again (10 s here, often \
               minutes in production). Static A comes back within its session and gets t-0..2 back with \
               their state: nothing moves and nothing is restored. Its dynamic twin rebalances twice and \
               restores every partition that changed hands. Outlined: the compare section — the strip \
               and the verdict under it give both costs from this run; the dotted lines in the chart count \
               the partitions waiting for their state.",
        preset: "stateful-restart",
        at_ms: 60_000,
        compare: true,
        difference: CompareMode::StaticVsDynamic,
        break_even: false,
        region: Region::Compare,
    },
    Stage {
        title: "When static membership does not pay",
        text: "Static membership moves the cost, it does not remove it: while a static member is down \
               nobody consumes its partitions. Here two consumers whose batches take no time restart \
               for 60 s each; a dynamic survivor would take the partitions over within a heartbeat. \
               Outlined: the Break-even explorer — the simulator reruns this scenario over restart \
               durations, static against dynamic, and marks where its curves cross and the \
               session-timeout cliff; its second choice, state to restore, shows how far a move's \
               restore moves that point. Static pays off when batches take time, groups are large or \
               state must be restored after a move.",
        preset: "slow-restart-static",
        at_ms: 100_000,
        compare: false,
        difference: CompareMode::StaticVsDynamic,
        break_even: true,
        region: Region::BreakEven,
    },
    Stage {
        title: "A restart slower than the session",
        text: "Static A needs 90 s to come back (a slow image pull), but session.timeout.ms is 45 s. \
               When the session expires the coordinator removes A with its instance-id mapping, and a \
               rebalance hands A's partitions to B and C; when A returns it is a brand-new static \
               member, and its join is a second rebalance (generation 3). A restart longer than the \
               session costs the stall plus two rebalances: set session.timeout.ms above your longest \
               restart, and no higher than needed — it is also how long a real crash goes unnoticed. \
               Outlined: the run timeline — its rebalance markers at the expiry and at A's return.",
        preset: "static-session-timeout",
        at_ms: 120_000,
        compare: false,
        difference: CompareMode::StaticVsDynamic,
        break_even: false,
        region: Region::Timeline,
    },
    Stage {
        title: "A duplicate instance id is fenced",
        text: "At 20 s a second process, A-copy, starts with group.instance.id=A while A still runs. \
               The newest joiner wins: the coordinator maps A to A-copy's member id with no rebalance, \
               and the old A gets FENCED_INSTANCE_ID (error 82) on its next heartbeat — fatal, it \
               stops. Until then both consume t-0..2: fencing is detected, not prevented. Outlined: \
               the Consumers panel — A fenced, A-copy holding A's partitions.",
        preset: "duplicate-instance-id",
        at_ms: 25_000,
        compare: false,
        difference: CompareMode::StaticVsDynamic,
        break_even: false,
        region: Region::Consumers,
    },
    Stage {
        title: "Scaling down: the admin's batch removal",
        text: "Static C and D shut down for good. They send no LeaveGroup, so their partitions would \
               stall until session.timeout.ms (5 min here). At 25 s an operator removes both in one \
               LeaveGroup v3 batch by group.instance.id (Admin.removeMembersFromConsumerGroup): one \
               rebalance, and A and B take over at once. Outlined: the Assignment grid — every \
               partition belongs to A or B again.",
        preset: "admin-remove",
        at_ms: 30_000,
        compare: false,
        difference: CompareMode::StaticVsDynamic,
        break_even: false,
        region: Region::Assignment,
    },
    Stage {
        title: "KIP-848: the -2 leave, or a crash refused",
        text: "Kafka 4's consumer protocol (group.protocol=consumer, KIP-848) has no JoinGroup: every \
               member heartbeats, and a static member that closes sends epoch -2, leaving for now with \
               its place and partitions kept. Here app-1 is killed instead: no -2, so its member stays \
               active and the restarted process is refused with UNRELEASED_INSTANCE_ID, which is fatal; \
               its partitions wait until the group's session (45 s, at most 60 s by default) removes \
               the old member. Outlined: the compare section — the same crash under classic, where the \
               restart simply replaces the member, beside the consumer protocol.",
        preset: "consumer-crash-restart",
        at_ms: 75_000,
        compare: true,
        difference: CompareMode::ClassicVsConsumer,
        break_even: false,
        region: Region::Compare,
    },
    Stage {
        title: "KIP-848: a rolling restart stops nobody",
        text: "The rolling restart again under the consumer protocol, static beside dynamic. Neither \
               stops the group: only the partitions that move pause. The static pods move nothing, \
               each one's two partitions waiting out its 20 s; the dynamic ones move four partitions \
               per pod, each pausing for a batch and a heartbeat. Outlined: the compare section — \
               without state dynamic loses less time here, but every move is a restore for a stateful \
               application. Continue in free play to try your own.",
        preset: "consumer-rolling-restart-static",
        at_ms: 200_000,
        compare: true,
        difference: CompareMode::StaticVsDynamic,
        break_even: false,
        region: Region::Compare,
    },
];

/// Where the lesson stands: an index into [`STAGES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LessonStep(usize);

impl LessonStep {
    /// The first step.
    pub const FIRST: LessonStep = LessonStep(0);

    /// Step `number` (from 1), if there is one.
    pub fn numbered(number: usize) -> Option<LessonStep> {
        (1..=STAGES.len())
            .contains(&number)
            .then(|| LessonStep(number - 1))
    }

    /// The step's content.
    pub fn stage(self) -> &'static Stage {
        &STAGES[self.0]
    }

    /// Its number, from 1.
    pub fn number(self) -> usize {
        self.0 + 1
    }

    /// The next step; the last one stays where it is.
    pub fn next(self) -> LessonStep {
        LessonStep((self.0 + 1).min(STAGES.len() - 1))
    }

    /// The previous step; the first one stays where it is.
    pub fn back(self) -> LessonStep {
        LessonStep(self.0.saturating_sub(1))
    }

    /// True on the first step.
    pub fn is_first(self) -> bool {
        self.0 == 0
    }

    /// True on the last step.
    pub fn is_last(self) -> bool {
        self.0 + 1 == STAGES.len()
    }
}

/// What the lesson's buttons (and Escape) ask of the reducer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LessonMsg {
    /// `Start lesson`: opens the first step.
    Start,
    /// `Next`.
    Next,
    /// `Back`.
    Back,
    /// `Continue in free play` (or Escape): closes the lesson where it stands.
    Close,
    /// Opens this step (an address's `&lesson=N`).
    Open(LessonStep),
}
