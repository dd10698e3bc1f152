//! What the break-even explorer's two charts draw alike: the ticks of
//! both axes with the grid, and a dashed vertical marker.

use crate::ui::model::break_even::{BOTTOM, HEIGHT, LEFT, RIGHT, TOP};
use crate::ui::model::format::{fixed, num};
use yew::prelude::*;

/// About how wide a tick label of `chars` characters is drawn (10 px text).
const TICK_CHAR_WIDTH: f64 = 6.0;

/// The ticks of both axes and the grid lines, shared by the explorer's
/// charts. A label is centred on its tick unless the edge would cut it;
/// then it ends at its tick (a last tick near the edge), while one with
/// room stays centred and clear of its neighbour.
pub(super) fn axes(x_ticks: &[(f64, String)], y_ticks: &[(f64, String)], width: f64) -> Html {
    let anchor = |x: f64, label: &str| {
        // Tick labels are ASCII ("120 s", "3 min"): bytes are characters.
        let half = label.len() as f64 * TICK_CHAR_WIDTH / 2.0;
        if x + half > width - 1.0 {
            "end"
        } else {
            "middle"
        }
    };
    html! {
        <>
            { for x_ticks.iter().map(|(x, label)| html! {
                <text class="be-tick" x={fixed(*x, 1)} y={num(HEIGHT - 14.0)}
                      text-anchor={anchor(*x, label)}>{ label.clone() }</text>
            }) }
            { for y_ticks.iter().map(|(y, label)| html! {
                <g>
                    <line class="be-grid" x1={num(LEFT)} x2={num(width - RIGHT)} y1={fixed(*y, 1)} y2={fixed(*y, 1)} />
                    <text class="be-tick" x={num(LEFT - 5.0)} y={fixed(*y + 4.0, 1)} text-anchor="end">{ label.clone() }</text>
                </g>
            }) }
        </>
    }
}

/// A dashed vertical marker, named in its tooltip and the key.
pub(super) fn marker_line(x: f64, class: &'static str, label: &str) -> Html {
    html! {
        <g class={class}>
            <line x1={fixed(x, 1)} x2={fixed(x, 1)} y1={num(TOP)} y2={num(HEIGHT - BOTTOM)}>
                <title>{ label.to_string() }</title>
            </line>
        </g>
    }
}
