//! Escaping for the three text formats the exporters write: Markdown table
//! cells, Mermaid message and note text, and XML.

/// A Markdown table cell: `|` would end the cell and a newline the row.
pub fn md_cell(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace(['\n', '\r'], " ")
}

/// Markdown inline code for an id; a backtick inside would end it early.
pub fn md_code(text: &str) -> String {
    if text.is_empty() {
        "—".to_string()
    } else {
        format!("`{}`", text.replace('`', "'"))
    }
}

/// Text Mermaid reads literally in a message or a note: `;` ends a
/// statement, `#` starts an entity code, quotes, `<`/`>` and `%%` confuse
/// its parser, and a newline ends the line. Each is replaced by a harmless
/// look-alike, so the diagram parses whatever a name or sentence holds.
pub fn mermaid_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            ';' => out.push(','),
            '#' => out.push_str("No."),
            '"' => out.push('\''),
            '<' => out.push('‹'),
            '>' => out.push('›'),
            '%' => out.push_str(" pct"),
            '{' => out.push('('),
            '}' => out.push(')'),
            '\n' | '\r' | '\t' => out.push(' '),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out.trim().to_string()
}

/// Text and attribute values in XML.
pub fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() && !matches!(c, '\n' | '\t') => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mermaid_text_replaces_every_character_mermaid_chokes_on() {
        assert_eq!(
            mermaid_text("a;b #1 \"q\" <x> 50% {y}\nz"),
            "a,b No.1 'q' ‹x› 50 pct (y) z"
        );
    }

    #[test]
    fn a_markdown_cell_keeps_its_pipes_and_stays_on_one_line() {
        assert_eq!(md_cell("a|b\nc"), "a\\|b c");
    }

    #[test]
    fn xml_escapes_markup_and_quotes() {
        assert_eq!(
            xml("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&apos;"
        );
    }
}
