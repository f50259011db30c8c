//! The CLI's underline of a diagnostic's range: the offending line of the input, and carets
//! under exactly the token the diagnostic's `start..end` covers (the range the page's editor
//! underlines), as compilers print them.

use policy_playground::diag::Diagnostic;

/// The line of `text` that holds `d`'s range, and a line of carets under the range:
///
/// ```text
///    3 |   "filtres": []
///      |   ^^^^^^^^^
/// ```
///
/// A range that runs past its line is underlined to the line's end. `None` when `d` has no
/// range or its range is not in `text` (a diagnostic of another file).
pub fn underline(d: &Diagnostic, text: &str) -> Option<String> {
    let range = d.range.as_deref()?;
    let start = range.start.offset as usize;
    let line_start = text.get(..start)?.rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let line = text[line_start..line_end].trim_end_matches('\r');
    let end = (range.end.offset as usize).clamp(start, line_start + line.len());
    let token = text.get(start..end)?;
    // Tabs stay tabs so that the carets line up under them; every other character is a column.
    let indent: String = text[line_start..start]
        .chars()
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    let carets = "^".repeat(token.chars().count().max(1));
    let number = range.start.line.to_string();
    let gutter = " ".repeat(number.len());
    Some(format!(
        "{number:>4} | {line}\n{gutter:>4} | {indent}{carets}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use policy_playground::diag::TextPoint;

    fn over(text: &str, from: &str, len: usize) -> Diagnostic {
        let start = text.find(from).unwrap();
        let point = |offset: usize| {
            let before = &text[..offset];
            TextPoint {
                line: before.matches('\n').count() as u32 + 1,
                column: 0,
                offset: offset as u32,
            }
        };
        Diagnostic::error("", "x").over(point(start), point(start + len))
    }

    #[test]
    fn underlines_exactly_the_token() {
        let text = "{\n  \"type\": \"filter\",\n  \"filtres\": []\n}\n";
        let d = over(text, "\"filtres\"", 9);
        assert_eq!(
            underline(&d, text).as_deref(),
            Some("   3 |   \"filtres\": []\n     |   ^^^^^^^^^")
        );
    }

    /// Characters count once whatever their bytes (é is two bytes); tabs stay tabs.
    #[test]
    fn counts_characters_and_keeps_tabs() {
        let text = "{\"name\": \"café\",\t\"x\": 1e999}";
        let d = over(text, "1e999", 5);
        assert_eq!(
            underline(&d, text).as_deref(),
            Some(concat!(
                "   1 | {\"name\": \"café\",\t\"x\": 1e999}\n",
                "     | ",
                "                \t     ^^^^^"
            ))
        );
    }

    /// A range past its line stops at the line's end; an empty range gets one caret.
    #[test]
    fn clamps_to_the_line() {
        let text = "[1,\r\n 2";
        let d = over(text, "1", 6);
        assert_eq!(
            underline(&d, text).as_deref(),
            Some("   1 | [1,\n     |  ^^")
        );
        let d = over(text, "2", 0);
        assert_eq!(underline(&d, text).as_deref(), Some("   2 |  2\n     |  ^"));
    }

    /// No range, or a range outside the text (or not on a character boundary): nothing.
    #[test]
    fn nothing_without_a_range_in_the_text() {
        assert_eq!(underline(&Diagnostic::error("", "x"), "abc"), None);
        let d = over("abcdefgh", "h", 1);
        assert_eq!(underline(&d, "abc"), None);
        // Offset 1 of "ab", inside the two bytes of "é".
        let d = over("ab", "b", 1);
        assert_eq!(underline(&d, "é"), None);
    }
}
