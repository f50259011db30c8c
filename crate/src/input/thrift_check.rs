//! A structural check of a parquet file's Thrift metadata (the footer and every page header, in
//! the compact protocol), made before the parquet crate reads them.
//!
//! The crate skips a field it does not know by walking it, and walks a list (or set, or map) of
//! booleans without reading a byte per element, so a forged header declaring 2^31 booleans holds
//! it for seconds natively and far longer in wasm (found by fuzzing: `workload_parquet`). This walk
//! reads the bytes as the crate's skipping does, booleans included (a boolean element takes no
//! byte here either, so both see the same fields after it), and refuses:
//! - a list of other elements declaring more elements than bytes are left (each takes at least
//!   one), and a map likewise;
//! - more boolean elements in all than the metadata has bytes: a writer spends a byte on each, so
//!   a genuine file never does, and this bounds the crate's skipping by the metadata's length;
//! - a schema element's `num_children` past the length of the schema list, for which the crate
//!   would reserve room (gigabytes for a forged count) before reading any child.
//!
//! The crate reads the fields it knows by the parquet format's types, whatever type the bytes
//! declare, so a forged file that gives a known field another type would make the crate read the
//! bytes after it differently from this walk (and reach a list like the above unseen). The walk
//! therefore knows the format's structs too ([`FILE_META_DATA`], [`PAGE_HEADER`]) and refuses a
//! known field, or a known list's elements, declared with a type the format does not give them.
//!
//! Where a forgery could make the two part, the walk takes the bytes as the crate does: a long
//! field id is cut to 16 bits, a varint may run past ten bytes (its bits shifted modulo 64), the
//! depth to which the crate skips a value it does not know counts afresh at each field it skips,
//! a page's size is cut to 32 bits, a length before bytes to the platform's `usize`, and an empty
//! list may have no element type.
//!
//! Anything this walk cannot follow is left to the crate, which reports its own error: the check
//! refuses only what no writer produces.

use super::thrift_schema::{Kind, Schema, FILE_META_DATA, PAGE_HEADER};

/// Element and field types of the compact protocol.
const BOOL_TRUE: u8 = 1;
const BOOL_FALSE: u8 = 2;
const BYTE: u8 = 3;
const I16: u8 = 4;
const I32: u8 = 5;
const I64: u8 = 6;
const DOUBLE: u8 = 7;
const BINARY: u8 = 8;
const LIST: u8 = 9;
const SET: u8 = 10;
const MAP: u8 = 11;
const STRUCT: u8 = 12;
const UUID: u8 = 13;

/// The crate's depth limit for skipping a value it does not know (`skip`: 64 levels, counted
/// afresh at each field it skips); nesting the format knows is bounded by the format.
const SKIP_DEPTH: u32 = 64;

/// Why a walk ended early.
enum Stop {
    /// Truncated, or not the compact protocol: the crate's reader will say what is wrong.
    Unreadable,
    /// A collection declares more elements than the bytes left could hold.
    Forged(String),
}

/// A cursor over Thrift bytes that start at byte `base` of the file.
struct Walk<'a> {
    buf: &'a [u8],
    pos: usize,
    base: usize,
    /// Boolean collection elements seen so far, and how many the metadata's bytes allow.
    booleans: u64,
    budget: u64,
}

