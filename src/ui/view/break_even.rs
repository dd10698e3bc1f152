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
//! [`Parameter`], applied by [`swept`]).

use crate::scenario::model::ScenarioFile;
use crate::scenario::sweep::{break_even, SweepPoint};
use crate::ui::model::break_even::{
    chart, durations, insert_points, next_duration, summary, swept, Chart, Choice, Parameter,
    Piece, HEIGHT, LEFT, MAX_WIDTH, TOP,
};
use crate::ui::model::format::{fixed, num};
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
    /// Opens the explorer when it turns true (a lesson step that shows it);
    /// closing stays the user's.
    #[prop_or_default]
    pub open: bool,
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
    // The points and the error of the scenario they were run for: a new
    // scenario (or choice) starts again from none, in the same render.
    let runs = use_state(|| {
        (
            Rc::clone(&scenario),
            Vec::<SweepPoint>::new(),
            None::<String>,
        )
    });
    let current = *runs.0 == *scenario;
    let points: &[SweepPoint] = if current { &runs.1 } else { &[] };
    let error = if current { runs.2.clone() } else { None };
    let all = Rc::new(durations(&scenario));
    let next = (*open && error.is_none())
        .then(|| next_duration(&scenario, points))
        .flatten();
    {
        let open = open.clone();
        use_effect_with(props.open, move |&asked| {
            if asked {
                open.set(true);
            }
        });
    }
    // One duration per frame while open and not done.
    {
        let (runs, scenario, done) = (runs.clone(), scenario.clone(), points.to_vec());
        use_effect_with((next, scenario.clone()), move |_| {
            let timer = next.map(|ms| {
                Timeout::new(0, move || match break_even(&scenario, &[ms]) {
                    Ok(more) => {
                        let mut done = done;
                        insert_points(&mut done, more);
                        runs.set((scenario, done, None));
                    }
                    Err(e) => runs.set((scenario, done, Some(e.to_string()))),
                })
            });
            move || drop(timer)
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
    let drawn = chart(points, &all, &scenario, width);
    html! {
        <section ref={section} class="break-even-explorer" aria-label="Break-even">
            <button type="button" class="action" aria-expanded={(*open).to_string()} onclick={toggle}>
                { "Break-even explorer" }
            </button>
            if *open {
                { body((&choice, &restore), error.as_deref(), &drawn, points, (all.len(), next.is_none())) }
                <ByState scenario={props.scenario.clone()} processing={*choice}
                         run={next.is_none() && error.is_none()} width={drawn.width} />
            }
        </section>
    }
}

/// The open explorer: the processing select, any error, the chart, its
/// key, and the progress or the summary. `(grid, done)`: how many evenly
/// spread durations there are, and whether the runs are over.
fn body(
    (choice, restore): (&UseStateHandle<Choice>, &UseStateHandle<Choice>),
    error: Option<&str>,
    drawn: &Chart,
    points: &[SweepPoint],
    (grid, done): (usize, bool),
) -> Html {
    let status = if done {
        html! { <span data-testid="break-even-summary">{ for summary(points).into_iter().map(piece) }</span> }
    } else if points.len() < grid {
        html! { { format!("Running the simulator: {} of {} restart durations…", points.len(), grid) } }
    } else {
        html! { { format!("Narrowing where the curves cross: {} runs so far…", points.len()) } }
    };
    html! {
        <div class="be-body">
            <div class="be-parameters">
                { parameter_select(Parameter::Processing, choice) }
                { parameter_select(Parameter::Restore, restore) }
            </div>
            if let Some(e) = error {
                <p class="field-error">{ e.to_string() }</p>
            }
            { key() }
            { plot(drawn) }
            <p class="be-status" aria-live="polite" aria-busy={(!done).to_string()}>{ status }</p>
            <p class="be-note">
                { "Each point is one seeded run of the whole story, every consumer static or every one dynamic: \
                   at this scenario's own restart it is the run compare mode's strip calls the whole story. \
                   A dynamic curve is jagged where its survivors happen to hear of a rebalance at different \
                   heartbeats (up to heartbeat.interval.ms apart), as in a real group." }
            </p>
        </div>
    }
}

/// One piece of the summary: a crossing is a `break-even-point`.
fn piece(p: Piece) -> Html {
    match p {
        Piece::Text(t) => html! { { t } },
        Piece::Crossing(ms, t) => html! {
            <strong class="be-point" data-testid="break-even-point" data-ms={ms.to_string()}>{ t }</strong>
        },
    }
}

/// The chart's key, in the page's text (it wraps on a phone).
fn key() -> Html {
    html! {
        <ul class="be-key" aria-label="Key">
            <li><span class="be-swatch be-swatch-static" aria-hidden="true"></span>{ "static members" }</li>
            <li><span class="be-swatch be-swatch-dynamic" aria-hidden="true"></span>{ "dynamic members" }</li>
            <li><span class="be-swatch be-swatch-crossing" aria-hidden="true"></span>{ "break-even (the curves cross)" }</li>
            <li><span class="be-swatch be-swatch-current" aria-hidden="true"></span>{ "this scenario's restart" }</li>
            <li><span class="be-swatch be-swatch-cliff" aria-hidden="true"></span>{ "session timeout" }</li>
        </ul>
    }
}

/// The SVG: axes, the two series, the cliff, the crossover, the current point.
fn plot(c: &Chart) -> Html {
    let width = c.width;
    let view_box = format!("0 0 {} {}", num(width), num(HEIGHT));
    html! {
        <svg data-testid="break-even" class="be-chart" viewBox={view_box} role="img"
             style={format!("max-width: {}px", num(width))}
             aria-label="Partition-unavailable time after start-up over restart duration, static and dynamic members">
            { axes(&c.x_ticks, &c.y_ticks, width) }
            // The markers are told apart by colour and dash, named in the
            // key above the chart, so close ones cannot write over each other.
            if let Some(x) = c.session_x {
                { marker_line(x, "be-cliff", "session timeout") }
            }
            if let Some(x) = c.current_x {
                { marker_line(x, "be-current", "this scenario's restart") }
            }
            { for c.crossings.iter().map(|(x, _, _)| marker_line(*x, "be-crossing", "break-even")) }
            { series("static", &c.static_line, &c.static_dots) }
            { series("dynamic", &c.dynamic_line, &c.dynamic_dots) }
            { for c.crossings.iter().map(|(x, y, ms)| html! {
                <circle class="be-crossing-dot" cx={fixed(*x, 1)} cy={fixed(*y, 1)} r="5">
                    <title>{ format!("break-even: the curves cross at a restart of {ms} ms") }</title>
                </circle>
            }) }
            <text class="be-axis" x={num(width / 2.0)} y={num(HEIGHT - 1.0)} text-anchor="middle">{ "restart duration" }</text>
            <text class="be-axis" x={num(LEFT)} y={num(TOP - 4.0)} text-anchor="start">{ "partition-unavailable time after start-up" }</text>
        </svg>
    }
}

fn series(name: &'static str, line: &str, dots: &[(f64, f64, u64, u64)]) -> Html {
    html! {
        <g class={classes!("be-series", format!("be-{name}"))} data-series={name}>
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
