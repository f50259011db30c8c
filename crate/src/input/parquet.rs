//! Reading parquet files column by column, from bytes (so the same code serves a file on disk
//! and a file dropped into the browser), with the `parquet` crate and pure-Rust codecs only.
//!
//! A column is decoded whole into a [`Column`]: a flat `Vec` of its values and, only when the
//! column holds nulls, which rows are present (surf_week's 2.3 M fragments decode straight into
//! flat arrays, with no `Option` per value). The types OpenDC's
//! traces use converted on the way: integers of either width, floats of either width, booleans,
//! strings, and timestamps in any unit to ms.
//!
//! The parquet crate panics on some malformed input, and in wasm (panic = abort) a panic traps
//! the module, so what it would panic on is checked first: every column chunk's byte range
//! against the file (before the page reader is made, which asserts it is not negative), and
//! every dictionary-encoded data page against a dictionary page before it (a `Checked` page
//! reader, which sees each page once as it is decoded). The footer and every page header are
//! walked first for collections too long for their bytes, which would hold the crate's Thrift
//! reader for seconds ([`super::thrift_check`]). `catch_unwind` around every call into the
//! crate stays as a last resort.

use super::thrift_check::{check_footer, check_page_headers};
use crate::diag::Diagnostic;
use bytes::Bytes;
use parquet::basic::{Encoding, LogicalType, TimeUnit, Type as Physical};
use parquet::column::page::{Page, PageMetadata, PageReader};
use parquet::column::reader::ColumnReaderImpl;
use parquet::data_type::{
    BoolType, ByteArrayType, DataType, DoubleType, FloatType, Int32Type, Int64Type,
};
use parquet::errors::{ParquetError, Result as ParquetResult};
use parquet::file::metadata::ColumnChunkMetaData;
use parquet::file::reader::{FileReader, SerializedFileReader};
use std::panic::{catch_unwind, AssertUnwindSafe};

mod runs;
mod scan;
mod stream;
pub use runs::{Block, ColumnRuns, Dictionary, NotRuns, UNPACKED};
pub use scan::RowSet;
pub use stream::{Batch, Stream, Want, SIDE_BY_SIDE_BATCH};

/// A decoded column: one value per row (a null row holds the type's default) and, when the
/// column has nulls, which rows are present.
#[derive(Debug, Clone, PartialEq)]
pub struct Column<T> {
    pub values: Vec<T>,
    /// `None` when every row is present.
    pub present: Option<Vec<bool>>,
}

impl<T> Column<T> {
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// True when the column has no rows.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The value of `row`, `None` when null (or past the end).
    #[inline]
    pub fn get_ref(&self, row: usize) -> Option<&T> {
        match &self.present {
            Some(p) if !p.get(row).copied().unwrap_or(false) => None,
            _ => self.values.get(row),
        }
    }

    /// The column with `f` applied to every value (null rows' defaults included).
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> Column<U> {
        Column {
            values: self.values.into_iter().map(f).collect(),
            present: self.present,
        }
    }

    /// The column with `f(value, present)` applied to every row.
    pub fn map_rows<U>(self, mut f: impl FnMut(T, bool) -> U) -> Column<U> {
        let values = match &self.present {
            None => self.values.into_iter().map(|v| f(v, true)).collect(),
            Some(p) => self
                .values
                .into_iter()
                .zip(p)
                .map(|(v, &here)| f(v, here))
                .collect(),
        };
        Column {
            values,
            present: self.present,
        }
    }

    /// The rows as options.
    pub fn into_options(self) -> Vec<Option<T>> {
        match self.present {
            None => self.values.into_iter().map(Some).collect(),
            Some(p) => self
                .values
                .into_iter()
                .zip(p)
                .map(|(v, here)| here.then_some(v))
                .collect(),
        }
    }
}

impl<T: Copy> Column<T> {
    /// The value of `row`, `None` when null (or past the end).
    #[inline]
    pub fn get(&self, row: usize) -> Option<T> {
        self.get_ref(row).copied()
    }

    /// True when some present value satisfies `f`.
    pub fn any(&self, mut f: impl FnMut(T) -> bool) -> bool {
        (0..self.len()).any(|r| self.get(r).is_some_and(&mut f))
    }
}

