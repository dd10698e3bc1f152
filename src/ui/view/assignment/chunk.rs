//! A topic's cells in chunks of whole visual rows, each chunk a component of
//! its own, so a step that changes a few cells of a large topic rebuilds and
//! diffs only their chunks, and the browser skips laying out and painting
//! the chunks off screen (`content-visibility: auto`, style.css).

use crate::ui::view::assignment::cell::Cell;
use std::ops::Range;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// A topic of at most this many partitions stays one chunk.
pub const SMALL_TOPIC: usize = 200;

/// About how many cells a chunk holds (rounded down to whole rows, and at
/// least one row).
pub const CHUNK_CELLS: usize = 100;

/// The chunks of a topic of `len` cells laid out in `columns` columns: whole
/// rows each, the last one possibly shorter. With `columns` unknown (0: not
/// measured yet, or hidden) or a small topic, one chunk of every cell, so
/// the first render (and the prerendered page) is the grid as one piece.
pub fn chunk_ranges(len: usize, columns: usize) -> Vec<Range<usize>> {
    if columns == 0 || len <= SMALL_TOPIC {
        return std::iter::once(0..len).collect();
    }
    let per = columns * (CHUNK_CELLS / columns).max(1);
    (0..len)
        .step_by(per)
        .map(|start| start..(start + per).min(len))
        .collect()
}

/// The visual rows `cells` cells take in `columns` columns.
pub fn rows(cells: usize, columns: usize) -> usize {
    cells.div_ceil(columns.max(1))
}

/// Whether a chunk must be drawn over the next one: a moved cell's ring
/// reaches over the cell below it, but each chunk is painted as a whole,
/// the next one over the previous, so a ring of the chunk's last row would
/// be hidden under a plain cell of the next chunk's first row. `last` and
/// `next` tell whether the cells of those rows moved, column by column.
pub fn ring_over_next(
    last: impl IntoIterator<Item = bool>,
    next: impl IntoIterator<Item = bool>,
) -> bool {
    last.into_iter()
        .zip(next)
        .any(|(above, below)| above && !below)
}

/// How many column tracks a computed `grid-template-columns` lists
/// (`"30.5px 30.5px …"`); 0 for `none` (not a grid, or not rendered).
pub fn track_count(computed: &str) -> usize {
    computed
        .split_whitespace()
        .filter(|t| t.ends_with("px"))
        .count()
}

