//! The break-even explorer's family of curves by state to restore
//! (`data-testid="break-even-by-state"`): what static membership saves
//! over dynamic as the restart gets longer, one curve per amount of state
//! a moved partition restores ([`LEVELS`]), so a reader sees where static
//! starts to pay for a stateful application. Computed by the simulator
//! in the browser one run per frame once the main chart is done, with
//! the progress shown; each curve's sentence names its break-evens
//! (`break-even-by-state-point`, `data-restore-ms`, `data-ms`) from the
//! points it plots.

use crate::scenario::model::ScenarioFile;
use crate::scenario::sweep::break_even;
use crate::ui::model::break_even::{
    insert_points, Choice, Piece, HEIGHT, LEFT, MAX_WIDTH, RIGHT, TOP,
};
use crate::ui::model::by_state::{
    chart, empty_curves, grid_runs, level_label, level_scenario, next_run, sentence, Curve, Family,
    LEVELS,
};
use crate::ui::model::format::{fixed, num};
use crate::ui::view::chart_axes::{axes, marker_line};
use gloo_timers::callback::Timeout;
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`ByState`].
#[derive(Properties, PartialEq)]
pub struct ByStateProps {
    /// The scenario as the explorer sweeps it, before its restore choice.
    pub scenario: Rc<ScenarioFile>,
    /// The explorer's processing choice (each curve keeps it).
    pub processing: Choice,
    /// Whether to run: the main chart is done.
    pub run: bool,
    /// The width the chart is drawn at (the panel's).
    pub width: f64,
}

/// The family: its runs one per frame, then its chart and sentences.
#[component]
pub fn ByState(props: &ByStateProps) -> Html {
    let key = (Rc::clone(&props.scenario), props.processing);
    // The curves and the error of the scenario they were run for.
    let runs = use_state(|| (key.clone(), empty_curves(), None::<String>));
    let current = runs.0 == key;
    let curves: Vec<Curve> = if current {
        runs.1.clone()
    } else {
        empty_curves()
    };
    let error = if current { runs.2.clone() } else { None };
    let next = (props.run && error.is_none())
        .then(|| next_run(&props.scenario, &curves))
        .flatten();
    {
        let (runs, key, done) = (runs.clone(), key.clone(), curves.clone());
        use_effect_with((next, key.clone()), move |_| {
            let timer = next.map(|(i, ms)| {
                Timeout::new(0, move || {
                    let level = level_scenario(&key.0, key.1, done[i].restore_ms);
                    match break_even(&level, &[ms]) {
                        Ok(more) => {
                            let mut done = done;
                            insert_points(&mut done[i].points, more);
                            runs.set((key, done, None));
                        }
                        Err(e) => runs.set((key, done, Some(e.to_string()))),
                    }
                })
            });
            move || drop(timer)
        });
    }
    let made: usize = curves.iter().map(|c| c.points.len()).sum();
    let status = if !props.run {
        "Runs once the chart above is done.".to_string()
    } else if next.is_some() {
        format!(
            "Running the simulator for each amount of state: {made} of at least {} runs…",
            grid_runs(&props.scenario)
        )
    } else {
        String::new()
    };
    let drawn = chart(&curves, &props.scenario, props.width);
    html! {
        <div class="be-by-state">
            <h3 class="be-title">{ "Where static membership pays, by state to restore" }</h3>
            <p class="be-note">
                { "Each curve: what static membership saves over dynamic (dynamic's partition-unavailable \
                   time after start-up minus static's) when every moved partition first restores this much \
                   state. Runs within 2 % (or 1 s) count as the same: one seeded run's jitter." }
            </p>
            if let Some(e) = error {
                <p class="field-error">{ e }</p>
            }
            { key_list() }
            { plot(&drawn) }
            if status.is_empty() {
                <ul class="be-levels" data-testid="break-even-by-state-summary">
                    { for curves.iter().map(level_item) }
                </ul>
            } else {
                <p class="be-by-state-status" aria-live="polite" aria-busy="true">{ status }</p>
            }
        </div>
    }
}

/// One level's sentence, its crossings marked.
fn level_item(curve: &Curve) -> Html {
    let restore = curve.restore_ms.to_string();
    html! {
        <li data-restore-ms={restore.clone()}>
            { for sentence(curve).into_iter().map(|p| match p {
                Piece::Text(t) => html! { { t } },
                Piece::Crossing(ms, t) => html! {
                    <strong class="be-point" data-testid="break-even-by-state-point"
                            data-restore-ms={restore.clone()} data-ms={ms.to_string()}>{ t }</strong>
                },
            }) }
        </li>
    }
}

/// The key: one swatch per level, light (no state) to dark (most state).
fn key_list() -> Html {
    html! {
        <ul class="be-key" aria-label="Key, by state to restore">
            { for LEVELS.iter().enumerate().map(|(i, ms)| html! {
                <li><span class={classes!("be-swatch", format!("be-swatch-level-{i}"))} aria-hidden="true"></span>{ level_label(*ms) }</li>
            }) }
            <li><span class="be-swatch be-swatch-zero" aria-hidden="true"></span>{ "break-even (saves nothing)" }</li>
            <li><span class="be-swatch be-swatch-cliff" aria-hidden="true"></span>{ "session timeout" }</li>
        </ul>
    }
}

/// The SVG: axes, the zero line, one series per level, its crossings.
fn plot(f: &Family) -> Html {
    let width = f.width.min(MAX_WIDTH);
    html! {
        <svg data-testid="break-even-by-state" class="be-chart" role="img"
             viewBox={format!("0 0 {} {}", num(width), num(HEIGHT))}
             style={format!("max-width: {}px", num(width))}
             aria-label="Time static membership saves over dynamic, over restart duration, one curve per amount of state to restore">
            { axes(&f.x_ticks, &f.y_ticks, width) }
            <line class="be-zero" x1={num(LEFT)} x2={num(width - RIGHT)} y1={fixed(f.zero_y, 1)} y2={fixed(f.zero_y, 1)}>
                <title>{ "break-even: static saves nothing" }</title>
            </line>
            if let Some(x) = f.session_x {
                { marker_line(x, "be-cliff", "session timeout") }
            }
            { for f.curves.iter().enumerate().map(|(i, c)| html! {
                <g class={classes!("be-series", format!("be-level-{i}"))} data-restore-ms={c.restore_ms.to_string()}>
                    <polyline points={c.line.clone()} />
                    { for c.dots.iter().map(|(x, y, restart, saving, same)| html! {
                        <circle cx={fixed(*x, 1)} cy={fixed(*y, 1)} r="2.5"
                                data-restart-ms={restart.to_string()} data-saving-ms={saving.to_string()}
                                data-same-within-ms={same.to_string()}>
                            <title>{ format!("{}: restart {} ms → static saves {} ms", level_label(c.restore_ms), restart, saving) }</title>
                        </circle>
                    }) }
                    { for c.crossings.iter().map(|(x, ms)| html! {
                        <circle class="be-crossing-dot" cx={fixed(*x, 1)} cy={fixed(f.zero_y, 1)} r="4">
                            <title>{ format!("{}: the cheaper side changes at a restart of {ms} ms", level_label(c.restore_ms)) }</title>
                        </circle>
                    }) }
                </g>
            }) }
            <text class="be-axis" x={num(width / 2.0)} y={num(HEIGHT - 1.0)} text-anchor="middle">{ "restart duration" }</text>
            <text class="be-axis" x={num(LEFT)} y={num(TOP - 4.0)} text-anchor="start">{ "time static saves (dynamic − static)" }</text>
        </svg>
    }
}