/// An open parquet file and its name, for messages.
pub struct Table {
    reader: SerializedFileReader<Bytes>,
    /// The file's bytes (shared with the reader), for the page headers' check.
    data: Bytes,
    pub file: String,
    /// Size of the file in bytes, which bounds what is allocated on the footer's word.
    len: usize,
    /// The rows every column decodes, when not all ([`Table::keep_rows`]).
    keep: Option<RowSet>,
}

/// Rows reserved ahead of decoding at most, per byte of the file and in all: the footer's row
/// counts are not checked by the parquet crate, and a forged count must not abort the process
/// with a failed allocation. A longer column (or a constant one, which takes almost no bytes)
/// grows as it is decoded; surf_week's 2.3 M fragments in 1.7 MB fit in the reservation.
const RESERVED_ROWS_PER_BYTE: usize = 16;
const RESERVED_ROWS_MAX: usize = 1 << 22;

/// Checks that column chunk `chunk` lies inside a file of `file_len` bytes: the parquet crate
/// asserts that its start (the dictionary page's offset, else the first data page's) and its
/// compressed length are not negative (`ColumnChunkMetaData::byte_range`), and reads past the
/// end only to fail.
fn check_chunk_range(
    chunk: &ColumnChunkMetaData,
    file_len: usize,
) -> Result<std::ops::Range<usize>, String> {
    let start = chunk
        .dictionary_page_offset()
        .unwrap_or_else(|| chunk.data_page_offset());
    let len = chunk.compressed_size();
    let file_len = i64::try_from(file_len).unwrap_or(i64::MAX);
    if start < 0 || start > file_len {
        return Err(format!(
            "the column chunk starts at {start}, outside the file's {file_len} bytes"
        ));
    }
    if len < 0 {
        return Err(format!("the column chunk's length is {len}, negative"));
    }
    match start.checked_add(len) {
        // Both inside the file, whose length is a usize.
        Some(end) if end <= file_len => Ok(start as usize..end as usize),
        _ => Err(format!(
            "the column chunk of {len} bytes at {start} runs past the end of the file's \
             {file_len} bytes"
        )),
    }
}

/// A page reader that refuses a dictionary-encoded data page with no dictionary page before
/// it, on which the parquet crate's value decoder panics ("Decoder for dict should have been
/// set"). It looks at each page as it passes, so the pages are read and decoded once.
struct Checked {
    pages: Box<dyn PageReader>,
    /// A dictionary page has been handed on (or skipped, which the crate keeps for later).
    dictionary: bool,
}

impl Checked {
    fn check(&mut self, page: Option<Page>) -> ParquetResult<Option<Page>> {
        match &page {
            Some(Page::DictionaryPage { .. }) => self.dictionary = true,
            Some(Page::DataPage { encoding, .. } | Page::DataPageV2 { encoding, .. })
                if matches!(
                    encoding,
                    Encoding::PLAIN_DICTIONARY | Encoding::RLE_DICTIONARY
                ) && !self.dictionary =>
            {
                return Err(ParquetError::General(format!(
                    "a data page is dictionary-encoded ({encoding}) but no dictionary page \
                     comes before it"
                )));
            }
            _ => {}
        }
        Ok(page)
    }
}

impl Iterator for Checked {
    type Item = ParquetResult<Page>;

    fn next(&mut self) -> Option<Self::Item> {
        self.get_next_page().transpose()
    }
}

impl PageReader for Checked {
    fn get_next_page(&mut self) -> ParquetResult<Option<Page>> {
        let page = self.pages.get_next_page()?;
        self.check(page)
    }

    fn peek_next_page(&mut self) -> ParquetResult<Option<PageMetadata>> {
        self.pages.peek_next_page()
    }

    fn skip_next_page(&mut self) -> ParquetResult<()> {
        if self.pages.peek_next_page()?.is_some_and(|m| m.is_dict) {
            self.dictionary = true;
        }
        self.pages.skip_next_page()
    }

    fn supports_deferred_dictionary(&self) -> bool {
        self.pages.supports_deferred_dictionary()
    }