impl Walk<'_> {
    fn byte(&mut self) -> Result<u8, Stop> {
        let b = *self.buf.get(self.pos).ok_or(Stop::Unreadable)?;
        self.pos += 1;
        Ok(b)
    }

    fn skip(&mut self, n: u64) -> Result<(), Stop> {
        let left = (self.buf.len() - self.pos) as u64;
        if n > left {
            return Err(Stop::Unreadable);
        }
        self.pos += n as usize;
        Ok(())
    }

    /// An unsigned LEB128 varint, read as the crate reads one: of any length (up to the end of
    /// the bytes), each byte's bits shifted by 7 more than the last's, modulo 64.
    fn varint(&mut self) -> Result<u64, Stop> {
        let mut v = 0u64;
        let mut shift = 0u32;
        loop {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f).wrapping_shl(shift);
            if b & 0x80 == 0 {
                return Ok(v);
            }
            shift = shift.wrapping_add(7);
        }
    }

    /// A length before bytes, as the crate takes it (`as usize`: cut to 32 bits in wasm).
    fn length(&mut self) -> Result<u64, Stop> {
        Ok(self.varint()? as usize as u64)
    }

    /// A zigzag-encoded integer.
    fn zigzag(&mut self) -> Result<i64, Stop> {
        let v = self.varint()?;
        Ok((v >> 1) as i64 ^ -((v & 1) as i64))
    }

    /// Refuses `count` elements of at least `each` bytes when fewer bytes are left; the
    /// collection's header began at `at` (a position in `buf`).
    fn fits(&self, at: usize, count: u64, each: u64, what: &str) -> Result<(), Stop> {
        let left = (self.buf.len() - self.pos) as u64;
        if count.saturating_mul(each) > left {
            return Err(Stop::Forged(format!(
                "a Thrift {what} at byte {} declares {count} elements in the {left} bytes after it",
                self.base + at
            )));
        }
        Ok(())
    }

    /// Counts `count` boolean elements of the collection whose header began at `at`, refusing
    /// more in all than the metadata has bytes.
    fn booleans(&mut self, at: usize, count: u64) -> Result<(), Stop> {
        self.booleans = self.booleans.saturating_add(count);
        if self.booleans > self.budget {
            return Err(Stop::Forged(format!(
                "a Thrift collection at byte {} brings the boolean elements to {}, more than the \
                 {} bytes of this metadata could hold",
                self.base + at,
                self.booleans,
                self.budget
            )));
        }
        Ok(())
    }

    /// A value of type `ty`, walked as the crate reads it: a boolean takes no byte, in a struct
    /// or in a collection (the caller counts the latter). `kind` is what the format gives it,
    /// whose type the caller has checked; `None` where the format does not say, where the crate
    /// skips the value with `depth` levels of its skipping left.
    fn value(&mut self, ty: u8, kind: Option<Kind>, depth: u32) -> Result<(), Stop> {
        if kind.is_none() && depth == 0 {
            return Err(Stop::Unreadable);
        }
        // What the crate skips nests one level deeper; what it reads by the format starts
        // its own skipping afresh.
        let inner = if kind.is_some() {
            SKIP_DEPTH
        } else {
            depth - 1
        };
        match ty {
            BOOL_TRUE | BOOL_FALSE => Ok(()),
            BYTE => self.skip(1),
            I16 | I32 | I64 => self.varint().map(drop),
            DOUBLE => self.skip(8),
            BINARY => {
                let n = self.length()?;
                self.skip(n)
            }
            LIST | SET => {
                let at = self.pos;
                let header = self.byte()?;
                if header == 0 {
                    // An empty list some writers give no element type; the crate takes it.
                    return Ok(());
                }
                let count = match header >> 4 {
                    15 => self.varint()?,
                    n => u64::from(n),
                };
                let element_type = header & 0x0f;
                let element = match kind {
                    Some(Kind::List(&element)) => Some(element),
                    _ => None,
                };
                if let Some(element) = element {
                    self.expect(at, element_type, element, &|| {
                        "the elements of the list".into()
                    })?;
                }
                if matches!(element_type, BOOL_TRUE | BOOL_FALSE) {
                    return self.booleans(at, count);
                }
                self.fits(at, count, 1, "list")?;
                for _ in 0..count {
                    match element {
                        Some(Kind::Struct(schema)) => self.element(schema, at, count)?,
                        _ => self.value(element_type, element, inner)?,
                    }
                }
                Ok(())
            }
            MAP => {
                let at = self.pos;
                let count = self.varint()?;
                if count == 0 {
                    return Ok(());
                }
                let types = self.byte()?;
                let (key, value) = (types >> 4, types & 0x0f);
                let boolean = |t: u8| matches!(t, BOOL_TRUE | BOOL_FALSE);
                let parts = u64::from(boolean(key)) + u64::from(boolean(value));
                self.booleans(at, count.saturating_mul(parts))?;
                if parts == 2 {
                    return Ok(());
                }
                // An entry takes a byte at least for its part that is not a boolean.
                self.fits(at, count, 2 - parts, "map")?;
                for _ in 0..count {
                    self.value(key, None, inner)?;
                    self.value(value, None, inner)?;
                }
                Ok(())
            }
            STRUCT => {
                let schema = match kind {
                    Some(Kind::Struct(schema)) => Some(schema),
                    _ => None,
                };
                self.fields(inner, schema, &mut |_, _| Ok(()))
            }
            UUID => self.skip(16),
            _ => Err(Stop::Unreadable),
        }
    }

    /// A struct of the format, an element of the list of `count` elements whose header is at
    /// `at`: a count of the elements after it ([`Kind::Children`]) may not exceed the list's.
    fn element(&mut self, schema: &'static Schema, at: usize, count: u64) -> Result<(), Stop> {
        let list_at = self.base + at;
        self.fields(SKIP_DEPTH, Some(schema), &mut |id, v| {
            let children = schema
                .field(i64::from(id))
                .filter(|f| matches!(f.kind, Kind::Children));
            // The crate reads the count as an i32.
            let n = i64::from(v as i32);
            match children {
                Some(field) if n > count as i64 => Err(Stop::Forged(format!(
                    "a {} in the list at byte {list_at} gives {} {n}, more than the list's \
                     {count} elements",
                    schema.name, field.name
                ))),
                _ => Ok(()),
            }
        })
    }

    /// The fields of a struct up to its stop byte, `schema` the format's struct (`None` where the
    /// format does not say: the crate skips the struct, with `depth` levels of its skipping left
    /// for each field); `integer(id, value)` is called for each integer field of this struct
    /// (not of the structs inside it). Ids are the crate's: 16 bits, a long one cut to them.
    fn fields(
        &mut self,
        depth: u32,
        schema: Option<&'static Schema>,
        integer: &mut dyn FnMut(i16, i64) -> Result<(), Stop>,
    ) -> Result<(), Stop> {
        let mut last = 0i16;
        loop {
            let at = self.pos;
            let header = self.byte()?;
            let ty = header & 0x0f;
            if ty == 0 {
                return Ok(());
            }
            let id = match header >> 4 {
                0 => self.zigzag()? as i16,
                delta => last.checked_add(i16::from(delta)).ok_or(Stop::Unreadable)?,
            };
            // The crate skips a struct's fields with its last id at 0 (only deltas matter).
            last = if schema.is_some() { id } else { 0 };
            let field = schema.and_then(|s| s.field(i64::from(id)));
            if let (Some(schema), Some(field)) = (schema, field) {
                let name = || format!("field {id} ({}.{})", schema.name, field.name);
                self.expect(at, ty, field.kind, &name)?;
            }
            let kind = field.map(|f| f.kind);
            // A field the format has is read by it; one it has not is skipped, with the
            // crate's full depth inside a struct it reads, `depth` inside one it skips.
            let depth = if schema.is_some() { SKIP_DEPTH } else { depth };
            if kind.is_none() && depth == 0 {
                return Err(Stop::Unreadable);
            }
            if matches!(ty, I16 | I32 | I64) {
                let v = self.zigzag()?;
                integer(id, v)?;
            } else {
                self.value(ty, kind, depth)?;
            }
        }
    }

    /// Refuses a value declared with type `ty` (its header at `at`, `what` names it) where the
    /// format gives `kind`: the crate would read it as `kind`, and no longer see what this walk
    /// sees after it.
    fn expect(&self, at: usize, ty: u8, kind: Kind, what: &dyn Fn() -> String) -> Result<(), Stop> {
        let fits = match kind {
            Kind::Varint | Kind::Children => matches!(ty, I16 | I32 | I64),
            Kind::Byte => ty == BYTE,
            Kind::Bool => matches!(ty, BOOL_TRUE | BOOL_FALSE),
            Kind::Double => ty == DOUBLE,
            Kind::Binary => ty == BINARY,
            Kind::Struct(_) => ty == STRUCT,
            Kind::List(_) => ty == LIST,
        };
        if fits {
            return Ok(());
        }
        Err(Stop::Forged(format!(
            "{} at byte {}: declared {}, where the parquet format has {}",
            what(),
            self.base + at,
            type_name(ty),
            kind_name(kind)
        )))
    }
}

