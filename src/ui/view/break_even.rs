//! The break-even explorer: a button (`Break-even explorer`) that opens a
//! chart (`data-testid="break-even"`) of what restarts cost static and
//! dynamic members over restart duration, computed by the real simulator
//! in the browser ([`crate::scenario::sweep`]), one duration per frame so
//! the page never freezes, with the progress shown: first an even grid
//! with the scenario's own restart among it, then runs that narrow each
//! crossing ([`next_duration`]). The sentence under the chart names each
//! crossing (`data-testid="break-even-point"`, `data-ms`) from the same
//! points the chart plots. The `Processing per batch` and `State to
//! restore per moved partition` selects re-run the sweep with every
//! consumer's batch or restore time set (the second parameters:
//! [`Parameter`], applied by [`swept`]). `Protocols in the chart` adds the
//! other group protocol's curves (`data-series="consumer-static"`, …,
//! dashed), its crossings (`break-even-point-other`, `data-protocol`) and
//! its session cliff, swept after the scenario's own over the same
//! restarts; the bundle without consumer groups hands the page over for it.

use crate::scenario::model::ScenarioFile;
use crate::scenario::sweep::{break_even, SweepPoint};
use crate::sim::{GroupProtocol, KIP848};
use crate::ui::model::break_even::{
    chart, durations_to, insert_points, next_duration_to, range_end, say_ms, session_ms, summary,
    swept, Chart, Choice, Parameter, Piece, HEIGHT, LEFT, MAX_WIDTH, TOP,
};
use crate::ui::model::break_even_protocols::{
    both_chart, both_summary, other_protocol, other_scenario, shared_end, OtherCurves, Protocols,
};
use crate::ui::model::format::{fixed, num};
use crate::ui::model::protocol::protocol_of;
use crate::ui::view::by_state::ByState;
use crate::ui::view::chart_axes::{axes, marker_line};
use crate::ui::view::element_width::use_element_width;
use gloo_timers::callback::Timeout;
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`BreakEven`].
#[derive(Properties, PartialEq)]
pub struct BreakEvenProps {
    /// The scenario to sweep (the one playing).
    pub scenario: Rc<ScenarioFile>,
    /// Opens the explorer when it turns true (a lesson step that shows it,
    /// an address that asks for both protocols); closing stays the user's.
    #[prop_or_default]
    pub open: bool,
    /// Which protocols' curves it draws (the store's).
    #[prop_or_default]
    pub protocols: Protocols,
    /// The `Protocols in the chart` choice.
    #[prop_or_default]
    pub on_protocols: Callback<Protocols>,
}

/// The select of `parameter`'s choices.
fn parameter_select(parameter: Parameter, choice: &UseStateHandle<Choice>) -> Html {
    let onchange = {
        let choice = choice.clone();
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            choice.set(parameter.choice_of(&v));
        })
    };
    html! {
        <label class="be-processing">
            { parameter.label() }
            <select {onchange}>
                { for parameter.choices().into_iter().map(|(value, label)| html! {
                    <option value={value.value()} selected={**choice == value}>{ label }</option>
                }) }
            </select>
        </label>
    }
}

/// The `Protocols in the chart` select: the scenario's own protocol, or
/// classic and consumer in one chart.
fn protocols_select(protocols: Protocols, this: GroupProtocol, on: &Callback<Protocols>) -> Html {
    let onchange = on.reform(|e: Event| {
        Protocols::of_value(
            &e.target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value(),
        )
    });
    html! {
        <label class="be-processing">
            { Protocols::LABEL }
            <select {onchange}>
                { for Protocols::choices().into_iter().map(|(value, label)| html! {
                    <option value={value.value()} selected={protocols == value}>
                        { if value == Protocols::This { format!("{} only", this.name()) } else { label.to_string() } }
                    </option>
                }) }
            </select>
        </label>
    }
}

/// One sweep of the explorer: the points run so far for its scenario up to
/// its longest restart, the error that stopped it, and the restart to run
/// next (`None`: done, or not asked to run).
struct Sweep {
    points: Vec<SweepPoint>,
    error: Option<String>,
    next: Option<u64>,
}

