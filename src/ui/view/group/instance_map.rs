//! The static member map `group.instance.id → member.id` as the coordinator
//! keeps it (`data-testid="instance-map"`), one row per instance with its
//! earlier member ids struck through: "replaced" (a new process joined
//! under the instance id), and FENCED only once a request sent with one was
//! refused with `FENCED_INSTANCE_ID` (spec §4 r3, r5); below it the pending
//! dynamic members of KIP-394 (told `MEMBER_ID_REQUIRED`, not members yet).

use crate::ids::MemberId;
use crate::sim::snapshot::InstanceRow;
use crate::sim::Snapshot;
use crate::ui::model::format::short_member_id;
use crate::ui::view::consumers::consumer_classes;
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`InstanceMap`].
#[derive(Properties, PartialEq)]
pub struct InstanceMapProps {
    pub snap: Rc<Snapshot>,
}

/// A member id in monospace, short, with the full id on hover.
fn member_id(id: &str) -> Html {
    html! { <code class="member-id" title={id.to_string()}>{ short_member_id(id) }</code> }
}

/// The table and the pending list.
#[component]
pub fn InstanceMap(props: &InstanceMapProps) -> Html {
    let snap = &props.snap;
    html! {
        <>
            <table class="instance-map" data-testid="instance-map">
                <thead>
                    <tr>
                        <th scope="col"><code>{ "group.instance.id" }</code></th>
                        <th scope="col"><code>{ "member.id" }</code>{ " now" }</th>
                        <th scope="col">{ "Earlier member ids" }</th>
                    </tr>
                </thead>
                <tbody>
                    if snap.instances.is_empty() {
                        <tr class="empty-row">
                            <td colspan="3">
                                { "No static members yet. A restart within " }<code>{ "session.timeout.ms" }</code>
                                { " keeps the row and replaces only the member.id: no rebalance." }
                            </td>
                        </tr>
                    }
                    { for snap.instances.iter().map(|row| instance_row(snap, row)) }
                </tbody>
            </table>
            if snap.consumer_group.is_none() {
                { pending(&snap.pending_members) }
            }
        </>
    }
}

/// One instance id: the consumer that uses it, its member id now (or
/// "removed"), and its earlier member ids, each marked replaced or FENCED.
fn instance_row(snap: &Snapshot, row: &InstanceRow) -> Html {
    let removed = row.member_id.is_empty();
    let colour = row
        .consumer
        .as_ref()
        .and_then(|n| snap.consumers.iter().find(|c| c.name == *n))
        .map(|c| consumer_classes(c.index.0))
        .unwrap_or_default();
    html! {
        <tr key={row.instance_id.to_string()} class={classes!("instance-row", colour, removed.then_some("removed"))}
            data-testid="instance-row" data-instance-id={row.instance_id.to_string()}
            data-member-id={row.member_id.to_string()} data-away={row.away.then_some("true")}>
            <th scope="row">
                <span class="swatch" aria-hidden="true"></span>
                <code>{ row.instance_id.to_string() }</code>
                if let Some(name) = row.consumer.as_ref().filter(|n| n.as_str() != row.instance_id.as_str()) {
                    <span class="muted consumer-name">{ format!(" ({name})") }</span>
                }
            </th>
            <td>
                if removed {
                    <span class="muted" title="No member has this group.instance.id now: it was removed (session expired or admin removal)">
                        { "— removed" }
                    </span>
                } else {
                    { member_id(row.member_id.as_str()) }
                    if row.away {
                        <span class="away-tag" title="It left with epoch -2 (KIP-848): its place and partitions are kept until the group's session timeout runs out; a process with this group.instance.id takes them back with no new epoch">
                            { "away, place kept" }
                        </span>
                    }
                }
            </td>
            <td class="history">
                if row.history.is_empty() {
                    <span class="muted">{ "—" }</span>
                }
                { for row.history.iter().rev().map(|old| {
                    let id = &old.member_id;
                    let (title, tag, class) = if old.fenced {
                        (format!("{id}: a request sent with it was refused with FENCED_INSTANCE_ID"), "FENCED", "fenced-tag")
                    } else {
                        (format!("{id}: replaced by a new process with this group.instance.id; a request sent with it would get FENCED_INSTANCE_ID"), "replaced", "replaced-tag")
                    };
                    html! {
                        <span class="old-id" data-fenced={old.fenced.to_string()} {title}>
                            <s><code class="member-id">{ short_member_id(id.as_str()) }</code></s>
                            <span class={class}>{ tag }</span>
                        </span>
                    }
                }) }
            </td>
        </tr>
    }
}

/// The dynamic members told `MEMBER_ID_REQUIRED` that have not joined yet.
fn pending(members: &[MemberId]) -> Html {
    html! {
        <div class="pending">
            <span class="pending-label">
                { "Pending (KIP-394, " }<code>{ "MEMBER_ID_REQUIRED" }</code>{ "):" }
            </span>
            if members.is_empty() {
                <span class="muted">{ " none" }</span>
            } else {
                { for members.iter().map(|m| html! {
                    <span key={m.to_string()} class="pending-id">{ member_id(m.as_str()) }</span>
                }) }
            }
        </div>
    }
}
