//! A JSON reader that keeps where every value and key starts, so that diagnostics can point at the
//! offending token (SPEC 1.1: 1-based line, column in UTF-16 code units).
//!
//! serde_json is used for everything that is only read or written; this reader exists because the
//! policy language must report *all* problems of a document at their exact positions, which needs
//! the positions of keys and values that serde_json does not keep. It is strict RFC 8259 JSON
//! (no comments, no trailing commas), refuses numbers that do not fit an f64 (`1e999`), duplicate
//! keys and nesting deeper than [`MAX_DEPTH`], and never recurses more than that, so that 10 MB
//! of `[` is an error and not a stack overflow.

use crate::diag::{Diagnostic, TextPoint};

/// The byte order mark, skipped at the start of a document.
const BOM: char = '\u{feff}';

/// Deepest nesting of arrays and objects accepted (serde_json's default limit too).
pub const MAX_DEPTH: usize = 128;

/// A JSON value with the byte offset of its first character.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub value: Value,
    /// Byte offset in the source text of the value's first character.
    pub offset: usize,
}

/// A JSON value whose children keep their positions.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    /// A number: its source text (so that `2` and `2.0` stay distinguishable) and its value.
    Number(Number),
    String(String),
    Array(Vec<Node>),
    Object(Vec<Member>),
}

/// A JSON number as written.
#[derive(Debug, Clone, PartialEq)]
pub struct Number {
    pub text: String,
    pub value: f64,
}

impl Number {
    /// The number as an integer, when it is written without fraction or exponent and fits an i64.
    pub fn as_i64(&self) -> Option<i64> {
        if self.text.contains(['.', 'e', 'E']) {
            None
        } else {
            self.text.parse().ok()
        }
    }
}

/// One `"key": value` member of an object.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    pub key: String,
    /// Byte offset of the key's opening quote.
    pub key_offset: usize,
    pub value: Node,
}