/// A compact-protocol type's name, for messages.
fn type_name(ty: u8) -> &'static str {
    match ty {
        BOOL_TRUE | BOOL_FALSE => "a bool",
        BYTE => "a byte",
        I16 => "an i16",
        I32 => "an i32",
        I64 => "an i64",
        DOUBLE => "a double",
        BINARY => "a binary",
        LIST => "a list",
        SET => "a set",
        MAP => "a map",
        STRUCT => "a struct",
        UUID => "a uuid",
        _ => "of an unknown type",
    }
}

/// What the format gives a value, for messages.
fn kind_name(kind: Kind) -> String {
    match kind {
        Kind::Varint | Kind::Children => "an integer".into(),
        Kind::Byte => "a byte".into(),
        Kind::Bool => "a bool".into(),
        Kind::Double => "a double".into(),
        Kind::Binary => "a binary".into(),
        Kind::Struct(s) => format!("a struct ({})", s.name),
        Kind::List(&element) => format!("a list of {}", kind_name(element)),
    }
}

/// Checks the footer of the parquet file `bytes` (`file` names it in the message).
pub fn check_footer(bytes: &[u8], file: &str) -> Result<(), String> {
    let n = bytes.len();
    if n < 12 || &bytes[n - 4..] != b"PAR1" {
        return Ok(()); // not a plain parquet file: the reader says so
    }
    let len = u32::from_le_bytes([bytes[n - 8], bytes[n - 7], bytes[n - 6], bytes[n - 5]]);
    let Some(start) = (n - 8).checked_sub(len as usize) else {
        return Ok(());
    };
    let mut walk = Walk {
        buf: &bytes[start..n - 8],
        pos: 0,
        base: start,
        booleans: 0,
        budget: len as u64,
    };
    match walk.fields(SKIP_DEPTH, Some(&FILE_META_DATA), &mut |_, _| Ok(())) {
        Err(Stop::Forged(m)) => Err(format!(
            "{file}: not a readable parquet file (in its footer, bytes {start}-{}: {m})",
            n - 9
        )),
        _ => Ok(()),
    }
}