    fn take_deferred_dictionary(&mut self) -> ParquetResult<Option<Page>> {
        let page = self.pages.take_deferred_dictionary()?;
        self.check(page)
    }

    fn at_record_boundary(&mut self) -> ParquetResult<bool> {
        self.pages.at_record_boundary()
    }
}

/// The text of a parquet error, without the "Parquet error: " of a general one.
fn message(e: ParquetError) -> String {
    match e {
        ParquetError::General(m) => m,
        e => e.to_string(),
    }
}

/// The 4 bytes a parquet file begins and ends with.
const MAGIC: &[u8; 4] = b"PAR1";

/// Checks that `bytes` begin and end with the parquet magic number, as the format requires
/// (the parquet crate reads only the trailing one, so a file whose head was overwritten would
/// otherwise be read).
fn check_magic(bytes: &[u8], file: &str) -> Result<(), String> {
    let hex = |b: &[u8]| {
        b.iter()
            .map(|x| format!("{x:02x}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    if bytes.len() < 12 {
        return Err(format!(
            "{file}: not a readable parquet file ({} bytes, fewer than the 12 of the smallest)",
            bytes.len()
        ));
    }
    let (head, tail) = (&bytes[..4], &bytes[bytes.len() - 4..]);
    for (which, got) in [("begin", head), ("end", tail)] {
        if got != MAGIC {
            return Err(format!(
                "{file}: not a readable parquet file (a parquet file must {which} with the magic \
                 number PAR1, 50 41 52 31; this one's {which} is {})",
                hex(got)
            ));
        }
    }
    Ok(())
}

/// Runs `f`, turning a panic of the parquet crate into an error message.
pub(crate) fn guarded<T>(f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f))
        .unwrap_or_else(|_| Err("the parquet decoder failed on malformed data".into()))
}

impl Table {
    /// Opens `bytes` as a parquet file named `file`.
    pub fn open(bytes: &[u8], file: &str) -> Result<Table, Diagnostic> {
        check_magic(bytes, file).map_err(|e| Diagnostic::error("", e))?;
        check_footer(bytes, file).map_err(|e| Diagnostic::error("", e))?;
        let data = Bytes::copy_from_slice(bytes);
        let reader = guarded(|| SerializedFileReader::new(data.clone()).map_err(|e| e.to_string()))
            .map_err(|e| {
                Diagnostic::error("", format!("{file}: not a readable parquet file ({e})"))
            })?;
        Ok(Table {
            reader,
            data,
            file: file.to_string(),
            len: bytes.len(),
            keep: None,
        })
    }

    /// Number of rows, as the footer says (a u64: on wasm32 a usize would wrap a forged 2^40).
    pub fn rows(&self) -> u64 {
        self.reader.metadata().file_metadata().num_rows().max(0) as u64
    }

    /// The capacity to reserve for `rows` values: as many, unless the file is too small to
    /// plausibly hold them.
    fn reserve(&self, rows: usize) -> usize {
        rows.min(self.len.saturating_mul(RESERVED_ROWS_PER_BYTE))
            .min(RESERVED_ROWS_MAX)
    }

    /// The names of the top-level columns, in file order.
    pub fn column_names(&self) -> Vec<String> {
        self.reader
            .metadata()
            .file_metadata()
            .schema_descr()
            .root_schema()
            .get_fields()
            .iter()
            .map(|f| f.name().to_string())
            .collect()
    }

    /// True when the file has a top-level field named `name` (of any type, lists included).
    pub fn has(&self, name: &str) -> bool {
        self.column_names().iter().any(|n| n == name)
    }

    /// Index of the leaf column named `name` (a plain top-level column).
    fn leaf(&self, name: &str) -> Option<usize> {
        let schema = self.reader.metadata().file_metadata().schema_descr();
        (0..schema.num_columns()).find(|&i| {
            let c = schema.column(i);
            c.path().parts().len() == 1 && c.name() == name
        })
    }

    fn missing(&self, name: &str, expected: &str) -> Diagnostic {
        Diagnostic::error(
            name,
            format!(
                "{}: missing the column `{name}` ({expected}); the columns are: {}",
                self.file,
                self.column_names().join(", ")
            ),
        )
    }