/// Runs `file`'s sweep up to `end_ms`, one restart duration per frame
/// while `go`, so the page never freezes; a new scenario or end starts
/// again from none, in the same render.
#[hook]
fn use_sweep(file: Option<Rc<ScenarioFile>>, end_ms: u64, go: bool) -> Sweep {
    let runs = use_state(|| {
        (
            file.clone(),
            end_ms,
            Vec::<SweepPoint>::new(),
            None::<String>,
        )
    });
    let current = runs.0 == file && runs.1 == end_ms;
    let points = if current { runs.2.clone() } else { Vec::new() };
    let error = if current { runs.3.clone() } else { None };
    let next = file
        .as_ref()
        .filter(|_| go && error.is_none())
        .and_then(|f| next_duration_to(f, &points, end_ms));
    {
        let (runs, done) = (runs.clone(), points.clone());
        use_effect_with((next, file, end_ms), move |(next, file, end_ms)| {
            let (file, end_ms) = (file.clone(), *end_ms);
            let timer = next.zip(file).map(|(ms, f)| {
                Timeout::new(0, move || match break_even(&f, &[ms]) {
                    Ok(more) => {
                        let mut done = done;
                        insert_points(&mut done, more);
                        runs.set((Some(f), end_ms, done, None));
                    }
                    Err(e) => runs.set((Some(f), end_ms, done, Some(e.to_string()))),
                })
            });
            move || drop(timer)
        });
    }
    Sweep {
        points,
        error,
        next,
    }
}

/// The explorer: closed, computing, or drawn.
#[component]
pub fn BreakEven(props: &BreakEvenProps) -> Html {
    let open = use_state(|| false);
    let choice = use_state(Choice::default);
    let restore = use_state(Choice::default);
    let scenario: Rc<ScenarioFile> = {
        let scenario = props.scenario.clone();
        use_memo((scenario, *choice, *restore), |(s, c, r)| swept(s, *c, *r))
    };
    let both = props.protocols == Protocols::Both;
    // The scenario under the other protocol, or why it cannot run there:
    // none in a bundle without consumer groups, which hands the page over
    // (`ui::view::app::bundle`) and so leaves the two-protocol view out.
    let other = use_memo((scenario.clone(), both), |(s, both)| {
        (*both && KIP848).then(|| other_scenario(s).map(Rc::new).map_err(|e| e.to_string()))
    });
    let other_file = other.as_ref().clone().and_then(Result::ok);
    // Both sweep the same restarts.
    let end = other_file
        .as_ref()
        .map_or(range_end(&scenario), |o| shared_end(&scenario, o));
    let runs_here = *open && (!both || KIP848);
    let this = use_sweep(Some(scenario.clone()), end, runs_here);
    let this_done = this.next.is_none() && this.error.is_none();
    let that = use_sweep(other_file.clone(), end, runs_here && this_done);
    {
        let open = open.clone();
        use_effect_with(props.open, move |&asked| {
            if asked {
                open.set(true);
            }
        });
    }
    let toggle = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    let section = use_node_ref();
    let width = match use_element_width(section.clone()) {
        0 => MAX_WIDTH,
        w => f64::from(w),
    };
    let all = durations_to(&scenario, end);
    let drawn = draw(
        (&scenario, &this),
        other_file.as_deref().zip(Some(&that)),
        &all,
        width,
    );
    let view = Explorer {
        scenario: &scenario,
        other: other
            .as_ref()
            .as_ref()
            .map(|o| o.as_ref().map(|f| &**f).map_err(String::as_str)),
        this: &this,
        that: &that,
        grid: all.len(),
        handing_over: *open && both && !KIP848,
    };
    let done = this_done && that.next.is_none();
    html! {
        <section ref={section} class="break-even-explorer" aria-label="Break-even">
            <button type="button" class="action" aria-expanded={(*open).to_string()} onclick={toggle}>
                { "Break-even explorer" }
            </button>
            if *open {
                <div class="be-body">
                    <div class="be-parameters">
                        { parameter_select(Parameter::Processing, &choice) }
                        { parameter_select(Parameter::Restore, &restore) }
                        { protocols_select(props.protocols, protocol_of(&scenario), &props.on_protocols) }
                    </div>
                    { view.body(&drawn.0, drawn.1.as_ref()) }
                </div>
                <ByState scenario={props.scenario.clone()} processing={*choice}
                         run={done && this.error.is_none() && !view.handing_over} width={drawn.0.width} />
            }
        </section>
    }
}

