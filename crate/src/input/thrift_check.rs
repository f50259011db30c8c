//! A structural check of a parquet file's Thrift metadata (the footer and every page header, in
//! the compact protocol), made before the parquet crate reads them.
//!
//! The crate skips a field it does not know by walking it, and walks a list (or set) of booleans
//! without reading a byte per element, so a forged header declaring a list of 2^31 booleans holds
//! it for seconds natively and far longer in wasm (found by fuzzing: `workload_parquet`). In a
//! well-formed list every element takes at least one byte (a boolean element is a byte, unlike a
//! boolean field), and a map entry at least two, so a collection that declares more elements than
//! bytes are left is refused here, naming where it is. Anything else this walk cannot follow is
//! left to the crate, which reports its own error: the check is never stricter than the reader
//! on a file that is not forged this way.

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

/// Deepest nesting followed (the crate's own limit for skipping is 64).
const MAX_DEPTH: u32 = 64;

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

    /// An unsigned LEB128 varint (at most 10 bytes).
    fn varint(&mut self) -> Result<u64, Stop> {
        let mut v = 0u64;
        for shift in (0..70).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f).checked_shl(shift).unwrap_or(0);
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(Stop::Unreadable)
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

    /// A value of type `ty`; `element` for a collection's element (a boolean takes a byte).
    fn value(&mut self, ty: u8, element: bool, depth: u32) -> Result<(), Stop> {
        if depth > MAX_DEPTH {
            return Err(Stop::Unreadable);
        }
        match ty {
            BOOL_TRUE | BOOL_FALSE if !element => Ok(()),
            BOOL_TRUE | BOOL_FALSE | BYTE => self.skip(1),
            I16 | I32 | I64 => self.varint().map(drop),
            DOUBLE => self.skip(8),
            BINARY => {
                let n = self.varint()?;
                self.skip(n)
            }
            LIST | SET => {
                let at = self.pos;
                let header = self.byte()?;
                let count = match header >> 4 {
                    15 => self.varint()?,
                    n => u64::from(n),
                };
                let element_type = header & 0x0f;
                self.fits(at, count, 1, "list")?;
                for _ in 0..count {
                    self.value(element_type, true, depth + 1)?;
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
                self.fits(at, count, 2, "map")?;
                for _ in 0..count {
                    self.value(types >> 4, true, depth + 1)?;
                    self.value(types & 0x0f, true, depth + 1)?;
                }
                Ok(())
            }
            STRUCT => self.fields(depth + 1, &mut |_, _| {}).map(drop),
            UUID => self.skip(16),
            _ => Err(Stop::Unreadable),
        }
    }

    /// The fields of a struct up to its stop byte; `integer(id, value)` is called for each
    /// integer field of this struct (not of the structs inside it).
    fn fields(&mut self, depth: u32, integer: &mut dyn FnMut(i64, i64)) -> Result<(), Stop> {
        let mut last = 0i64;
        loop {
            let header = self.byte()?;
            let ty = header & 0x0f;
            if ty == 0 {
                return Ok(());
            }
            let id = match header >> 4 {
                0 => self.zigzag()?,
                delta => last + i64::from(delta),
            };
            last = id;
            if matches!(ty, I16 | I32 | I64) {
                let v = self.zigzag()?;
                integer(id, v);
            } else {
                self.value(ty, false, depth)?;
            }
        }
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
    };
    match walk.fields(0, &mut |_, _| {}) {
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
    while at < chunk.len() {
        let mut walk = Walk {
            buf: &chunk[at..],
            pos: 0,
            base: start + at,
        };
        let mut size = None;
        match walk.fields(0, &mut |id, v| {
            if id == 3 {
                size = Some(v);
            }
        }) {
            Ok(()) => {}
            Err(Stop::Forged(m)) => {
                return Err(format!("the page header at byte {}: {m}", start + at))
            }
            Err(Stop::Unreadable) => return Ok(()),
        }
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

    fn walk(bytes: &[u8]) -> Result<(), Stop> {
        Walk {
            buf: bytes,
            pos: 0,
            base: 0,
        }
        .fields(0, &mut |_, _| {})
    }

    #[test]
    fn a_list_longer_than_its_bytes_is_forged() {
        // A struct with one i32 field (id 1, delta form: 0x15, zigzag 7 = 14) and a list of
        // 2^31 - 1 booleans, then the stop byte: 2^31 - 1 elements cannot fit in 1 byte.
        let mut s = vec![0x15, 14];
        s.extend(list_field(BOOL_TRUE, (1 << 31) - 1));
        s.push(0);
        match walk(&s) {
            Err(Stop::Forged(m)) => assert!(m.contains("2147483647 elements"), "{m}"),
            _ => panic!("not refused"),
        }
    }

    #[test]
    fn well_formed_collections_pass() {
        // Three booleans (one byte each), a map of one i32 -> binary entry, a nested struct
        // with a double, then stop.
        let mut s = list_field(BOOL_FALSE, 3);
        s.extend([1, 2, 1]);
        s.extend([0x1b, 1, 0x58, 4, 3, b'a', b'b', b'c']); // field 101: map, 1 entry, i32 -> binary
        s.extend([0x1c, 0x17, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0]); // field 102: struct { 1: double 1.0 }
        s.push(0);
        assert!(walk(&s).is_ok());
        // The same list declared one element longer cannot fit; a field of an unknown type (14)
        // or a truncated struct is left to the crate.
        let mut t = list_field(BOOL_FALSE, 4);
        t.extend([1, 2, 1]);
        assert!(matches!(walk(&t), Err(Stop::Forged(_))));
        assert!(matches!(walk(&[0x1e, 0]), Err(Stop::Unreadable)));
        assert!(matches!(walk(&[0x15]), Err(Stop::Unreadable)));
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