    fn mistyped(&self, name: &str, found: String, expected: &str) -> Diagnostic {
        Diagnostic::error(
            name,
            format!(
                "{}: the column `{name}` is {found}, expected {expected}",
                self.file
            ),
        )
    }

    fn describe(&self, i: usize) -> (Physical, Option<LogicalType>, String) {
        let c = self
            .reader
            .metadata()
            .file_metadata()
            .schema_descr()
            .column(i);
        let logical = c.logical_type_ref().cloned();
        let text = match &logical {
            Some(l) => format!("{:?} ({l:?})", c.physical_type()),
            None => format!("{:?}", c.physical_type()),
        };
        (c.physical_type(), logical, text)
    }

    /// Decodes leaf column `i` as `T`.
    fn decode<T: DataType>(&self, i: usize) -> Result<Column<T::T>, String>
    where
        T::T: Clone + Default,
    {
        if let Some(keep) = &self.keep {
            return self.decode_kept::<T>(i, keep);
        }
        guarded(|| {
            let descr = self
                .reader
                .metadata()
                .file_metadata()
                .schema_descr()
                .column(i);
            if descr.physical_type() != T::get_physical_type() {
                return Err(format!(
                    "the column is {:?}, not {:?}",
                    descr.physical_type(),
                    T::get_physical_type()
                ));
            }
            let max_def = descr.max_def_level();
            let mut out: Vec<T::T> = Vec::with_capacity(
                self.reserve(usize::try_from(self.rows()).unwrap_or(usize::MAX)),
            );
            let mut present: Option<Vec<bool>> = None;
            let mut defs: Vec<i16> = Vec::new();
            for g in 0..self.reader.num_row_groups() {
                let group = self.reader.get_row_group(g).map_err(|e| e.to_string())?;
                let rows =
                    usize::try_from(group.metadata().num_rows().max(0)).unwrap_or(usize::MAX);
                let range = check_chunk_range(group.metadata().column(i), self.len)
                    .map_err(|e| format!("row group {g}: {e}"))?;
                check_page_headers(&self.data, range.start, range.end)
                    .map_err(|e| format!("row group {g}: {e}"))?;
                let pages = Checked {
                    pages: group
                        .get_column_page_reader(i)
                        .map_err(|e| format!("row group {g}: {e}"))?,
                    dictionary: false,
                };
                let mut reader = ColumnReaderImpl::<T>::new(descr.clone(), Box::new(pages));
                let start = out.len();
                defs.clear();
                let mut read = 0;
                while read < rows {
                    let (records, _, _) = reader
                        .read_records(
                            rows - read,
                            (max_def > 0).then_some(&mut defs),
                            None,
                            &mut out,
                        )
                        .map_err(|e| format!("row group {g}: {}", message(e)))?;
                    if records == 0 {
                        break;
                    }
                    read += records;
                }
                if read != rows {
                    return Err(format!("row group {g} holds {read} of its {rows} rows"));
                }
                let values = out.len() - start;
                if max_def > 0 && (values != rows || present.is_some()) {
                    // Nulls: spread this group's values over its rows, defaults in the gaps.
                    let p = present.get_or_insert_with(|| vec![true; start]);
                    let mut dense = out.split_off(start).into_iter();
                    for &d in &defs {
                        let here = d == max_def;
                        p.push(here);
                        out.push(if here {
                            dense.next().unwrap_or_default()
                        } else {
                            T::T::default()
                        });
                    }
                }
            }
            Ok(Column {
                values: out,
                present,
            })
        })
    }

    fn decoded<T: DataType>(&self, name: &str, i: usize) -> Result<Column<T::T>, Diagnostic>
    where
        T::T: Clone + Default,
    {
        self.decode::<T>(i).map_err(|e| {
            Diagnostic::error(
                name,
                format!("{}: cannot decode the column `{name}`: {e}", self.file),
            )
        })
    }