impl Node {
    /// The members of an object, `None` for any other value.
    pub fn as_object(&self) -> Option<&[Member]> {
        match &self.value {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The member named `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.as_object()?
            .iter()
            .find(|m| m.key == key)
            .map(|m| &m.value)
    }

    /// The string value, `None` for any other value.
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// A short name of the value's JSON type, for messages (`"a string"`, `"an array"`).
    pub fn type_name(&self) -> &'static str {
        match &self.value {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        }
    }

    /// Converts to a serde_json value (numbers that are integers stay integers).
    pub fn to_serde(&self) -> serde_json::Value {
        match &self.value {
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(*b),
            Value::Number(n) => match n.as_i64() {
                Some(i) => serde_json::Value::from(i),
                None => serde_json::Number::from_f64(n.value)
                    .map(serde_json::Value::Number)
                    .unwrap_or(serde_json::Value::Null),
            },
            Value::String(s) => serde_json::Value::String(s.clone()),
            Value::Array(items) => {
                serde_json::Value::Array(items.iter().map(Node::to_serde).collect())
            }
            Value::Object(members) => serde_json::Value::Object(
                members
                    .iter()
                    .map(|m| (m.key.clone(), m.value.to_serde()))
                    .collect(),
            ),
        }
    }
}

/// Places a diagnostic at a byte offset of the text (or texts) a tree was parsed from: one text
/// ([`LineIndex`]) or an SDK experiment with the files it imports.
pub trait Place {
    /// The diagnostic placed over the token at `offset`.
    fn place_diagnostic(&self, diagnostic: Diagnostic, offset: usize) -> Diagnostic;
}

impl Place for LineIndex<'_> {
    fn place_diagnostic(&self, diagnostic: Diagnostic, offset: usize) -> Diagnostic {
        self.place(diagnostic, offset)
    }
}

/// Maps byte offsets of a text to 1-based lines and UTF-16 columns.
#[derive(Debug, Clone)]
pub struct LineIndex<'a> {
    text: &'a str,
    /// Byte offset of the start of each line.
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    /// Indexes the line starts of `text` (`\n`, `\r\n` and lone `\r` end a line).
    pub fn new(text: &'a str) -> Self {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => starts.push(i + 1),
                b'\r' if bytes.get(i + 1) != Some(&b'\n') => starts.push(i + 1),
                _ => {}
            }
            i += 1;
        }
        LineIndex { text, starts }
    }

    /// The 1-based line and UTF-16 column of a byte offset (clamped to the text).
    pub fn position(&self, offset: usize) -> (u32, u32) {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let mut start = self.starts[line];
        // A byte order mark is no column: editors do not show it and the browser's text
        // decoding removes it, so line 1 starts after it.
        if line == 0 && self.text.starts_with(BOM) && offset >= BOM.len_utf8() {
            start = BOM.len_utf8();
        }
        let column: usize = self.text[start..offset].chars().map(char::len_utf16).sum();
        (line as u32 + 1, column as u32 + 1)
    }

    /// The byte offset of a 1-based line and a column counted in bytes (serde_json's columns).
    /// serde_json ends lines at `\n` only, so a lone `\r` does not start one here.
    pub fn offset_of_byte_column(&self, line: usize, byte_column: usize) -> usize {
        let start = if line <= 1 {
            0
        } else {
            self.text
                .match_indices('\n')
                .nth(line - 2)
                .map_or(self.text.len(), |(i, _)| i + 1)
        };
        (start + byte_column.saturating_sub(1)).min(self.text.len())
    }

    /// The point at a byte offset.
    pub fn point(&self, offset: usize) -> TextPoint {
        let (line, column) = self.position(offset);
        TextPoint {
            line,
            column,
            offset: u32::try_from(offset.min(self.text.len())).unwrap_or(u32::MAX),
        }
    }

    /// A diagnostic placed over the token that starts at a byte offset ([`token_end`]).
    pub fn place(&self, diagnostic: Diagnostic, offset: usize) -> Diagnostic {
        let end = token_end(self.text, offset);
        diagnostic.over(self.point(offset), self.point(end))
    }
}

/// The end (exclusive byte offset) of the JSON token that starts at `offset`: a string with
/// its quotes (escapes skipped), a number, `true`/`false`/`null` or any other run of letters,
/// and one character for anything else (an object's opening brace, a stray character). At the
/// end of the text the range is empty.
pub fn token_end(text: &str, offset: usize) -> usize {
    let bytes = text.as_bytes();
    let Some(&first) = bytes.get(offset) else {
        return text.len();
    };
    let mut end = offset + 1;
    match first {
        b'"' => {
            while let Some(&b) = bytes.get(end) {
                end += if b == b'\\' { 2 } else { 1 };
                if b == b'"' {
                    break;
                }
            }
        }
        b'-' | b'0'..=b'9' => {
            while bytes.get(end).is_some_and(|b| {
                b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-')
            }) {
                end += 1;
            }
        }
        b if b.is_ascii_alphabetic() => {
            while bytes.get(end).is_some_and(u8::is_ascii_alphanumeric) {
                end += 1;
            }
        }
        _ => {
            // One character, whole (not one byte of it).
            while !text.is_char_boundary(end.min(text.len())) {
                end += 1;
            }
        }
    }
    end.min(text.len())
}

/// Parses `text` as one JSON document. On failure, returns the syntax error placed where the
/// parser stopped.
pub fn parse(text: &str) -> Result<Node, Diagnostic> {
    let mut parser = Parser {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        depth: 0,
        keep_duplicates: false,
    };
    let result = parser.document();
    result.map_err(|(offset, message)| {
        LineIndex::new(text).place(Diagnostic::error("", message), offset)
    })
}

/// Parses `text` as [`parse`] does, except that a key repeated in one object is kept as a second
/// member instead of being an error: OpenDC3 reads such a file (its tree reader keeps the last
/// value), so the SDK reader must too, and it warns at the later key (SPEC 11.2.2).
pub fn parse_keeping_duplicates(text: &str) -> Result<Node, Diagnostic> {
    let mut parser = Parser {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        depth: 0,
        keep_duplicates: true,
    };
    let result = parser.document();
    result.map_err(|(offset, message)| {
        LineIndex::new(text).place(Diagnostic::error("", message), offset)
    })
}

/// Parses the JSON value that occupies `text[start..end]` (a part of a larger document, found for
/// example with serde_json's `RawValue`), keeping offsets relative to the whole `text` so that a
/// [`LineIndex`] of `text` places its diagnostics.
pub fn parse_within(text: &str, start: usize, end: usize) -> Result<Node, Diagnostic> {
    let end = end.min(text.len());
    let mut parser = Parser {
        text: &text[..end],
        bytes: &text.as_bytes()[..end],
        pos: start.min(end),
        depth: 0,
        keep_duplicates: false,
    };
    let result = parser.document();
    result.map_err(|(offset, message)| {
        LineIndex::new(text).place(Diagnostic::error("", message), offset)
    })
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    depth: usize,
    /// Keep a repeated key as a second member instead of failing.
    keep_duplicates: bool,
}

type Fail = (usize, String);

impl Parser<'_> {
    fn document(&mut self) -> Result<Node, Fail> {
        if self.pos == 0 && self.text.starts_with('\u{feff}') {
            self.pos = 3;
        }
        self.skip_ws();
        if self.pos >= self.bytes.len() {
            return Err((self.pos, "empty document: expected a JSON value".into()));
        }
        let node = self.value()?;
        self.skip_ws();
        if self.pos < self.bytes.len() {
            return Err((
                self.pos,
                "unexpected characters after the JSON value".into(),
            ));
        }
        Ok(node)
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
    }

    fn value(&mut self) -> Result<Node, Fail> {
        let offset = self.pos;
        let value = match self.bytes.get(self.pos) {
            None => return Err((self.pos, "unexpected end of input: expected a value".into())),
            Some(b'{') => self.object()?,
            Some(b'[') => self.array()?,
            Some(b'"') => Value::String(self.string()?),
            Some(b'-' | b'0'..=b'9') => Value::Number(self.number()?),
            Some(b't') => self.literal("true", Value::Bool(true))?,
            Some(b'f') => self.literal("false", Value::Bool(false))?,
            Some(b'n') => self.literal("null", Value::Null)?,
            Some(_) => {
                let found = self.text[self.pos..].chars().next().unwrap_or(' ');
                return Err((self.pos, format!("expected a value, found `{found}`")));
            }
        };
        Ok(Node { value, offset })
    }

    fn literal(&mut self, word: &str, value: Value) -> Result<Value, Fail> {
        if self.bytes[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(value)
        } else {
            Err((
                self.pos,
                format!("expected a value (did you mean `{word}`?)"),
            ))
        }
    }

    fn enter(&mut self) -> Result<(), Fail> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            Err((
                self.pos,
                format!("nesting deeper than {MAX_DEPTH} levels is not accepted"),
            ))
        } else {
            Ok(())
        }
    }

    fn array(&mut self) -> Result<Value, Fail> {
        self.enter()?;
        self.pos += 1;
        let mut items = Vec::new();
        self.skip_ws();
        if self.bytes.get(self.pos) == Some(&b']') {
            self.pos += 1;
            self.depth -= 1;
            return Ok(Value::Array(items));
        }
        loop {
            self.skip_ws();
            items.push(self.value()?);
            self.skip_ws();
            match self.bytes.get(self.pos) {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    break;
                }
                None => {
                    return Err((
                        self.pos,
                        "unexpected end of input: expected `,` or `]`".into(),
                    ))
                }
                Some(_) => {
                    return Err((
                        self.pos,
                        "expected `,` or `]` after an array element".into(),
                    ))
                }
            }
            self.skip_ws();
            if self.bytes.get(self.pos) == Some(&b']') {
                return Err((
                    self.pos,
                    "trailing comma: expected a value after `,`".into(),
                ));
            }
        }
        self.depth -= 1;
        Ok(Value::Array(items))
    }

    fn object(&mut self) -> Result<Value, Fail> {
        self.enter()?;
        self.pos += 1;
        let mut members: Vec<Member> = Vec::new();
        self.skip_ws();
        if self.bytes.get(self.pos) == Some(&b'}') {
            self.pos += 1;
            self.depth -= 1;
            return Ok(Value::Object(members));
        }
        loop {
            self.skip_ws();
            let key_offset = self.pos;
            match self.bytes.get(self.pos) {
                Some(b'"') => {}
                None => return Err((self.pos, "unexpected end of input: expected a key".into())),
                Some(b'}') => {
                    return Err((self.pos, "trailing comma: expected a key after `,`".into()))
                }
                Some(_) => return Err((self.pos, "expected a key in double quotes".into())),
            }
            let key = self.string()?;
            if !self.keep_duplicates && members.iter().any(|m| m.key == key) {
                return Err((key_offset, format!("duplicate key `{key}`")));
            }
            self.skip_ws();
            match self.bytes.get(self.pos) {
                Some(b':') => self.pos += 1,
                None => return Err((self.pos, "unexpected end of input: expected `:`".into())),
                Some(_) => return Err((self.pos, format!("expected `:` after the key `{key}`"))),
            }
            self.skip_ws();
            let value = self.value()?;
            members.push(Member {
                key,
                key_offset,
                value,
            });
            self.skip_ws();
            match self.bytes.get(self.pos) {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    break;
                }
                None => {
                    return Err((
                        self.pos,
                        "unexpected end of input: expected `,` or `}`".into(),
                    ))
                }
                Some(_) => {
                    return Err((
                        self.pos,
                        "expected `,` or `}` after an object member".into(),
                    ))
                }
            }
        }
        self.depth -= 1;
        Ok(Value::Object(members))
    }

    fn string(&mut self) -> Result<String, Fail> {
        let start = self.pos;
        self.pos += 1;
        let mut out = String::new();
        loop {
            let run_start = self.pos;
            while let Some(&b) = self.bytes.get(self.pos) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.pos += 1;
            }
            out.push_str(&self.text[run_start..self.pos]);
            match self.bytes.get(self.pos) {
                None => return Err((start, "unterminated string".into())),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    let escape_at = self.pos;
                    self.pos += 1;
                    let c = match self.bytes.get(self.pos) {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.pos += 1;
                            let hi = self.hex4(escape_at)?;
                            let code = if (0xD800..0xDC00).contains(&hi) {
                                if !self.bytes[self.pos..].starts_with(b"\\u") {
                                    return Err((
                                        escape_at,
                                        "unpaired surrogate in a \\u escape".into(),
                                    ));
                                }
                                self.pos += 2;
                                let lo = self.hex4(escape_at)?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return Err((
                                        escape_at,
                                        "unpaired surrogate in a \\u escape".into(),
                                    ));
                                }
                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                            } else {
                                hi
                            };
                            let c = char::from_u32(code).ok_or((
                                escape_at,
                                "unpaired surrogate in a \\u escape".to_string(),
                            ))?;
                            out.push(c);
                            continue;
                        }
                        _ => return Err((escape_at, "invalid escape in a string".into())),
                    };
                    self.pos += 1;
                    out.push(c);
                }
                Some(_) => {
                    return Err((
                        self.pos,
                        "control character in a string (write it as an escape)".into(),
                    ))
                }
            }
        }
    }

    fn hex4(&mut self, escape_at: usize) -> Result<u32, Fail> {
        let digits = self
            .text
            .get(self.pos..self.pos + 4)
            .filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or((escape_at, "expected 4 hex digits after \\u".to_string()))?;
        self.pos += 4;
        u32::from_str_radix(digits, 16)
            .map_err(|_| (escape_at, "expected 4 hex digits after \\u".to_string()))
    }

    fn number(&mut self) -> Result<Number, Fail> {
        let start = self.pos;
        let digits = |p: &mut Self| {
            let s = p.pos;
            while let Some(b'0'..=b'9') = p.bytes.get(p.pos) {
                p.pos += 1;
            }
            p.pos - s
        };
        if self.bytes.get(self.pos) == Some(&b'-') {
            self.pos += 1;
        }
        let int_start = self.pos;
        let n = digits(self);
        if n == 0 {
            return Err((start, "invalid number: expected a digit".into()));
        }
        if n > 1 && self.bytes[int_start] == b'0' {
            return Err((
                start,
                "invalid number: leading zeros are not allowed".into(),
            ));
        }
        if self.bytes.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            if digits(self) == 0 {
                return Err((start, "invalid number: expected a digit after `.`".into()));
            }
        }
        if let Some(b'e' | b'E') = self.bytes.get(self.pos) {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.bytes.get(self.pos) {
                self.pos += 1;
            }
            if digits(self) == 0 {
                return Err((
                    start,
                    "invalid number: expected a digit in the exponent".into(),
                ));
            }
        }
        let text = &self.text[start..self.pos];
        let value: f64 = text
            .parse()
            .map_err(|_| (start, format!("invalid number `{text}`")))?;
        if !value.is_finite() {
            return Err((
                start,
                format!("number out of range: `{text}` does not fit a 64-bit float"),
            ));
        }
        Ok(Number {
            text: text.to_string(),
            value,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> (u32, u32, String) {
        let d = parse(text).expect_err("should fail");
        (d.line.unwrap(), d.column.unwrap(), d.message)
    }

    #[test]
    fn keeps_offsets_of_keys_and_values() {
        let text = "{\n  \"a\": [1, 2.5],\n  \"b\": \"x\"\n}";
        let node = parse(text).unwrap();
        let members = node.as_object().unwrap();
        assert_eq!(members[0].key_offset, 4);
        assert_eq!(members[1].key_offset, 21);
        let index = LineIndex::new(text);
        assert_eq!(index.position(members[1].key_offset), (3, 3));
        assert_eq!(index.position(members[1].value.offset), (3, 8));
    }

    #[test]
    fn columns_count_utf16_units() {
        // "é" is one UTF-16 unit (2 bytes), "😀" two units (4 bytes).
        let text = "{\"é😀\": x}";
        let (line, column, _) = err(text);
        assert_eq!((line, column), (1, 1 + 1 + 1 + 2 + 1 + 2 + 1));
    }

    #[test]
    fn syntax_errors_point_where_the_parser_stopped() {
        assert_eq!(err("").0, 1);
        assert_eq!(err("  ").2, "empty document: expected a JSON value");
        assert_eq!(err("{\"a\": 1,}").1, 9);
        assert_eq!(err("[1 2]").1, 4);
        assert_eq!(err("{\"a\" 1}").1, 6);
        assert_eq!(err("\n\n  tru").0, 3);
        assert!(err("{\"a\": 1} x").2.contains("after the JSON value"));
        assert!(err("\"abc").2.contains("unterminated"));
    }

    #[test]
    fn refuses_out_of_range_numbers_and_bad_numbers() {
        let (l, c, m) = err("{\"x\": 1e999}");
        assert_eq!((l, c), (1, 7));
        assert!(m.contains("out of range"), "{m}");
        assert!(err("01").2.contains("leading zeros"));
        assert!(err("1.").2.contains("after `.`"));
        assert!(err("-").2.contains("expected a digit"));
    }

    #[test]
    fn refuses_duplicate_keys() {
        let (_, c, m) = err("{\"a\": 1, \"a\": 2}");
        assert_eq!(c, 10);
        assert!(m.contains("duplicate key `a`"));
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let deep = "[".repeat(10 * 1024 * 1024);
        let (_, c, m) = err(&deep);
        assert_eq!(c as usize, MAX_DEPTH + 1);
        assert!(m.contains("nesting"));
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse(&ok).is_ok());
    }

    #[test]
    fn parses_a_part_of_a_document_with_whole_document_offsets() {
        let text = "{\"a\": 1,\n \"p\": {\"x\": [1, 2]}}";
        let start = text.find("{\"x").unwrap();
        let end = text.rfind('}').unwrap();
        let node = parse_within(text, start, end).unwrap();
        let members = node.as_object().unwrap();
        assert_eq!(members[0].key_offset, start + 1);
        assert_eq!(LineIndex::new(text).position(members[0].key_offset), (2, 8));
    }

    #[test]
    fn decodes_escapes() {
        let node = parse(r#""a\n\u00e9\ud83d\ude00\"""#).unwrap();
        assert_eq!(node.as_str(), Some("a\né😀\""));
        assert!(err(r#""\ud83d""#).2.contains("surrogate"));
        assert!(err("\"a\u{1}\"").2.contains("control character"));
    }

    #[test]
    fn integers_and_floats_stay_distinct() {
        let node = parse("[2, 2.0, -0, 1e2]").unwrap();
        let Value::Array(items) = node.value else {
            panic!()
        };
        let ints: Vec<Option<i64>> = items
            .iter()
            .map(|n| match &n.value {
                Value::Number(n) => n.as_i64(),
                _ => None,
            })
            .collect();
        assert_eq!(ints, vec![Some(2), None, Some(0), None]);
    }

    #[test]
    fn a_token_ends_after_its_last_character() {
        let text = r#"{"a\"b": -12.5e3, "k": true, "é": [1]}"#;
        let token = |at: &str| {
            let start = text.find(at).expect("in the text");
            &text[start..token_end(text, start)]
        };
        assert_eq!(token(r#""a\"b""#), r#""a\"b""#);
        assert_eq!(token("-12.5e3"), "-12.5e3");
        assert_eq!(token("true"), "true");
        assert_eq!(token("{"), "{");
        assert_eq!(token("[1]"), "[");
        assert_eq!(token(r#""é""#), r#""é""#);
        assert_eq!(token_end(text, text.len()), text.len());
        // A character of several bytes is one token, never cut.
        let t = "é";
        assert_eq!(token_end(t, 0), 2);
    }

    #[test]
    fn a_placed_diagnostic_covers_its_token_in_utf16_columns() {
        let text = "{\"😀\": 1,\n \"bad\": 2}";
        let index = LineIndex::new(text);
        let at = text.find("\"bad\"").expect("in the text");
        let d = index.place(Diagnostic::error("bad", "unknown"), at);
        let range = d.range.expect("a range");
        let (start, end) = (range.start, range.end);
        assert_eq!(
            (start.line, start.column, start.offset as usize),
            (2, 2, at)
        );
        assert_eq!((end.line, end.column, end.offset as usize), (2, 7, at + 5));
        let first = index.place(Diagnostic::error("", "x"), 1);
        // The emoji key is 1 + 2 + 1 UTF-16 units wide: columns 2 to 6.
        let range = first.range.expect("a range");
        let (s, e) = (range.start, range.end);
        assert_eq!((s.column, e.column), (2, 6));
    }
}
