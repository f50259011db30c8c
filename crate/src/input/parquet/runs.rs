//! A dictionary-encoded column read as runs of dictionary indices, straight from its pages'
//! RLE / bit-packed hybrid encoding, without a value per row: OpenDC's fragment traces store
//! long stretches of one task id, one duration and one usage this way (surf_week's 2.3 M rows
//! are a few thousand RLE runs of ids and one run of durations per page), and a reader that
//! groups rows into runs anyway ([`crate::model::Fragments`]) gains nothing from first
//! materialising every row, which costs most of the time of decoding such a file.
//!
//! Only what the fast path needs is read here: a flat column (no repetition), every row present,
//! a dictionary page first and every data page dictionary-encoded (format v1 or v2). Anything
//! else (a null, a PLAIN page after the dictionary grew too large, a malformed page) is
//! [`NotRuns`], and the caller reads the file the general way, which also reports what is wrong
//! with it. The page headers are checked and the parquet crate runs inside the panic guard as
//! for every other read ([`super::guarded`]).

use super::{check_chunk_range, check_page_headers, Table, Want};
use bytes::Bytes;
use parquet::basic::{Encoding, Type as Physical};
use parquet::column::page::{Page, PageReader};
use parquet::file::reader::FileReader;

/// Why a column chunk cannot be read as runs (the general reader takes over).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotRuns(pub String);

fn not_runs<T>(why: impl Into<String>) -> Result<T, NotRuns> {
    Err(NotRuns(why.into()))
}

/// A column chunk's dictionary, widened as [`Want`] widens values: integers to `i64`, numbers
/// (floats, and integers for [`Want::Number`]) to `f64`.
#[derive(Debug, Clone, PartialEq)]
pub enum Dictionary {
    Integers(Vec<i64>),
    Numbers(Vec<f64>),
}

impl Dictionary {
    /// Entries in the dictionary.
    pub fn len(&self) -> usize {
        match self {
            Dictionary::Integers(v) => v.len(),
            Dictionary::Numbers(v) => v.len(),
        }
    }

    /// True when the dictionary has no entry.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Decodes a PLAIN dictionary page of `n` values of `physical`, widened for `want`.
    fn decode(buf: &[u8], n: usize, physical: Physical, want: Want) -> Result<Self, NotRuns> {
        let width = match physical {
            Physical::INT32 | Physical::FLOAT => 4,
            Physical::INT64 | Physical::DOUBLE => 8,
            other => return not_runs(format!("a dictionary of {other:?}")),
        };
        let Some(bytes) = n.checked_mul(width).and_then(|len| buf.get(..len)) else {
            return not_runs(format!("a dictionary page too short for its {n} values"));
        };
        let words = bytes.chunks_exact(width);
        let word4 = |w: &[u8]| [w[0], w[1], w[2], w[3]];
        let word8 = |w: &[u8]| [w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]];
        Ok(match (physical, want) {
            (Physical::INT32, Want::Number) => Dictionary::Numbers(
                words
                    .map(|w| f64::from(i32::from_le_bytes(word4(w))))
                    .collect(),
            ),
            (Physical::INT64, Want::Number) => {
                Dictionary::Numbers(words.map(|w| i64::from_le_bytes(word8(w)) as f64).collect())
            }
            (Physical::INT32, _) => Dictionary::Integers(
                words
                    .map(|w| i64::from(i32::from_le_bytes(word4(w))))
                    .collect(),
            ),
            (Physical::INT64, _) => {
                Dictionary::Integers(words.map(|w| i64::from_le_bytes(word8(w))).collect())
            }
            (Physical::FLOAT, Want::Number) => Dictionary::Numbers(
                words
                    .map(|w| f64::from(f32::from_le_bytes(word4(w))))
                    .collect(),
            ),
            (Physical::DOUBLE, Want::Number) => {
                Dictionary::Numbers(words.map(|w| f64::from_le_bytes(word8(w))).collect())
            }
            (other, _) => return not_runs(format!("{other:?} read as {want:?}")),
        })
    }
}

/// A reader of the RLE / bit-packed hybrid encoding of `width`-bit values over a page's bytes
/// `from..end`, a run at a time: an RLE run as it is, bit-packed values one by one with equal
/// neighbours joined.
#[derive(Debug, Clone)]
struct Hybrid {
    width: u32,
    /// The next header's byte.
    at: usize,
    end: usize,
    /// Bit-packed values left in the current group of runs (not yet unpacked), and the bit
    /// where the next begins.
    packed: u32,
    bit: usize,
    /// The RLE run being handed on: its value and the count not handed on yet.
    rle_value: u32,
    rle_left: u32,
    /// Values unpacked a buffer at a time (a tight loop), taken from `unpacked_at` on.
    unpacked: [u32; UNPACKED],
    unpacked_at: usize,
    unpacked_len: usize,
}