/// The chart of the scenario's own sweep, and with both protocols the
/// other's curves on the same axes.
fn draw(
    (file, this): (&ScenarioFile, &Sweep),
    other: Option<(&ScenarioFile, &Sweep)>,
    all: &[u64],
    width: f64,
) -> (Chart, Option<OtherCurves>) {
    match other.filter(|_| KIP848) {
        Some((o, that)) => {
            let b = both_chart((file, &this.points), (o, &that.points), all, width);
            (b.base, Some(b.other))
        }
        None => (chart(&this.points, all, file, width), None),
    }
}

/// What the open explorer shows below its selects.
struct Explorer<'a> {
    /// The scenario swept (its own protocol's curves).
    scenario: &'a ScenarioFile,
    /// With both protocols: the scenario under the other one, or why that
    /// protocol cannot run it.
    other: Option<Result<&'a ScenarioFile, &'a str>>,
    this: &'a Sweep,
    that: &'a Sweep,
    /// How many evenly spread durations each sweep runs first.
    grid: usize,
    /// Both protocols asked in the bundle without consumer groups: the
    /// page is being handed over.
    handing_over: bool,
}

impl Explorer<'_> {
    /// Any error, the key, the chart, and the progress or the summary.
    fn body(&self, drawn: &Chart, other: Option<&OtherCurves>) -> Html {
        let done = self.this.next.is_none() && self.that.next.is_none();
        let status = if self.handing_over {
            html! { { "Opening the page with consumer groups (kip848/), which runs both protocols…" } }
        } else if done {
            self.summary()
        } else {
            html! { { self.progress() } }
        };
        let error = self.this.error.as_ref().or(self.that.error.as_ref());
        html! {
            <>
                if let Some(e) = error {
                    <p class="field-error">{ e.to_string() }</p>
                }
                { key(self.scenario, other) }
                { plot(drawn, other) }
                <p class="be-status" aria-live="polite" aria-busy={(!done || self.handing_over).to_string()}>{ status }</p>
                <p class="be-note">
                    { "Each point is one seeded run of the whole story, every consumer static or every one dynamic: \
                       at this scenario's own restart it is the run compare mode's strip calls the whole story. \
                       A dynamic curve is jagged where its survivors happen to hear of a rebalance at different \
                       heartbeats (up to heartbeat.interval.ms apart), as in a real group." }
                </p>
            </>
        }
    }

    /// The progress while runs remain: the grid, then the narrowing, of
    /// one protocol and then the other.
    fn progress(&self) -> String {
        let (sweep, whose) = match (self.other.filter(|_| KIP848), self.this.next.is_some()) {
            (None, _) => (self.this, String::new()),
            (Some(_), true) => (
                self.this,
                format!(
                    " under the {} protocol (1 of 2)",
                    protocol_of(self.scenario).name()
                ),
            ),
            (Some(_), false) => (
                self.that,
                format!(
                    " under the {} protocol (2 of 2)",
                    other_protocol(self.scenario).name()
                ),
            ),
        };
        let n = sweep.points.len();
        if n < self.grid {
            format!(
                "Running the simulator{whose}: {n} of {} restart durations…",
                self.grid
            )
        } else {
            format!("Narrowing where the curves cross{whose}: {n} runs so far…")
        }
    }

    /// The sentence under the chart, from the points it plots.
    fn summary(&self) -> Html {
        let Some(other) = self.other.filter(|_| KIP848) else {
            return html! {
                <span data-testid="break-even-summary">
                    { for summary(&self.this.points).into_iter().map(|p| piece(p, None)) }
                </span>
            };
        };
        let other_name = other_protocol(self.scenario).name();
        let Ok(other) = other else {
            let reason = other.err().unwrap_or_default();
            return html! {
                <span data-testid="break-even-summary">
                    { for summary(&self.this.points).into_iter().map(|p| piece(p, None)) }
                    <span class="be-line">{ format!("The {other_name} protocol cannot run this scenario: {reason}") }</span>
                </span>
            };
        };
        let both = both_summary(
            (self.scenario, &self.this.points),
            (other, &self.that.points),
        );
        let line = |(protocol, pieces): (GroupProtocol, Vec<Piece>), other: bool| {
            let tag = if other {
                format!("{} protocol: ", protocol.name())
            } else {
                format!("{} protocol (this scenario's): ", protocol.name())
            };
            html! {
                <span class="be-line">
                    <strong>{ capitalised(&tag) }</strong>
                    { for pieces.into_iter().map(|p| piece(p, other.then_some(protocol))) }
                </span>
            }
        };
        html! {
            <span data-testid="break-even-summary">
                { line(both.this, false) }
                { line(both.other, true) }
                if let Some(h) = both.headline {
                    <span class="be-line" data-testid="break-even-headline" data-restart-ms={h.restart_ms.to_string()}>
                        { h.sentence() }
                    </span>
                }
            </span>
        }
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// One piece of a summary: a crossing of the scenario's own protocol's
/// curves is a `break-even-point`; of the other protocol's (`other`), a
/// `break-even-point-other` with its `data-protocol`.
fn piece(p: Piece, other: Option<GroupProtocol>) -> Html {
    match (p, other) {
        (Piece::Text(t), _) => html! { { t } },
        (Piece::Crossing(ms, t), None) => html! {
            <strong class="be-point" data-testid="break-even-point" data-ms={ms.to_string()}>{ t }</strong>
        },
        (Piece::Crossing(ms, t), Some(protocol)) => html! {
            <strong class="be-point" data-testid="break-even-point-other" data-ms={ms.to_string()}
                    data-protocol={protocol.name()}>{ t }</strong>
        },
    }
}

/// A cliff's name in the key: whose session timeout, and how long.
fn cliff_label(file: &ScenarioFile) -> String {
    let ms = session_ms(file);
    match protocol_of(file) {
        GroupProtocol::Classic => {
            format!("session timeout, classic: {} (the consumers')", say_ms(ms))
        }
        GroupProtocol::Consumer => {
            format!("session timeout, consumer: {} (the group's)", say_ms(ms))
        }
    }
}

/// The chart's key, in the page's text (it wraps on a phone); with both
/// protocols, the other's series (dashed, hollow dots), crossings and cliff.
fn key(file: &ScenarioFile, other: Option<&OtherCurves>) -> Html {
    let other = other.filter(|_| KIP848);
    let item = |class: &'static str, label: String| {
        html! {
            <li><span class={classes!("be-swatch", class)} aria-hidden="true"></span>{ label }</li>
        }
    };
    let Some(o) = other else {
        return html! {
            <ul class="be-key" aria-label="Key">
                { item("be-swatch-static", "static members".to_string()) }
                { item("be-swatch-dynamic", "dynamic members".to_string()) }
                { item("be-swatch-crossing", "break-even (the curves cross)".to_string()) }
                { item("be-swatch-current", "this scenario's restart".to_string()) }
                { item("be-swatch-cliff", "session timeout".to_string()) }
            </ul>
        };
    };
    let (this, that) = (protocol_of(file).name(), o.protocol.name());
    html! {
        <ul class="be-key" aria-label="Key">
            { item("be-swatch-static", format!("static, {this}")) }
            { item("be-swatch-dynamic", format!("dynamic, {this}")) }
            { item("be-swatch-static-other", format!("static, {that}")) }
            { item("be-swatch-dynamic-other", format!("dynamic, {that}")) }
            { item("be-swatch-crossing", format!("break-even, {this}")) }
            { item("be-swatch-crossing-other", format!("break-even, {that}")) }
            { item("be-swatch-current", "this scenario's restart".to_string()) }
            { item("be-swatch-cliff", cliff_label(file)) }
            { item("be-swatch-cliff-other", other_cliff_label(o)) }
        </ul>
    }
}

