//! A small standalone SVG of a run's final state, for documents: the group
//! state diagram's five states with the current one highlighted (a
//! consumer group's own five, with its epochs, under KIP-848), and the
//! assignment grid (each partition and the consumer that owns it).
//! Colours are inline, so the file needs no stylesheet; the marks follow
//! the app's contract names (`data-state`, `aria-current`, `data-owner`).

use super::run::Run;
use super::text::xml;
use super::ExportError;
use crate::coordinator::classic::GroupState;
use crate::scenario::ScenarioFile;
use crate::sim::snapshot::PartitionView;
use crate::sim::Snapshot;
use std::fmt::Write;

const WIDTH: u32 = 640;
const CELL: u32 = 48;
const PER_ROW: u32 = 12;
/// One colour per consumer, cycling.
const PALETTE: [&str; 8] = [
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f",
];

/// The SVG of `file` run to its end (`seed` overrides the file's).
/// Protocol scenarios are refused.
pub fn svg(file: &ScenarioFile, seed: Option<u64>) -> Result<String, ExportError> {
    let run = Run::of(file, seed)?;
    let snapshot = run.world.snapshot();
    let names: Vec<&str> = run
        .world
        .clients()
        .iter()
        .map(|c| c.config().name.as_str())
        .collect();
    let mut body = String::new();
    let title = if file.name.is_empty() {
        "GroupScope"
    } else {
        &file.name
    };
    // A consumer group (KIP-848) has no generation: its state and epochs.
    let (state, at, names_of_states) = match &snapshot.consumer_group {
        Some(g) => (
            g.state.to_string(),
            format!(
                "group epoch {} · assignment epoch {}",
                g.group_epoch, g.assignment_epoch
            ),
            CONSUMER_GROUP_STATES.to_vec(),
        ),
        None => (
            snapshot.state.name().to_string(),
            format!("generation {}", snapshot.generation_id),
            GroupState::ALL.iter().map(|s| s.name()).collect(),
        ),
    };
    let _ = writeln!(
        body,
        r#"<text x="8" y="20" font-weight="bold">{}</text><text x="{}" y="20" text-anchor="end">{at} · {} ms</text>"#,
        xml(title),
        WIDTH - 8,
        snapshot.now_ms
    );
    states(&mut body, &names_of_states, &state);
    let height = grid(&mut body, &snapshot, &names, 96);
    Ok(format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" \
         viewBox=\"0 0 {WIDTH} {height}\" font-family=\"sans-serif\" font-size=\"12\" \
         role=\"img\" aria-label=\"{}\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n{body}</svg>\n",
        xml(&format!("{title}: {state} at {at}"))
    ))
}

/// A consumer group's states (KIP-848; Kafka's `ConsumerGroupState`),
/// as `ConsumerGroupView::state` names them.
const CONSUMER_GROUP_STATES: [&str; 5] = ["Empty", "Assigning", "Reconciling", "Stable", "Dead"];

/// The five states in a row; the current one filled.
fn states(out: &mut String, all: &[&str], current: &str) {
    let w = (WIDTH - 16 - 4 * 8) / 5;
    for (i, state) in all.iter().enumerate() {
        let x = 8 + i as u32 * (w + 8);
        let now = *state == current;
        let (fill, ink, weight, aria) = if now {
            ("#1f4e79", "#ffffff", "bold", r#" aria-current="step""#)
        } else {
            ("#f2f2f2", "#333333", "normal", "")
        };
        let _ = writeln!(
            out,
            r##"<g data-state="{name}"{aria}><rect x="{x}" y="36" width="{w}" height="36" rx="8" fill="{fill}" stroke="#1f4e79"/><text x="{cx}" y="58" text-anchor="middle" font-size="{size}" fill="{ink}" font-weight="{weight}">{name}</text></g>"##,
            name = state,
            cx = x + w / 2,
            size = if state.len() > 12 { 10 } else { 12 },
        );
    }
}

/// Each topic's partitions as cells coloured by owner, from `y` down;
/// returns the height used in all.
fn grid(out: &mut String, snapshot: &Snapshot, names: &[&str], mut y: u32) -> u32 {
    let mut topic = None;
    let mut column = 0;
    for p in &snapshot.partitions {
        if topic != Some(&p.partition.topic) {
            if topic.is_some() {
                y += CELL + 28;
            }
            topic = Some(&p.partition.topic);
            column = 0;
            let _ = writeln!(
                out,
                r#"<text x="8" y="{}">topic {}</text>"#,
                y + 4,
                xml(&p.partition.topic)
            );
        } else if column == PER_ROW {
            column = 0;
            y += CELL + 4;
        }
        cell(out, p, names, 8 + column * (CELL + 4), y + 12);
        column += 1;
    }
    if topic.is_some() {
        y += CELL + 28;
    }
    legend(out, names, y) + 16
}

fn cell(out: &mut String, p: &PartitionView, names: &[&str], x: u32, y: u32) {
    let owner = p.owner.as_deref().unwrap_or("");
    let colour = names
        .iter()
        .position(|n| *n == owner)
        .map_or("#ffffff", |i| PALETTE[i % PALETTE.len()]);
    let opacity = if p.consuming { "1" } else { "0.4" };
    let short: String = owner.chars().take(6).collect();
    let _ = writeln!(
        out,
        r##"<g class="partition" data-topic="{t}" data-partition="{n}" data-owner="{o}"><rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" rx="4" fill="{colour}" fill-opacity="{opacity}" stroke="#555555"/><text x="{cx}" y="{y1}" text-anchor="middle" font-size="10">{n}</text><text x="{cx}" y="{y2}" text-anchor="middle">{s}</text></g>"##,
        t = xml(&p.partition.topic),
        n = p.partition.partition,
        o = xml(owner),
        cx = x + CELL / 2,
        y1 = y + 16,
        y2 = y + 36,
        s = xml(&short),
    );
}

/// Consumer colours, one per line; returns the y below it.
fn legend(out: &mut String, names: &[&str], mut y: u32) -> u32 {
    for (i, name) in names.iter().enumerate() {
        let _ = writeln!(
            out,
            r##"<rect x="8" y="{y}" width="12" height="12" fill="{}"/><text x="26" y="{}">{}</text>"##,
            PALETTE[i % PALETTE.len()],
            y + 10,
            xml(name)
        );
        y += 16;
    }
    let _ = writeln!(
        out,
        r#"<text x="8" y="{}" font-size="10">faded: assigned but not being consumed (owner down or revoked); white: no owner</text>"#,
        y + 10
    );
    y + 16
}