/// The columns the browser lays a chunk of cells out in, read from the
/// first chunk's computed `grid-template-columns`, so it follows the CSS
/// (`auto-fill`, the narrow-screen cell size) exactly: 0 until the element
/// is on the page, then measured again whenever its size changes. A hidden
/// element keeps the count it had.
#[hook]
pub fn use_grid_columns(cells: NodeRef) -> usize {
    let columns = use_state_eq(|| 0);
    {
        let columns = columns.clone();
        let observed = cells.clone();
        use_effect_with((), move |_| {
            let measure = Closure::<dyn Fn()>::new(move || {
                let n = cells
                    .cast::<web_sys::Element>()
                    .and_then(|el| el.first_element_child())
                    .map_or(0, |chunk| track_count(&computed_columns(&chunk)));
                if n > 0 {
                    columns.set(n);
                }
            });
            let observer = web_sys::ResizeObserver::new(measure.as_ref().unchecked_ref()).ok();
            if let (Some(o), Some(el)) = (&observer, observed.cast::<web_sys::Element>()) {
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
    *columns
}

/// `getComputedStyle(element).gridTemplateColumns`, or "" where the browser
/// does not tell.
fn computed_columns(element: &web_sys::Element) -> String {
    let Some(window) = web_sys::window() else {
        return String::new();
    };
    let get = |target: &wasm_bindgen::JsValue, key: &str| {
        js_sys::Reflect::get(target, &wasm_bindgen::JsValue::from_str(key)).ok()
    };
    get(&window, "getComputedStyle")
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| f.call1(&window, element).ok())
        .and_then(|style| get(&style, "gridTemplateColumns"))
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}

/// Props of [`CellChunk`]: a range of the topic's cells. Two are equal when
/// the cells in their ranges are, whatever else changed in the topic.
#[derive(Properties)]
pub struct CellChunkProps {
    pub topic: AttrValue,
    pub cells: Rc<Vec<Cell>>,
    pub range: Range<usize>,
    /// The topic's columns when it is split in chunks, 0 when it is one.
    pub columns: usize,
    /// Drawn over the next chunk ([`ring_over_next`]).
    #[prop_or_default]
    pub over: bool,
}

impl PartialEq for CellChunkProps {
    fn eq(&self, other: &Self) -> bool {
        self.topic == other.topic
            && self.range == other.range
            && self.columns == other.columns
            && self.over == other.over
            && (Rc::ptr_eq(&self.cells, &other.cells)
                || self.cells[self.range.clone()] == other.cells[other.range.clone()])
    }
}

/// One chunk: a grid of cells (`data-testid="partition"` with `data-topic`,
/// `data-partition` and `data-owner`, empty if none). A cell is announced by
/// what its colour shows ("t-0: assigned to A, consuming"), not only in
/// `title`, which touch and screen readers miss. A chunk of a split topic
/// tells its row count (`--rows`) so the browser reserves its height while
/// it skips it.
#[component]
pub fn CellChunk(props: &CellChunkProps) -> Html {
    let topic = &props.topic;
    let cells = props.cells[props.range.clone()].iter().map(|c| {
        let said = AttrValue::from(c.title(topic));
        html! {
            <div class={c.class()} data-testid="partition" data-topic={topic.clone()}
                 data-partition={c.partition.to_string()}
                 data-owner={c.owner.clone().unwrap_or_default()} title={said.clone()}
                 role="img" aria-label={said}>
                { c.partition }
            </div>
        }
    });
    if props.columns == 0 {
        html! { <div class="assign-chunk">{ for cells }</div> }
    } else {
        let rows = rows(props.range.len(), props.columns);
        let class = classes!(
            "assign-chunk",
            "assign-chunk-lazy",
            props.over.then_some("assign-chunk-over")
        );
        html! {
            <div {class} style={format!("--rows: {rows}")}>
                { for cells }
            </div>
        }
    }
}

#[cfg(test)]
mod tests {
    //! Plain functions, so they run in Node (no browser needed).
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// Every range but the last holds whole rows, and together they cover
    /// every cell once, in order.
    fn check(len: usize, columns: usize) -> Vec<Range<usize>> {
        let ranges = chunk_ranges(len, columns);
        assert_eq!(ranges.first().map(|r| r.start), Some(0));
        assert_eq!(ranges.last().map(|r| r.end), Some(len));
        for pair in ranges.windows(2) {
            assert_eq!(pair[0].end, pair[1].start);
            assert_eq!(pair[0].len() % columns, 0, "{len} cells in {columns}");
        }
        ranges
    }

    fn one_chunk(len: usize) -> Vec<Range<usize>> {
        std::iter::once(0..len).collect()
    }

    #[test]
    fn an_unknown_width_or_a_small_topic_is_one_chunk() {
        assert_eq!(chunk_ranges(1_000, 0), one_chunk(1_000));
        assert_eq!(chunk_ranges(200, 30), one_chunk(200));
        assert_eq!(chunk_ranges(0, 30), one_chunk(0));
        assert_eq!(chunk_ranges(3, 0), one_chunk(3));
    }

    #[test]
    fn a_large_topic_is_split_in_whole_rows() {
        // 30 columns: 3 rows of 30 a chunk, the last chunk 1 row of 10.
        let ranges = check(1_000, 30);
        assert_eq!(ranges.len(), 12);
        assert_eq!(ranges[0], 0..90);
        assert_eq!(ranges[11], 990..1_000);
        // An exact multiple: ten chunks of ten rows of ten.
        let ranges = check(1_000, 10);
        assert_eq!(ranges.len(), 10);
        assert!(ranges.iter().all(|r| r.len() == 100));
        // Wider than a chunk's worth of cells: a row a chunk.
        let ranges = check(1_000, 150);
        assert_eq!(ranges[0], 0..150);
        assert_eq!(ranges.len(), 7);
        // Fewer cells than a row.
        assert_eq!(check(201, 400), one_chunk(201));
        // One column.
        assert_eq!(check(201, 1).len(), 3);
    }

    #[test]
    fn rows_round_up_to_whole_rows() {
        assert_eq!(rows(90, 30), 3);
        assert_eq!(rows(10, 30), 1);
        assert_eq!(rows(0, 30), 0);
        assert_eq!(rows(5, 0), 5);
    }

    #[test]
    fn a_chunk_is_drawn_over_the_next_where_a_ring_would_fall_on_a_plain_cell() {
        assert!(ring_over_next([false, true, false], [false, false, false]));
        // Under a moved cell, the next chunk's own ring is drawn on top.
        assert!(!ring_over_next([false, true], [false, true]));
        assert!(!ring_over_next([false, false], [true, true]));
        // A short last row: nothing under the rest.
        assert!(!ring_over_next([false, true], [false]));
        assert!(!ring_over_next([true], []));
    }

    #[test]
    fn tracks_are_counted_from_the_computed_style() {
        assert_eq!(track_count("none"), 0);
        assert_eq!(track_count(""), 0);
        assert_eq!(track_count("30px"), 1);
        assert_eq!(track_count("31.5px 31.5px 31.5px"), 3);
    }
}