/// The other protocol's cliff in the key.
fn other_cliff_label(o: &OtherCurves) -> String {
    let whose = match o.protocol {
        GroupProtocol::Classic => "the consumers'",
        GroupProtocol::Consumer => "the group's",
    };
    format!(
        "session timeout, {}: {} ({whose})",
        o.protocol.name(),
        say_ms(o.session_ms)
    )
}

/// The SVG: axes, the series, the cliffs, the crossings, the current point.
fn plot(c: &Chart, other: Option<&OtherCurves>) -> Html {
    let other = other.filter(|_| KIP848);
    let width = c.width;
    let view_box = format!("0 0 {} {}", num(width), num(HEIGHT));
    let label = match other {
        None => "Partition-unavailable time after start-up over restart duration, static and dynamic members".to_string(),
        Some(_) => "Partition-unavailable time after start-up over restart duration, static and dynamic members, under the classic and the consumer protocol".to_string(),
    };
    html! {
        <svg data-testid="break-even" class="be-chart" viewBox={view_box} role="img"
             style={format!("max-width: {}px", num(width))} aria-label={label}>
            { axes(&c.x_ticks, &c.y_ticks, width) }
            // The markers are told apart by colour and dash, named in the
            // key above the chart, so close ones cannot write over each other.
            if let Some(x) = c.session_x {
                { marker_line(x, "be-cliff", "session timeout") }
            }
            if let Some(x) = other.and_then(|o| o.session_x) {
                { marker_line(x, "be-cliff-other", "the other protocol's session timeout") }
            }
            if let Some(x) = c.current_x {
                { marker_line(x, "be-current", "this scenario's restart") }
            }
            { for c.crossings.iter().map(|(x, _, _)| marker_line(*x, "be-crossing", "break-even")) }
            if let Some(o) = other {
                { for o.crossings.iter().map(|(x, _, _)| marker_line(*x, "be-crossing-other", "the other protocol's break-even")) }
                { series(&format!("{}-static", o.protocol.name()), "be-static be-other", &o.static_line, &o.static_dots) }
                { series(&format!("{}-dynamic", o.protocol.name()), "be-dynamic be-other", &o.dynamic_line, &o.dynamic_dots) }
            }
            { series("static", "be-static", &c.static_line, &c.static_dots) }
            { series("dynamic", "be-dynamic", &c.dynamic_line, &c.dynamic_dots) }
            { crossing_dots(&c.crossings, "be-crossing-dot", "") }
            if let Some(o) = other {
                { crossing_dots(&o.crossings, "be-crossing-dot be-crossing-dot-other", o.protocol.name()) }
            }
            <text class="be-axis" x={num(width / 2.0)} y={num(HEIGHT - 1.0)} text-anchor="middle">{ "restart duration" }</text>
            <text class="be-axis" x={num(LEFT)} y={num(TOP - 4.0)} text-anchor="start">{ "partition-unavailable time after start-up" }</text>
        </svg>
    }
}

