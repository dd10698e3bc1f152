//! The consumers panel: the controls that act on the group as a whole
//! ([`group_controls`]) and one card per consumer process ([`card`], with its
//! timers drawn by [`timers`]). The panel keeps which static cards are ticked
//! for the admin batch removal; that selection is only the view's.

pub mod add_partitions;
mod card;
mod group_controls;
mod timers;

use crate::sim::{Action, Snapshot};
use crate::ui::model::marks;
use crate::ui::model::UserAction;
use card::ConsumerCard;
use group_controls::GroupControls;
use std::collections::BTreeSet;
use std::rc::Rc;
use yew::prelude::*;

/// The colour classes of consumer `index`: its colour ([`marks::consumer_class`])
/// and, past the eighth consumer, the hatch that tells repeats apart.
pub fn consumer_classes(index: usize) -> Classes {
    classes!(
        marks::consumer_class(index),
        marks::colour_repeats(index).then_some("consumer-hatch")
    )
}

/// Props of [`Consumers`].
#[derive(Properties, PartialEq)]
pub struct ConsumersProps {
    pub snap: Rc<Snapshot>,
    pub on_action: Callback<UserAction>,
    /// False for a protocol scenario: its consumers send only its requests.
    #[prop_or(true)]
    pub controls: bool,
}

/// The ticked consumers, in card order. Only static consumers that still
/// exist can stay selected.
fn selected(snap: &Snapshot, ticked: &BTreeSet<String>) -> Vec<String> {
    snap.consumers
        .iter()
        .filter(|c| c.instance_id.is_some() && ticked.contains(&c.name))
        .map(|c| c.name.clone())
        .collect()
}

/// The simulated time, for the cards' timers. A context rather than a
/// prop of each card: a step that only moves the clock draws the timers
/// again, and a card only when its consumer changed.
#[derive(Clone, Copy, PartialEq)]
pub struct Now(pub u64);

/// The consumers panel's body: the group controls and the cards.
#[component]
pub fn Consumers(props: &ConsumersProps) -> Html {
    let ticked = use_state(BTreeSet::<String>::new);
    let selected = Rc::new(selected(&props.snap, &ticked));
    // The cards' callbacks stay the same from one render to the next (so
    // an unchanged card is not drawn again); an action goes to the panel's
    // latest `on_action`.
    let latest = use_mut_ref(|| props.on_action.clone());
    *latest.borrow_mut() = props.on_action.clone();
    let on_action = use_callback(ticked.setter(), move |a: UserAction, untick| {
        if matches!(a, UserAction::Act(Action::AdminRemove(_))) {
            untick.set(BTreeSet::new());
        }
        let on_action = latest.borrow().clone();
        on_action.emit(a);
    });
    let on_select = use_callback(ticked.clone(), |(name, on): (String, bool), ticked| {
        let mut next = (**ticked).clone();
        if on {
            next.insert(name);
        } else {
            next.remove(&name);
        }
        ticked.set(next);
    });
    html! {
        <>
            if props.controls {
                <GroupControls selected={Rc::clone(&selected)} consumers={props.snap.consumers.len()}
                               on_action={on_action.clone()} removal={props.snap.consumer_group.is_none()} />
            }
            if props.snap.consumers.is_empty() && !props.controls {
                <p class="empty-note">
                    { "No consumer has sent a JoinGroup yet. Each one that does gets a card here, named by its " }
                    <code>{ "group.instance.id" }</code>{ " (static) or by its first member id (dynamic)." }
                </p>
            } else if props.snap.consumers.is_empty() {
                <p class="empty-note">
                    { "No consumers yet. Add one: each gets a card here with its " }
                    <code>{ "member.id" }</code>{ ", its " }<code>{ "group.instance.id" }</code>
                    { " when it is static, and its session timer." }
                </p>
            } else {
                <ContextProvider<Now> context={Now(props.snap.now_ms)}>
                    <div class="member-list">
                        { for props.snap.consumers.iter().map(|c| html! {
                            <ConsumerCard key={c.name.clone()} view={c.clone()}
                                          selected={selected.contains(&c.name)} controls={props.controls}
                                          on_action={on_action.clone()} on_select={on_select.clone()} />
                        }) }
                    </div>
                </ContextProvider<Now>>
            }
        </>
    }
}
