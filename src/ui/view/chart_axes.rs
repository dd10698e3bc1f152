//! What the break-even explorer's two charts draw alike: the ticks of
//! both axes with the grid, and a dashed vertical marker.

use crate::ui::model::break_even::{BOTTOM, HEIGHT, LEFT, RIGHT, TOP};
use crate::ui::model::format::{fixed, num};
use yew::prelude::*;

/// The ticks of both axes and the grid lines, shared by the explorer's
/// charts. The last x tick's label ends at its tick, so the edge cannot
/// cut it.
pub(super) fn axes(x_ticks: &[(f64, String)], y_ticks: &[(f64, String)], width: f64) -> Html {
    html! {
        <>
            { for x_ticks.iter().enumerate().map(|(i, (x, label))| html! {
                <text class="be-tick" x={fixed(*x, 1)} y={num(HEIGHT - 14.0)}
                      text-anchor={if i + 1 == x_ticks.len() { "end" } else { "middle" }}>{ label.clone() }</text>
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
pub(super) fn marker_line(x: f64, class: &'static str, label: &'static str) -> Html {
    html! {
        <g class={class}>
            <line x1={fixed(x, 1)} x2={fixed(x, 1)} y1={num(TOP)} y2={num(HEIGHT - BOTTOM)}>
                <title>{ label }</title>
            </line>
        </g>
    }
}