/// The circles on the crossings, each with its restart in its tooltip.
fn crossing_dots(crossings: &[(f64, f64, u64)], class: &'static str, whose: &str) -> Html {
    let whose = if whose.is_empty() {
        String::new()
    } else {
        format!(" {whose}")
    };
    html! {
        { for crossings.iter().map(|(x, y, ms)| html! {
            <circle class={class} cx={fixed(*x, 1)} cy={fixed(*y, 1)} r="5">
                <title>{ format!("break-even{whose}: the curves cross at a restart of {ms} ms") }</title>
            </circle>
        }) }
    }
}

/// One series (`data-series`), its polyline and a dot per point with its
/// restart and cost.
fn series(name: &str, class: &'static str, line: &str, dots: &[(f64, f64, u64, u64)]) -> Html {
    html! {
        <g class={classes!("be-series", class)} data-series={name.to_string()}>
            <polyline points={line.to_string()} />
            { for dots.iter().map(|(x, y, restart, cost)| html! {
                <circle cx={fixed(*x, 1)} cy={fixed(*y, 1)} r="3"
                        data-restart-ms={restart.to_string()} data-cost-ms={cost.to_string()}>
                    <title>{ format!("{name}: restart {} ms → {} ms unavailable after start-up", restart, cost) }</title>
                </circle>
            }) }
        </g>
    }
}