/// A block of a column's values ([`ColumnRuns::next_block`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Block<'a> {
    /// (value, count >= 1).
    Run(u32, u32),
    /// Values one by one (at least one).
    Values(&'a [u32]),
}

/// Bit-packed values unpacked at once (the most of a [`Block::Values`]).
pub const UNPACKED: usize = 256;

impl Hybrid {
    fn new(width: u32, from: usize, end: usize) -> Result<Self, NotRuns> {
        if width > 32 {
            return not_runs(format!("a bit width of {width}"));
        }
        Ok(Hybrid {
            width,
            at: from,
            end,
            packed: 0,
            bit: 0,
            rle_value: 0,
            rle_left: 0,
            unpacked: [0; UNPACKED],
            unpacked_at: 0,
            unpacked_len: 0,
        })
    }

    /// The next run (value, count >= 1), at most `limit` long; `None` at the end of the bytes.
    #[inline]
    fn next(&mut self, buf: &[u8], limit: u32) -> Result<Option<(u32, u32)>, NotRuns> {
        match self.next_block(buf, limit)? {
            None => Ok(None),
            Some(Block::Run(value, count)) => Ok(Some((value, count))),
            Some(Block::Values(values)) => {
                // Hand the values back and take the run at their head.
                let n = values.len();
                self.unpacked_at -= n;
                Ok(Some(self.take_unpacked(limit)))
            }
        }
    }

    /// The next block of values, at most `limit`: an RLE run, or bit-packed values as they are
    /// (up to a buffer's, equal neighbours not joined); `None` at the end of the bytes.
    #[inline]
    fn next_block(&mut self, buf: &[u8], limit: u32) -> Result<Option<Block<'_>>, NotRuns> {
        loop {
            if self.rle_left > 0 {
                let n = self.rle_left.min(limit.max(1));
                self.rle_left -= n;
                return Ok(Some(Block::Run(self.rle_value, n)));
            }
            if self.unpacked_at < self.unpacked_len {
                // One value only when asked through `next` (it rewinds and takes a run).
                let n = (self.unpacked_len - self.unpacked_at).min(limit.max(1) as usize);
                let from = self.unpacked_at;
                self.unpacked_at += n;
                return Ok(Some(Block::Values(&self.unpacked[from..from + n])));
            }
            if self.packed > 0 {
                self.unpack(buf);
                continue;
            }
            if self.at >= self.end {
                return Ok(None);
            }
            let header = self.varint(buf)?;
            if header & 1 == 1 {
                // Bit-packed: `header >> 1` groups of 8 values (the last group may be padding).
                // (Saturating: a forged header must not wrap a 32-bit usize in wasm.)
                let groups = (header >> 1) as usize;
                let bytes = groups.saturating_mul(self.width as usize);
                let available = (self.end - self.at).min(bytes);
                let values = if self.width == 0 {
                    groups.saturating_mul(8)
                } else {
                    available.saturating_mul(8) / self.width as usize
                };
                self.packed = u32::try_from(values).unwrap_or(u32::MAX);
                self.bit = self.at * 8;
                self.at += available;
            } else {
                let count = header >> 1;
                let bytes_per_value = self.width.div_ceil(8) as usize;
                let value_end = self.at + bytes_per_value;
                let Some(value_bytes) = buf
                    .get(self.at..value_end)
                    .filter(|_| value_end <= self.end)
                else {
                    return not_runs("an RLE run cut short");
                };
                self.at += bytes_per_value;
                let mut value = [0u8; 4];
                value[..bytes_per_value].copy_from_slice(value_bytes);
                (self.rle_value, self.rle_left) = (u32::from_le_bytes(value), count);
            }
        }
    }

    /// Unpacks the next bit-packed values (at most a buffer's) into `unpacked`.
    #[inline]
    fn unpack(&mut self, buf: &[u8]) {
        let n = (self.packed as usize).min(UNPACKED);
        let (width, bit, end) = (self.width, self.bit, self.end);
        for (k, slot) in self.unpacked[..n].iter_mut().enumerate() {
            *slot = packed_at(buf, end, width, bit + k * width as usize);
        }
        let width = width as usize;
        self.bit += n * width;
        self.packed -= n as u32;
        self.unpacked_at = 0;
        self.unpacked_len = n;
    }

    /// The run of equal values at the head of the unpacked ones, at most `limit` long.
    #[inline]
    fn take_unpacked(&mut self, limit: u32) -> (u32, u32) {
        let values = &self.unpacked[self.unpacked_at..self.unpacked_len];
        let value = values[0];
        let most = values.len().min(limit.max(1) as usize);
        let count = 1 + values[1..most].iter().take_while(|&&v| v == value).count();
        self.unpacked_at += count;
        (value, count as u32)
    }

    /// An unsigned LEB128 of at most 32 bits.
    fn varint(&mut self, buf: &[u8]) -> Result<u32, NotRuns> {
        let mut value = 0u32;
        for shift in (0..35).step_by(7) {
            let Some(&b) = buf.get(self.at).filter(|_| self.at < self.end) else {
                return not_runs("a run header cut short");
            };
            self.at += 1;
            let part = u32::from(b & 0x7f);
            if shift == 28 && part > 0x0f {
                return not_runs("a run header past 32 bits");
            }
            value |= part << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        not_runs("a run header past 32 bits")
    }
}