    /// An integer column (INT32 or INT64; a timestamp is converted to ms). `None` when absent.
    pub fn integer_column(&self, name: &str) -> Result<Option<Column<i64>>, Diagnostic> {
        let Some(i) = self.leaf(name) else {
            return Ok(None);
        };
        let (physical, logical, text) = self.describe(i);
        let scale = match logical {
            Some(LogicalType::Timestamp(t)) => match t.unit {
                TimeUnit::MILLIS => 1,
                TimeUnit::MICROS => 1_000,
                TimeUnit::NANOS => 1_000_000,
            },
            _ => 1,
        };
        let values = match physical {
            Physical::INT32 => self.decoded::<Int32Type>(name, i)?.map(i64::from),
            Physical::INT64 => self.decoded::<Int64Type>(name, i)?,
            _ => return Err(self.mistyped(name, text, "an integer (int32 or int64)")),
        };
        Ok(Some(if scale == 1 {
            values
        } else {
            values.map(|x: i64| x.div_euclid(scale))
        }))
    }

    /// A number column (DOUBLE, FLOAT, or an integer). `None` when absent.
    pub fn number_column(&self, name: &str) -> Result<Option<Column<f64>>, Diagnostic> {
        let Some(i) = self.leaf(name) else {
            return Ok(None);
        };
        let (physical, _, text) = self.describe(i);
        Ok(Some(match physical {
            Physical::DOUBLE => self.decoded::<DoubleType>(name, i)?,
            Physical::FLOAT => self.decoded::<FloatType>(name, i)?.map(f64::from),
            Physical::INT32 => self.decoded::<Int32Type>(name, i)?.map(f64::from),
            Physical::INT64 => self.decoded::<Int64Type>(name, i)?.map(|x| x as f64),
            _ => return Err(self.mistyped(name, text, "a number (double)")),
        }))
    }

    /// A boolean column. `None` when absent.
    pub fn boolean_column(&self, name: &str) -> Result<Option<Column<bool>>, Diagnostic> {
        let Some(i) = self.leaf(name) else {
            return Ok(None);
        };
        let (physical, _, text) = self.describe(i);
        match physical {
            Physical::BOOLEAN => Ok(Some(self.decoded::<BoolType>(name, i)?)),
            _ => Err(self.mistyped(name, text, "a boolean")),
        }
    }

    /// A string column, or an integer column written in decimal (for ids). `None` when absent.
    pub fn string_column(&self, name: &str) -> Result<Option<Column<String>>, Diagnostic> {
        let Some(i) = self.leaf(name) else {
            return Ok(None);
        };
        let (physical, _, text) = self.describe(i);
        Ok(Some(match physical {
            Physical::BYTE_ARRAY => self.decoded::<ByteArrayType>(name, i)?.map_rows(|b, here| {
                // A null row holds an unset ByteArray, whose bytes must not be read.
                if here {
                    String::from_utf8_lossy(b.data()).into_owned()
                } else {
                    String::new()
                }
            }),
            Physical::INT32 | Physical::INT64 => self.integer_column(name)?.map_or_else(
                || Column {
                    values: vec![],
                    present: None,
                },
                |c| c.map(|x| x.to_string()),
            ),
            _ => return Err(self.mistyped(name, text, "a string or an integer")),
        }))
    }

    /// A required column (its values, or a [`Stream`] of them), or the error naming it and the
    /// columns found.
    pub fn require_column<C>(
        &self,
        name: &str,
        expected: &str,
        column: Result<Option<C>, Diagnostic>,
    ) -> Result<C, Diagnostic> {
        column?.ok_or_else(|| self.missing(name, expected))
    }

    /// [`Table::integer_column`] as options per row.
    pub fn integers(&self, name: &str) -> Result<Option<Vec<Option<i64>>>, Diagnostic> {
        Ok(self.integer_column(name)?.map(Column::into_options))
    }

    /// [`Table::number_column`] as options per row.
    pub fn numbers(&self, name: &str) -> Result<Option<Vec<Option<f64>>>, Diagnostic> {
        Ok(self.number_column(name)?.map(Column::into_options))
    }

    /// A required column as options per row, or the error naming it and the columns found.
    pub fn require<T>(
        &self,
        name: &str,
        expected: &str,
        column: Result<Option<Vec<T>>, Diagnostic>,
    ) -> Result<Vec<T>, Diagnostic> {
        column?.ok_or_else(|| self.missing(name, expected))
    }
}