/// Checks the page headers of a column chunk, `bytes[start..end]`, header after header (each
/// followed by its page's `compressed_page_size` bytes, field 3 of a page header).
pub fn check_page_headers(bytes: &[u8], start: usize, end: usize) -> Result<(), String> {
    let Some(chunk) = bytes.get(start..end) else {
        return Ok(());
    };
    let mut at = 0usize;
    // One count of boolean elements for the whole chunk: its headers share its bytes.
    let mut booleans = 0;
    while at < chunk.len() {
        let mut walk = Walk {
            buf: &chunk[at..],
            pos: 0,
            base: start + at,
            booleans,
            budget: chunk.len() as u64,
        };
        let mut size = None;
        match walk.fields(SKIP_DEPTH, Some(&PAGE_HEADER), &mut |id, v| {
            // The crate reads the size as an i32 (cut to 32 bits).
            if id == 3 {
                size = Some(i64::from(v as i32));
            }
            Ok(())
        }) {
            Ok(()) => {}
            Err(Stop::Forged(m)) => {
                return Err(format!("the page header at byte {}: {m}", start + at))
            }
            Err(Stop::Unreadable) => return Ok(()),
        }
        booleans = walk.booleans;
        match size.and_then(|s| usize::try_from(s).ok()) {
            Some(s) => at = at.saturating_add(walk.pos).saturating_add(s),
            None => return Ok(()),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Field 100 (long form) of type list, of `count` elements of type `element`.
    fn list_field(element: u8, count: u64) -> Vec<u8> {
        // Type list with no delta, then zigzag(100) = 200 as a varint.
        let mut v = vec![LIST, 0xc8, 0x01];
        v.push(0xf0 | element);
        let mut c = count;
        loop {
            let b = (c & 0x7f) as u8;
            c >>= 7;
            if c == 0 {
                v.push(b);
                break;
            }
            v.push(b | 0x80);
        }
        v
    }

    /// Walks `bytes` as a struct, the format's `schema` (`None`: one the crate skips).
    fn walk(bytes: &[u8], schema: Option<&'static Schema>) -> Result<(), Stop> {
        Walk {
            buf: bytes,
            pos: 0,
            base: 0,
            booleans: 0,
            budget: bytes.len() as u64,
        }
        .fields(SKIP_DEPTH, schema, &mut |_, _| Ok(()))
    }

    /// The crate reads a known field by the format's type: one declared with another is
    /// refused, naming it; fields the format does not have pass whatever their type, and a
    /// bool field passes as either of the protocol's two bool types.
    #[test]
    fn known_fields_declared_with_another_type_are_forged() {
        // PageHeader { 1: i32 0, 2: i32 4, 3: i32 4, 7: DictionaryPageHeader { 1: i32 1,
        // 2: i32 0, 3: bool false } }, then with is_sorted declared an i32.
        let mut header = vec![
            0x15, 0, 0x15, 8, 0x15, 8, 0x4c, 0x15, 2, 0x15, 0, 0x12, 0, 0,
        ];
        assert!(walk(&header, Some(&PAGE_HEADER)).is_ok());
        header[11] = 0x15;
        header.insert(12, 2);
        let m = forged(walk(&header, Some(&PAGE_HEADER)));
        assert_eq!(
            m,
            "field 3 (DictionaryPageHeader.is_sorted) at byte 11: declared an i32, where the \
             parquet format has a bool"
        );
        // FileMetaData { 1: i32 2, 6: binary "x", 100: list<i32> [1] }: passes; the version
        // declared a binary, or the schema a list of i32 instead of structs, is refused.
        let mut footer = vec![0x15, 4, 0x58, 1, b'x'];
        footer.extend(list_field(I32, 1));
        footer.extend([2, 0]);
        assert!(walk(&footer, Some(&FILE_META_DATA)).is_ok());
        let m = forged(walk(&[0x18, 1, b'x', 0], Some(&FILE_META_DATA)));
        assert_eq!(
            m,
            "field 1 (FileMetaData.version) at byte 0: declared a binary, where the parquet \
             format has an integer"
        );
        let m = forged(walk(&[0x29, 0x15, 2, 0], Some(&FILE_META_DATA)));
        assert_eq!(
            m,
            "the elements of the list at byte 1: declared an i32, where the parquet format has \
             a struct (SchemaElement)"
        );
    }

    /// The walk takes the bytes as the crate does where a forgery could make the two part: a
    /// long field id is cut to 16 bits, a varint may run past ten bytes, the crate's skipping
    /// depth counts afresh at each field it skips, a page's size is cut to 32 bits; and an
    /// empty list with no element type (which some writers give) passes.
    #[test]
    fn the_walk_reads_the_bytes_as_the_crate_does() {
        // A binary field whose long id 65538 is field 2 (the schema) to the crate.
        let m = forged(walk(
            &[0x08, 0x84, 0x80, 0x08, 1, b'x', 0],
            Some(&FILE_META_DATA),
        ));
        assert!(
            m.starts_with("field 2 (FileMetaData.schema) at byte 0: declared a binary"),
            "{m}"
        );
        // The version as an 11-byte varint, then a list of 2^31 - 1 booleans.
        let mut long = vec![0x15];
        long.extend([0x80; 10]);
        long.push(0);
        long.extend(list_field(BOOL_TRUE, (1 << 31) - 1));
        long.push(0);
        assert!(forged(walk(&long, Some(&FILE_META_DATA))).contains("brings the boolean elements"));
        // An unknown struct nested 63 deep (the crate skips it), then the same list.
        let mut deep = vec![0x0c, 0xc8, 0x01]; // field 100: struct
        deep.extend([0x1c; 62]); // field 1: struct, 62 more levels
        deep.extend([0; 63]);
        deep.extend(list_field(BOOL_TRUE, (1 << 31) - 1));
        deep.push(0);
        assert!(forged(walk(&deep, Some(&FILE_META_DATA))).contains("brings the boolean elements"));
        // Field 5 (key_value_metadata) as an empty list with the header byte 0.
        assert!(walk(&[0x59, 0, 0], Some(&FILE_META_DATA)).is_ok());
        // A page whose size, 2^32 + 4, is 4 to the crate, then a header with a forged list.
        let mut chunk = vec![0x15, 0, 0x15, 8, 0x16, 0x88, 0x80, 0x80, 0x80, 0x20, 0];
        chunk.extend([9, 9, 9, 9]);
        let second = chunk.len();
        chunk.extend(list_field(BOOL_TRUE, 1 << 20));
        chunk.push(0);
        let e = check_page_headers(&chunk, 0, chunk.len()).unwrap_err();
        assert!(
            e.starts_with(&format!("the page header at byte {second}:")),
            "{e}"
        );
    }

    /// A schema element's `num_children` may not exceed the schema list's length (the crate
    /// reserves room for that many children before reading them).
    #[test]
    fn children_past_the_schema_are_forged() {
        // FileMetaData { 2: list of 2 SchemaElement { 5: i32 n }, ... }.
        let schema = |n: u8| vec![0x29, 0x2c, 0x55, n * 2, 0, 0x55, 0, 0, 0];
        assert!(walk(&schema(2), Some(&FILE_META_DATA)).is_ok());
        let m = forged(walk(&schema(3), Some(&FILE_META_DATA)));
        assert_eq!(
            m,
            "a SchemaElement in the list at byte 1 gives num_children 3, more than the list's 2 \
             elements"
        );
    }

    fn forged(r: Result<(), Stop>) -> String {
        match r {
            Err(Stop::Forged(m)) => m,
            Err(Stop::Unreadable) => panic!("unreadable, not refused"),
            Ok(()) => panic!("not refused"),
        }
    }

    #[test]
    fn more_booleans_than_bytes_are_forged() {
        // A struct with one i32 field (id 1, delta form: 0x15, zigzag 7 = 14) and a list of
        // 2^31 - 1 booleans, then the stop byte.
        let mut s = vec![0x15, 14];
        s.extend(list_field(BOOL_TRUE, (1 << 31) - 1));
        s.push(0);
        let m = forged(walk(&s, None));
        assert!(
            m.contains(
                "at byte 5 brings the boolean elements to 2147483647, more than the 12 bytes"
            ),
            "{m}"
        );
        // Small lists that add up: 8 lists of 2 booleans each (8 x 6 bytes + stop = 49 bytes,
        // 16 booleans) pass; of 7 booleans each the eighth list (at byte 42, its header at 45)
        // brings them to 56 > 49 and is refused.
        for (each, refused) in [(2, None), (7, Some(7 * 6))] {
            let mut s = Vec::new();
            for _ in 0..8 {
                s.extend([0x09, 0xc8, 0x01, 0x01 | (each << 4)]); // field 100, short list header
                s.extend([0x15, 2]); // field 101: i32 1
            }
            s.push(0);
            match refused {
                None => assert!(walk(&s, None).is_ok()),
                Some(at) => {
                    let m = forged(walk(&s, None));
                    assert!(m.contains(&format!("at byte {} ", at + 3)), "{m}");
                }
            }
        }
    }

    #[test]
    fn other_collections_take_a_byte_an_element() {
        // A list of three i32 (one byte each), a map of one i32 -> binary entry, a struct with a
        // double, then stop: well formed.
        let mut s = list_field(I32, 3);
        s.extend([2, 4, 6]);
        s.extend([0x1b, 1, 0x58, 4, 3, b'a', b'b', b'c']); // field 101: map, 1 entry, i32 -> binary
        s.extend([0x1c, 0x17, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0]); // field 102: struct { 1: double 1.0 }
        s.push(0);
        assert!(walk(&s, None).is_ok());
        // Four i32 declared with three bytes after the header cannot fit.
        let mut t = list_field(I32, 4);
        t.extend([2, 4, 6]);
        let m = forged(walk(&t, None));
        assert!(
            m.contains("list at byte 3 declares 4 elements in the 3 bytes after it"),
            "{m}"
        );
        // A field of an unknown type (14), or a truncated struct, is left to the crate.
        assert!(matches!(walk(&[0x1e, 0], None), Err(Stop::Unreadable)));
        assert!(matches!(walk(&[0x15], None), Err(Stop::Unreadable)));
    }

    #[test]
    fn page_headers_are_followed_by_their_compressed_size() {
        // Two page headers { 1: i32 0, 2: i32 4, 3: i32 4 } each followed by 4 bytes, then a
        // header with a forged list.
        let header = [0x15, 0, 0x15, 8, 0x15, 8, 0];
        let mut chunk = Vec::new();
        for _ in 0..2 {
            chunk.extend(header);
            chunk.extend([9, 9, 9, 9]);
        }
        assert!(check_page_headers(&chunk, 0, chunk.len()).is_ok());
        let second = chunk.len();
        chunk.extend(list_field(BOOL_TRUE, 1 << 20));
        chunk.push(0);
        let e = check_page_headers(&chunk, 0, chunk.len()).unwrap_err();
        assert!(
            e.starts_with(&format!("the page header at byte {second}:")),
            "{e}"
        );
    }
}