/// The `width`-bit value at bit `bit` of `buf` (LSB first), bytes from `end` on read as 0.
#[inline(always)]
fn packed_at(buf: &[u8], end: usize, width: u32, bit: usize) -> u32 {
    let byte = bit / 8;
    let word = match buf.get(byte..byte + 8).filter(|_| byte + 8 <= end) {
        Some(w) => u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]),
        None => {
            let mut w = [0u8; 8];
            let tail = buf.get(byte..end).unwrap_or(&[]);
            let n = tail.len().min(8);
            w[..n].copy_from_slice(&tail[..n]);
            u64::from_le_bytes(w)
        }
    };
    let mask = (1u64 << width) - 1;
    ((word >> (bit % 8)) & mask) as u32
}

/// One column chunk (a column of one row group) read as runs of dictionary indices.
pub struct ColumnRuns {
    pages: Box<dyn PageReader>,
    /// The chunk's dictionary (its first page).
    pub dictionary: Dictionary,
    max_def: i16,
    /// The data page being read, its values not yet handed on, and its reader.
    page: Bytes,
    left: u32,
    hybrid: Hybrid,
    /// Rows handed on so far.
    pub rows: u64,
}

impl std::fmt::Debug for ColumnRuns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ColumnRuns")
            .field("dictionary", &self.dictionary.len())
            .field("rows", &self.rows)
            .finish()
    }
}

impl ColumnRuns {
    /// The next run of rows: (dictionary index, rows >= 1); `None` at the end of the chunk.
    #[inline]
    pub fn next_run(&mut self) -> Result<Option<(u32, u32)>, NotRuns> {
        while self.left == 0 {
            if !self.next_page()? {
                return Ok(None);
            }
        }
        let Some((index, count)) = self.hybrid.next(&self.page, self.left)? else {
            return not_runs(format!(
                "a data page ends {} values before its count",
                self.left
            ));
        };
        let count = count.min(self.left);
        if index as usize >= self.dictionary.len() {
            return not_runs(format!(
                "index {index} past a dictionary of {}",
                self.dictionary.len()
            ));
        }
        self.left -= count;
        self.rows += u64::from(count);
        Ok(Some((index, count)))
    }

