//! The width an element is drawn at, for the drawings that lay themselves
//! out to stay legible in a narrow panel (the state diagram, the
//! break-even chart).

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The element's width in CSS pixels: 0 until it is on the page, then
/// measured again whenever its size changes (a `ResizeObserver`: the window
/// resized, or the page making room for the lesson). A hidden element
/// measures 0 and keeps the width it had.
#[hook]
pub fn use_element_width(element: NodeRef) -> i32 {
    let width = use_state_eq(|| 0);
    {
        let width = width.clone();
        let element_for_observer = element.clone();
        use_effect_with((), move |_| {
            let measure = Closure::<dyn Fn()>::new(move || {
                if let Some(el) = element.cast::<web_sys::Element>() {
                    let w = el.client_width();
                    if w > 0 {
                        width.set(w);
                    }
                }
            });
            let observer = web_sys::ResizeObserver::new(measure.as_ref().unchecked_ref()).ok();
            if let (Some(o), Some(el)) =
                (&observer, element_for_observer.cast::<web_sys::Element>())
            {
                o.observe(&el);
            }
            move || {
                if let Some(o) = observer {
                    o.disconnect();
                }
                drop(measure);
            }
        });
    }
    *width
}
