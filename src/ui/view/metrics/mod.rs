//! The metrics panel: what the rebalances have cost so far.
//!
//! The headline is the partition-unavailable time **after start-up**: what
//! restarts and failures cost, the figure that compares static and dynamic
//! membership (forming the group costs the same in both, so it is shown
//! apart). Then the totals (rebalances, partitions moved, the whole-group
//! stop time, fenced consumers) and a table per consumer (partitions gained,
//! lost, and the time its partitions sat unconsumed after start-up) whose
//! rows, with the "no owner" row, add up to the headline — in ms
//! (`data-ms`) and as shown (each rounded so the tenths add up). Static membership trades rebalances
//! and moves for unavailable time while a member restarts; this panel puts
//! both sides of that trade next to each other.
//!
//! The header's `rebalance-count` and `partition-moves` read-outs belong to
//! the app shell; this panel uses its own `data-metric` names.

mod consumer_row;

use crate::sim::metrics::{ConsumerMetrics, Metrics};
use crate::sim::snapshot::Snapshot;
use crate::ui::model::format::{format_seconds, tenths_adding_up};
use consumer_row::ConsumerRow;
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`MetricsPanel`].
#[derive(Properties, PartialEq)]
pub struct MetricsPanelProps {
    pub snap: Rc<Snapshot>,
}

/// One total: a label, a value and a line saying what it counts.
fn tile(metric: &'static str, label: &'static str, value: String, hint: &'static str) -> Html {
    html! {
        <div class="mx-tile" data-metric={metric}>
            <dt>{ label }</dt>
            <dd class="mx-value num">{ value }</dd>
            <dd class="mx-hint">{ hint }</dd>
        </div>
    }
}

/// The rows of the per-consumer table: every consumer in card order, then
/// any name the metrics still hold for a consumer no longer listed.
fn consumer_rows(snap: &Snapshot) -> Vec<(String, Option<usize>, ConsumerMetrics)> {
    let per = &snap.metrics.per_consumer;
    let mut rows: Vec<(String, Option<usize>, ConsumerMetrics)> = snap
        .consumers
        .iter()
        .map(|c| {
            let m = per.get(&c.name).cloned().unwrap_or_default();
            (c.name.clone(), Some(c.index.0), m)
        })
        .collect();
    for (name, m) in per {
        if !snap.consumers.iter().any(|c| &c.name == name) {
            rows.push((name.clone(), None, m.clone()));
        }
    }
    rows
}

/// The totals and the per-consumer table.
#[component]
pub fn MetricsPanel(props: &MetricsPanelProps) -> Html {
    let m = &props.snap.metrics;
    let fenced = if m.fenced.is_empty() {
        html! { <dd class="mx-hint">{ "stopped by FENCED_INSTANCE_ID" }</dd> }
    } else {
        html! { <dd class="mx-hint">{ format!("stopped by FENCED_INSTANCE_ID: {}", m.fenced.join(", ")) }</dd> }
    };
    let rows = consumer_rows(&props.snap);
    let after_ms = m.partition_unavailable_ms - m.startup_unavailable_ms;
    // Each row's part of the headline, shown so that the parts add up.
    let mut parts: Vec<u64> = rows
        .iter()
        .map(|r| r.2.unavailable_after_startup_ms)
        .collect();
    parts.push(m.unassigned_after_startup_ms);
    let shown = tenths_adding_up(&parts);
    html! {
        <div class="mx" data-testid="metrics">
            <dl class="mx-tiles">
                <div class="mx-tile mx-headline" data-metric="unavailable-after-startup"
                     data-testid="unavailable-after-startup" data-ms={after_ms.to_string()}>
                    <dt>{ "Unavailable after start-up" }</dt>
                    <dd class="mx-value num">{ format_seconds(after_ms) }</dd>
                    <dd class="mx-hint">{ "partition time lost to restarts and failures, summed over partitions" }</dd>
                </div>
                if m.restore_ms > 0 {
                    { tile("restore", "Of it, restoring state", format_seconds(m.restore_ms - m.startup_restore_ms),
                           "after start-up, partitions waiting while a consumer new to them rebuilt their state (restore_ms)") }
                }
                { tile("startup", "Start-up", format_seconds(m.startup_unavailable_ms),
                       if m.started_up { "forming the group: the same for static and dynamic" }
                       else { "forming the group: not every partition is consumed yet" }) }
                { tile("all-stopped", "Whole group stopped", format_seconds(m.all_stopped_ms),
                       "after start-up, time no partition was consumed (eager stop-the-world)") }
                { tile("rebalances", "Rebalances", m.rebalances.to_string(),
                       "times the group entered PreparingRebalance") }
                { tile("partitions-moved", "Partitions moved", m.partition_moves.to_string(),
                       "changed consumer between generations") }
                { tile("unavailable", "Partition-unavailable time", format_seconds(m.partition_unavailable_ms),
                       "in all: start-up plus after") }
                <div class="mx-tile" data-metric="fenced">
                    <dt>{ "Fenced consumers" }</dt>
                    <dd class="mx-value num">{ m.fenced.len() }</dd>
                    { fenced }
                </div>
            </dl>
            if !rows.is_empty() {
                { consumer_table(rows, &shown, m, after_ms) }
            }
        </div>
    }
}

/// The per-consumer table: a row per consumer (`shown`: each row's part of
/// the headline as shown, then the "no owner" row's), the "no owner" row and
/// the sum, `after_ms`.
fn consumer_table(
    rows: Vec<(String, Option<usize>, ConsumerMetrics)>,
    shown: &[u64],
    m: &Metrics,
    after_ms: u64,
) -> Html {
    html! {
        <table class="mx-table">
            <caption>{ "Per consumer" }</caption>
            <thead>
                <tr>
                    <th scope="col">{ "Consumer" }</th>
                    <th scope="col" title="partitions taken over from another consumer">{ "Gained" }</th>
                    <th scope="col" title="partitions given to another consumer or to nobody">{ "Lost" }</th>
                    <th scope="col" title="after start-up, time its assigned partitions sat unconsumed; the rows add up to the headline">{ "Unavailable after start-up" }</th>
                </tr>
            </thead>
            <tbody>
                { for rows.into_iter().zip(shown).map(|((name, index, metrics), shown_ms)| html! {
                    <ConsumerRow key={name.clone()} name={AttrValue::from(name.clone())} {index} {metrics}
                                 shown_ms={*shown_ms} />
                }) }
            </tbody>
            <tfoot>
                <tr data-consumer="" title="partitions no stored assignment gave to anyone">
                    <th scope="row">{ "no owner" }</th>
                    <td></td>
                    <td></td>
                    <td class="num" data-ms={m.unassigned_after_startup_ms.to_string()}>
                        { format_seconds(shown.last().copied().unwrap_or(0)) }
                    </td>
                </tr>
                <tr class="mx-sum" data-consumer="all">
                    <th scope="row">{ "in all" }</th>
                    <td></td>
                    <td></td>
                    <td class="num" data-ms={after_ms.to_string()}>{ format_seconds(after_ms) }</td>
                </tr>
            </tfoot>
        </table>
    }
}