    /// The next block of rows, at most `limit` (>= 1) of them: a run of one dictionary index,
    /// or indices one by one (bit-packed values, which change often); `None` at the end of the
    /// chunk. Every index is inside the dictionary.
    #[inline]
    pub fn next_block(&mut self, limit: u32) -> Result<Option<Block<'_>>, NotRuns> {
        while self.left == 0 {
            if !self.next_page()? {
                return Ok(None);
            }
        }
        let dictionary = self.dictionary.len();
        let left = self.left;
        let block = match self.hybrid.next_block(&self.page, limit.min(left))? {
            None => {
                return not_runs(format!("a data page ends {left} values before its count"));
            }
            Some(Block::Run(index, count)) => Block::Run(index, count.min(left)),
            Some(Block::Values(values)) => Block::Values(values),
        };
        let (count, largest) = match block {
            Block::Run(index, count) => (count, index),
            Block::Values(values) => (
                values.len() as u32,
                values.iter().copied().fold(0, u32::max),
            ),
        };
        if largest as usize >= dictionary {
            return not_runs(format!("index {largest} past a dictionary of {dictionary}"));
        }
        self.left -= count;
        self.rows += u64::from(count);
        Ok(Some(block))
    }

    /// Opens the next data page; false at the end of the chunk.
    fn next_page(&mut self) -> Result<bool, NotRuns> {
        let page = self
            .pages
            .get_next_page()
            .map_err(|e| NotRuns(e.to_string()))?;
        let (buf, num_values, encoding, values_from) = match page {
            None => return Ok(false),
            Some(Page::DataPage {
                buf,
                num_values,
                encoding,
                def_level_encoding,
                ..
            }) => {
                let from = if self.max_def > 0 {
                    if def_level_encoding != Encoding::RLE {
                        return not_runs(format!("definition levels in {def_level_encoding}"));
                    }
                    // A 4-byte length, then the levels.
                    let len = buf
                        .get(..4)
                        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
                        .filter(|&len| 4 + len <= buf.len());
                    let Some(len) = len else {
                        return not_runs("definition levels past the page");
                    };
                    self.check_all_present(&buf, 4, 4 + len, num_values)?;
                    4 + len
                } else {
                    0
                };
                (buf, num_values, encoding, from)
            }
            Some(Page::DataPageV2 {
                buf,
                num_values,
                encoding,
                num_nulls,
                rep_levels_byte_len,
                def_levels_byte_len,
                ..
            }) => {
                if num_nulls > 0 {
                    return not_runs(format!("{num_nulls} nulls"));
                }
                let from = rep_levels_byte_len as usize + def_levels_byte_len as usize;
                (buf, num_values, encoding, from)
            }
            Some(Page::DictionaryPage { .. }) => return not_runs("a second dictionary page"),
        };
        if !matches!(
            encoding,
            Encoding::RLE_DICTIONARY | Encoding::PLAIN_DICTIONARY
        ) {
            return not_runs(format!("a data page in {encoding}"));
        }
        let Some(&width) = buf.get(values_from) else {
            if num_values == 0 {
                return Ok(true);
            }
            return not_runs("a data page without its bit width");
        };
        self.hybrid = Hybrid::new(u32::from(width), values_from + 1, buf.len())?;
        self.page = buf;
        self.left = num_values;
        Ok(true)
    }

    /// Checks that the definition levels in `buf[from..end]` are `count` times the maximum.
    fn check_all_present(
        &self,
        buf: &[u8],
        from: usize,
        end: usize,
        count: u32,
    ) -> Result<(), NotRuns> {
        let width = 16 - (self.max_def as u16).leading_zeros();
        let mut levels = Hybrid::new(width, from, end)?;
        let mut seen = 0u32;
        while seen < count {
            match levels.next(buf, count - seen)? {
                Some((level, n)) if level == self.max_def as u32 => seen += n.min(count - seen),
                Some(_) => return not_runs("a null"),
                None => return not_runs("definition levels cut short"),
            }
        }
        Ok(())
    }
}

impl Table {
    /// Row groups in the file.
    pub fn row_groups(&self) -> usize {
        self.reader.num_row_groups()
    }

    /// Rows of row group `group`.
    pub fn group_rows(&self, group: usize) -> u64 {
        self.reader
            .metadata()
            .row_groups()
            .get(group)
            .map_or(0, |g| g.num_rows().max(0) as u64)
    }

