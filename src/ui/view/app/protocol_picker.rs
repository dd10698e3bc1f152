//! The `Group protocol` select (ui-contract.md, "Consumer groups"): the
//! classic protocol or KIP-848's consumer protocol; choosing one re-runs
//! the scenario from t = 0 with every consumer on it.

use crate::sim::GroupProtocol;
use crate::ui::model::Msg;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// Props of [`ProtocolPicker`].
#[derive(Properties, PartialEq)]
pub struct ProtocolPickerProps {
    pub selected: GroupProtocol,
    pub on_msg: Callback<Msg>,
}

/// The select with its visible label.
#[component]
pub fn ProtocolPicker(props: &ProtocolPickerProps) -> Html {
    let onchange = {
        let on_msg = props.on_msg.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            if let Some(p) = GroupProtocol::from_name(&select.value()) {
                on_msg.emit(Msg::SetProtocol(p));
            }
        })
    };
    let option = |p: GroupProtocol, words: &'static str| {
        html! {
            <option value={p.name()} selected={props.selected == p}>{ words }</option>
        }
    };
    html! {
        <label class="scenario-picker protocol-picker"
               title="group.protocol: classic (JoinGroup/SyncGroup) or consumer (KIP-848, Kafka 4.x: ConsumerGroupHeartbeat)">
            <span class="picker-label" aria-hidden="true">{ "Protocol" }</span>
            <select aria-label="Group protocol" {onchange}>
                { option(GroupProtocol::Classic, "classic") }
                { option(GroupProtocol::Consumer, "consumer") }
            </select>
        </label>
    }
}
