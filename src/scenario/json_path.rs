//! The JSON path of the value that a serde_json error was raised in
//! (`requests[3].join.session_timeout_ms`), found from the error's line and
//! column by reading the text up to there. Deserializing straight from
//! serde_json and locating the error afterwards costs a small scanner, where
//! a path-tracking deserializer would wrap every visitor of every type of a
//! scenario file (about 14 KB of the page's gzip, BENCHMARKS.md).
//!
//! serde_json reports an error where it stopped reading: just after the
//! offending value (a wrong type, an unknown variant, a refused number), just
//! after the key it does not know, or just after the `}` of an object that
//! lacks a field. The path there is that of the value being read or just
//! read: every open object contributes the last key it read, every open
//! array the index of its last element. tests/json_path.rs checks this
//! against a path-tracking deserializer over mutations of every preset,
//! conformance file and share state.

/// One step into a JSON document.
enum Segment {
    Key(String),
    Index(usize),
}

/// An open object or array, and the key or element last read in it.
struct Open {
    is_object: bool,
    last: Option<Segment>,
    /// In an object: the next string is a key (after `{` or `,`).
    expects_key: bool,
}

/// The path of the value `error` was raised in, reading `text`, as
/// `a.b[2].c`; empty at the top level.
pub fn path_of(text: &[u8], error: &serde_json::Error) -> String {
    // Malformed JSON is in no value: its message gives the line and column.
    if error.is_syntax() || error.is_eof() {
        return String::new();
    }
    path_at(text, error.line(), error.column(), &error.to_string())
}

/// The path at serde_json's position `line`:`column` (1-based line, the
/// column counting the line's bytes read) for an error saying `message`.
fn path_at(text: &[u8], line: usize, column: usize, message: &str) -> String {
    let end = offset_of(text, line, column).min(text.len());
    let (mut stack, after_key) = open_values(text, end);
    at_the_error(&mut stack, text.get(end).copied(), message, after_key);
    path_text(&stack)
}

/// The objects and arrays open at byte `end`, each with the key or index
/// last read in it, and whether the last thing read was a key (nothing but
/// its `:` since).
fn open_values(text: &[u8], end: usize) -> (Vec<Open>, bool) {
    let mut stack: Vec<Open> = Vec::new();
    // The last thing read was a key (nothing but its `:` since).
    let mut after_key = false;
    let mut i = 0;
    while i < end {
        let b = text[i];
        if !matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b':') {
            after_key = false;
        }
        // A value starting in an array whose first element has not shown
        // yet is its element 0 (serde_json reads `[]` whole, so an error
        // just after `[` is the array's own).
        if !matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b']' | b',') {
            if let Some(open) = stack.last_mut() {
                if !open.is_object && open.last.is_none() {
                    open.last = Some(Segment::Index(0));
                }
            }
        }
        match b {
            b'{' | b'[' => {
                stack.push(Open {
                    is_object: b == b'{',
                    last: None,
                    expects_key: b == b'{',
                });
                i += 1;
            }
            b'}' | b']' => {
                stack.pop();
                i += 1;
            }
            b',' => {
                if let Some(open) = stack.last_mut() {
                    match open.last.as_mut() {
                        _ if open.is_object => open.expects_key = true,
                        Some(Segment::Index(n)) => *n += 1,
                        _ => {}
                    }
                }
                i += 1;
            }
            b'"' => {
                let (value, next) = string_at(text, i + 1);
                if let Some(open) = stack.last_mut() {
                    if open.is_object && open.expects_key {
                        open.last = Some(Segment::Key(value));
                        open.expects_key = false;
                        after_key = true;
                    }
                }
                i = next;
            }
            _ => i += 1,
        }
    }
    (stack, after_key)
}

/// Corrects the innermost open value for what serde_json reports where it
/// stopped (`next`, the byte at the error's position).
fn at_the_error(stack: &mut [Open], next: Option<u8>, message: &str, after_key: bool) {
    // Just past an array's `[`, an error is the array's (a visitor that
    // took no sequence) unless it is its first element's wrong type, which
    // serde_json reports at the element's `{` or `[` without reading it.
    if let (Some(open), Some(b)) = (stack.last_mut(), next) {
        let unread = match b {
            b'{' => "invalid type: map,",
            b'[' => "invalid type: sequence,",
            _ => "",
        };
        if !open.is_object
            && open.last.is_none()
            && !unread.is_empty()
            && message.starts_with(unread)
        {
            open.last = Some(Segment::Index(0));
        }
    }
    // A key naming no variant of an enum written `{"variant": …}` is the
    // enum's error, not a field's.
    if after_key && message.starts_with("unknown variant") {
        if let Some(open) = stack.last_mut() {
            open.last = None;
        }
    }
}

/// The open values' keys and indexes written `a.b[2].c`.
fn path_text(stack: &[Open]) -> String {
    let mut path = String::new();
    for open in stack {
        match &open.last {
            Some(Segment::Key(k)) => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
            }
            Some(Segment::Index(n)) => {
                path.push('[');
                path.push_str(&n.to_string());
                path.push(']');
            }
            None => {}
        }
    }
    path
}

/// The byte offset of serde_json's `line`:`column`: the column counts the
/// bytes read on that line.
fn offset_of(text: &[u8], line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line.max(1) {
        match text[start..].iter().position(|&b| b == b'\n') {
            Some(n) => start += n + 1,
            None => return text.len(),
        }
    }
    start + column
}

/// A string's value (escapes decoded) from just after its opening quote,
/// and the offset just after its closing quote (or the text's end).
fn string_at(text: &[u8], mut i: usize) -> (String, usize) {
    let mut bytes = Vec::new();
    let mut units: Vec<u16> = Vec::new();
    while i < text.len() {
        let b = text[i];
        if b == b'\\' && i + 1 < text.len() {
            let e = text[i + 1];
            i += 2;
            if e == b'u' {
                let hex = text.get(i..i + 4).and_then(|h| std::str::from_utf8(h).ok());
                if let Some(unit) = hex.and_then(|h| u16::from_str_radix(h, 16).ok()) {
                    units.push(unit);
                    i += 4;
                    continue;
                }
            }
            flush_units(&mut units, &mut bytes);
            bytes.push(match e {
                b'n' => b'\n',
                b't' => b'\t',
                b'r' => b'\r',
                b'b' => 0x08,
                b'f' => 0x0c,
                other => other,
            });
            continue;
        }
        flush_units(&mut units, &mut bytes);
        i += 1;
        if b == b'"' {
            break;
        }
        bytes.push(b);
    }
    flush_units(&mut units, &mut bytes);
    (String::from_utf8_lossy(&bytes).into_owned(), i)
}

/// `\u` escapes, surrogate pairs joined, as UTF-8.
fn flush_units(units: &mut Vec<u16>, bytes: &mut Vec<u8>) {
    for c in char::decode_utf16(units.drain(..)) {
        let c = c.unwrap_or(char::REPLACEMENT_CHARACTER);
        bytes.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
    }
}