    /// The column `name` of row group `group` as runs of its dictionary, its values widened as
    /// `want` says; [`NotRuns`] when it is absent or not a flat, null-free, dictionary-encoded
    /// column (see the module's doc), or when only some rows are kept ([`Table::keep_rows`]).
    pub fn column_runs(&self, name: &str, want: Want, group: usize) -> Result<ColumnRuns, NotRuns> {
        if self.keep.is_some() {
            return not_runs("only some rows are kept");
        }
        let Some(leaf) = self.leaf(name) else {
            return not_runs(format!("no column `{name}`"));
        };
        let descr = self
            .reader
            .metadata()
            .file_metadata()
            .schema_descr()
            .column(leaf);
        if descr.max_rep_level() > 0 || descr.max_def_level() > 1 {
            return not_runs("a nested column");
        }
        let physical = descr.physical_type();
        let max_def = descr.max_def_level();
        super::guarded(|| {
            let g = self
                .reader
                .get_row_group(group)
                .map_err(|e| e.to_string())?;
            let range = check_chunk_range(g.metadata().column(leaf), self.len)?;
            check_page_headers(&self.data, range.start, range.end)?;
            g.get_column_page_reader(leaf).map_err(|e| e.to_string())
        })
        .map_err(NotRuns)
        .and_then(|mut pages| {
            let dictionary = match pages.get_next_page() {
                Ok(Some(Page::DictionaryPage {
                    buf, num_values, ..
                })) => Dictionary::decode(&buf, num_values as usize, physical, want)?,
                Ok(_) => return not_runs("no dictionary page first"),
                Err(e) => return not_runs(e.to_string()),
            };
            Ok(ColumnRuns {
                pages,
                dictionary,
                max_def,
                page: Bytes::new(),
                left: 0,
                hybrid: Hybrid::new(0, 0, 0)?,
                rows: 0,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every run of a hybrid-encoded byte string, values expanded.
    fn expand(bytes: &[u8], width: u32, count: u32) -> Result<Vec<u32>, NotRuns> {
        let mut h = Hybrid::new(width, 0, bytes.len())?;
        let mut out = Vec::new();
        while (out.len() as u32) < count {
            match h.next(bytes, count - out.len() as u32)? {
                Some((v, n)) => out.extend(std::iter::repeat_n(v, n as usize)),
                None => break,
            }
        }
        Ok(out)
    }

    #[test]
    fn rle_and_bit_packed_runs_decode_to_their_values() {
        // RLE: header 5 << 1 = 10, value 3 (one byte for width 2); then bit-packed, one group
        // (header 1 << 1 | 1 = 3) of 8 two-bit values 0,1,2,3,3,3,1,0: bytes 0b11_10_01_00,
        // 0b00_01_11_11.
        let bytes = [10, 3, 3, 0b1110_0100, 0b0001_1111];
        assert_eq!(
            expand(&bytes, 2, 13).unwrap(),
            [3, 3, 3, 3, 3, 0, 1, 2, 3, 3, 3, 1, 0]
        );
        // Equal bit-packed neighbours are one run: 3 three times.
        let mut h = Hybrid::new(2, 0, bytes.len()).unwrap();
        let runs: Vec<_> = std::iter::from_fn(|| h.next(&bytes, u32::MAX).unwrap()).collect();
        assert_eq!(
            runs,
            [(3, 5), (0, 1), (1, 1), (2, 1), (3, 3), (1, 1), (0, 1)]
        );
        // A page's count cuts the padding of the last group.
        assert_eq!(expand(&bytes, 2, 7).unwrap(), [3, 3, 3, 3, 3, 0, 1]);
    }

    #[test]
    fn wide_values_and_long_headers() {
        // An RLE run of 300 (header 600 = 0xd8 0x04) of the 17-bit value 70,000 (3 bytes).
        let v = 70_000u32.to_le_bytes();
        let bytes = [0xd8, 0x04, v[0], v[1], v[2]];
        let values = expand(&bytes, 17, 300).unwrap();
        assert_eq!(values.len(), 300);
        assert!(values.iter().all(|&x| x == 70_000));
        // Zero width: every value is 0, and a bit-packed group takes no bytes.
        assert_eq!(expand(&[3], 0, 8).unwrap(), [0; 8]);
    }

    #[test]
    fn broken_input_is_refused_not_misread() {
        // A header whose continuation bits never stop, and one past 32 bits.
        assert!(expand(&[0xff, 0xff], 2, 4).is_err());
        assert!(expand(&[0xff, 0xff, 0xff, 0xff, 0x7f], 2, 4).is_err());
        // An RLE run whose value is missing.
        assert!(expand(&[10], 9, 5).is_err());
        // A width past 32.
        assert!(Hybrid::new(33, 0, 0).is_err());
        // A bit-packed group cut short yields only the values its bytes hold.
        assert_eq!(expand(&[3, 0xff], 4, 8).unwrap(), [15, 15]);
        // The largest header (2^31 - 1 groups) of zero-width values: read only as far as asked;
        // of five-bit values over one byte: the one value the byte holds.
        let huge = [0xff, 0xff, 0xff, 0xff, 0x0f];
        assert_eq!(expand(&huge, 0, 100).unwrap(), [0; 100]);
        assert_eq!(
            expand(&[0xff, 0xff, 0xff, 0xff, 0x0f, 0x1f], 5, 9).unwrap(),
            [31]
        );
        // An RLE value is not read past the end of its section.
        let mut h = Hybrid::new(16, 0, 2).unwrap();
        assert!(h.next(&[10, 1, 2, 3], 5).is_err());
    }
}
