//! JSON inputs as text: parsing with positions for syntax errors, and placing the diagnostics of
//! a reader (which knows only paths) at their line and column.
//!
//! The readers walk a `serde_json::Value`, which is fast and is also what a scenario file hands
//! over for an embedded document, but which keeps no positions. When a text has problems, it is
//! parsed a second time with the position-keeping [`crate::json`] parser and each diagnostic's path
//! is looked up there. That second parse is only paid when there is something to report, and
//! only for texts up to [`PLACE_LIMIT`] bytes.

use crate::diag::Diagnostic;
use crate::json::{self, LineIndex, Node};

use crate::diag::Anchor;

/// Largest text whose diagnostics are placed at a line and column.
pub const PLACE_LIMIT: usize = 16 << 20;

/// Parses `text` with serde_json. A syntax error becomes one diagnostic at serde_json's line
/// and column (converted to UTF-16 code units), saying what kind of document was expected.
pub fn parse(text: &str, what: &str) -> Result<serde_json::Value, Diagnostic> {
    serde_json::from_str(text).map_err(|e| {
        let full = e.to_string();
        let reason = strip_position(&full);
        let d = Diagnostic::error("", format!("{what} is not valid JSON: {reason}"));
        if e.line() == 0 {
            return d;
        }
        let index = LineIndex::new(text);
        let mut offset = index.offset_of_byte_column(e.line(), e.column());
        // serde_json stops at the last character of a number too large for a double; the
        // diagnostic points at the number, as the policy reader's does.
        if reason == "number out of range" {
            let bytes = text.as_bytes();
            while offset > 0 && b"0123456789+-.eE".contains(&bytes[offset - 1]) {
                offset -= 1;
            }
        }
        index.place(d, offset)
    })
}

/// serde_json appends " at line L column C"; the diagnostic carries those separately.
fn strip_position(message: &str) -> &str {
    match message.rfind(" at line ") {
        Some(i) => &message[..i],
        None => message,
    }
}

/// The diagnostics placed at the positions their paths name in `text`, when the text is small
/// enough and parses; otherwise they are returned as they are.
pub fn place(text: &str, diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let root = if text.len() <= PLACE_LIMIT && diagnostics.iter().any(|d| d.line.is_none()) {
        json::parse(text).ok()
    } else {
        None
    };
    let Some(root) = root else {
        return diagnostics;
    };
    let index = LineIndex::new(text);
    diagnostics
        .into_iter()
        .map(|d| {
            if d.line.is_some() {
                return d;
            }
            match locate(&root, &d.path, d.anchor) {
                Some(offset) => index.place(d, offset),
                None => d,
            }
        })
        .collect()
}

/// The byte offset that `path` (`clusters[0].hosts[1].cpu`) names in a parsed document: the
/// value, or with [`Anchor::Key`] the key of the last member. A path that leaves the document
/// (a missing key, an index past the end) stops at the deepest value that exists, which is the
/// object lacking the key. None when the path cannot be read.
pub fn locate(root: &Node, path: &str, anchor: Anchor) -> Option<usize> {
    let segments = split_path(path)?;
    let mut node = root;
    for (k, segment) in segments.iter().enumerate() {
        let last = k + 1 == segments.len();
        match segment {
            Segment::Index(i) => match &node.value {
                json::Value::Array(items) => match items.get(*i) {
                    Some(item) => node = item,
                    None => return Some(node.offset),
                },
                _ => return Some(node.offset),
            },
            Segment::Key(key) => {
                let Some(members) = node.as_object() else {
                    return Some(node.offset);
                };
                match members.iter().find(|m| m.key == *key) {
                    Some(m) if last && anchor == Anchor::Key => return Some(m.key_offset),
                    Some(m) => node = &m.value,
                    None => return Some(node.offset),
                }
            }
        }
    }
    Some(node.offset)
}

enum Segment<'a> {
    Key(&'a str),
    Index(usize),
}

fn split_path(path: &str) -> Option<Vec<Segment<'_>>> {
    let mut out = Vec::new();
    for part in path.split('.').filter(|p| !p.is_empty()) {
        let (key, mut rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if !key.is_empty() {
            out.push(Segment::Key(key));
        }
        while let Some(r) = rest.strip_prefix('[') {
            let end = r.find(']')?;
            out.push(Segment::Index(r[..end].parse().ok()?));
            rest = &r[end + 1..];
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_error_position_in_utf16() {
        let text = "{\"name\": \"é😀\",\n  \"x\": ]}";
        let d = parse(text, "a topology").unwrap_err();
        assert!(
            d.message.starts_with("a topology is not valid JSON"),
            "{}",
            d.message
        );
        assert_eq!(d.line, Some(2));
        assert_eq!(d.column, Some(8));
    }

    #[test]
    fn a_number_out_of_range_is_placed_at_its_start() {
        let d = parse("{\"a\": [1,\n  -12.5e999]}", "a workload").unwrap_err();
        assert!(d.message.ends_with("number out of range"), "{}", d.message);
        assert_eq!((d.line, d.column), (Some(2), Some(3)));
    }

    #[test]
    fn locating_paths() {
        let text = "{\"a\": [ {\"b\": 1}, {\"c\": {\"d\": true}} ]}";
        let root = json::parse(text).unwrap();
        assert_eq!(locate(&root, "a[1].c.d", Anchor::Value), text.find("true"));
        assert_eq!(locate(&root, "a[1].c.d", Anchor::Key), text.find("\"d\""));
        assert_eq!(
            locate(&root, "a[0].missing", Anchor::Value),
            text.find("{\"b\"")
        );
        assert_eq!(locate(&root, "", Anchor::Value), Some(0));
        let d = place(text, vec![Diagnostic::error("a[0].b", "bad")]);
        assert_eq!((d[0].line, d[0].column), (Some(1), Some(15)));
    }
}
