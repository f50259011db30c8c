//! Columns read side by side a batch at a time: a [`Stream`] per column, each asked for the
//! same number of rows, so that a reader sees row `r` of every column together while no more
//! than a batch of any column is decoded (a fragments file of 42 M rows never exists as
//! columns in memory). Values are widened on the way: integers to `i64`, numbers to `f64`.

use super::{check_chunk_range, message, Checked, Table};
use crate::diag::Diagnostic;
use parquet::basic::Type as Physical;
use parquet::column::reader::ColumnReaderImpl;
use parquet::data_type::{ByteArrayType, DataType, DoubleType, FloatType, Int32Type, Int64Type};
use parquet::file::reader::FileReader;
use parquet::schema::types::ColumnDescPtr;

/// One leaf column read a batch at a time, row group after row group. Batches never cross a
/// row group, and every column of a file has the same row groups, so columns asked for the same
/// sizes stay row-aligned.
pub(super) struct Batches<'t, T: DataType> {
    table: &'t Table,
    leaf: usize,
    descr: ColumnDescPtr,
    /// The row group to open next.
    group: usize,
    reader: Option<ColumnReaderImpl<T>>,
    /// Rows of the open group not read yet.
    left: usize,
    dense: Vec<T::T>,
    defs: Vec<i16>,
    /// The last batch, a null row holding the type's default.
    pub(super) values: Vec<T::T>,
    /// Which rows of the last batch are present; empty when all are.
    pub(super) present: Vec<bool>,
}

impl<'t, T: DataType> Batches<'t, T>
where
    T::T: Clone + Default,
{
    /// Leaf column `leaf` of `table`, which must be of `T`'s physical type.
    pub(super) fn new(table: &'t Table, leaf: usize) -> Result<Self, String> {
        let descr = table
            .reader
            .metadata()
            .file_metadata()
            .schema_descr()
            .column(leaf);
        if descr.physical_type() != T::get_physical_type() {
            return Err(format!(
                "the column is {:?}, not {:?}",
                descr.physical_type(),
                T::get_physical_type()
            ));
        }
        Ok(Batches {
            table,
            leaf,
            descr,
            group: 0,
            reader: None,
            left: 0,
            dense: Vec::new(),
            defs: Vec::new(),
            values: Vec::new(),
            present: Vec::new(),
        })
    }

    /// Rows left in the open row group, opening the next when it is done; 0 at the end.
    pub(super) fn available(&mut self) -> Result<usize, String> {
        while self.left == 0 {
            if self.group >= self.table.reader.num_row_groups() {
                self.reader = None;
                return Ok(0);
            }
            self.open_group()?;
        }
        Ok(self.left)
    }

    fn open_group(&mut self) -> Result<(), String> {
        let g = self.group;
        let group = self
            .table
            .reader
            .get_row_group(g)
            .map_err(|e| e.to_string())?;
        self.left = usize::try_from(group.metadata().num_rows().max(0)).unwrap_or(usize::MAX);
        let range = check_chunk_range(group.metadata().column(self.leaf), self.table.len)
            .map_err(|e| format!("row group {g}: {e}"))?;
        super::check_page_headers(&self.table.data, range.start, range.end)
            .map_err(|e| format!("row group {g}: {e}"))?;
        let pages = Checked {
            pages: group
                .get_column_page_reader(self.leaf)
                .map_err(|e| format!("row group {g}: {e}"))?,
            dictionary: false,
        };
        self.reader = Some(ColumnReaderImpl::<T>::new(
            self.descr.clone(),
            Box::new(pages),
        ));
        self.group += 1;
        Ok(())
    }

    /// Reads the next `n` rows (at most [`Batches::available`]) into `values` and `present`.
    pub(super) fn read(&mut self, n: usize) -> Result<(), String> {
        let g = self.group.saturating_sub(1);
        let max_def = self.descr.max_def_level();
        let reader = self
            .reader
            .as_mut()
            .ok_or_else(|| format!("row group {g}: read past its end"))?;
        self.dense.clear();
        self.defs.clear();
        let mut read = 0;
        while read < n {
            let (records, _, _) = reader
                .read_records(
                    n - read,
                    (max_def > 0).then_some(&mut self.defs),
                    None,
                    &mut self.dense,
                )
                .map_err(|e| format!("row group {g}: {}", message(e)))?;
            if records == 0 {
                return Err(format!(
                    "row group {g} ends {} rows early",
                    self.left - read
                ));
            }
            read += records;
        }
        self.left -= n;
        self.values.clear();
        self.present.clear();
        if max_def > 0 && self.dense.len() != n {
            let mut dense = self.dense.drain(..);
            for &d in &self.defs {
                let here = d == max_def;
                self.present.push(here);
                self.values.push(if here {
                    dense.next().unwrap_or_default()
                } else {
                    T::T::default()
                });
            }
        } else {
            std::mem::swap(&mut self.values, &mut self.dense);
        }
        Ok(())
    }
}

/// What a reader wants a column as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Want {
    /// INT32 or INT64, as `i64`.
    Integer,
    /// DOUBLE, FLOAT or an integer, as `f64`.
    Number,
    /// Integer ids as `i64`, strings as they are.
    Id,
}

/// A column of one of the physical types a [`Want`] accepts, read a batch at a time.
pub struct Stream<'t> {
    column: Typed<'t>,
    want: Want,
}

enum Typed<'t> {
    I32(Batches<'t, Int32Type>),
    I64(Batches<'t, Int64Type>),
    F32(Batches<'t, FloatType>),
    F64(Batches<'t, DoubleType>),
    Bytes(Batches<'t, ByteArrayType>),
}

/// One batch of a [`Stream`], widened.
#[derive(Debug, Default)]
pub struct Batch {
    /// The values of an integer column (a null row holds 0).
    pub integers: Vec<i64>,
    /// The values of a number column (a null row holds 0).
    pub numbers: Vec<f64>,
    /// The values of a string column (a null row holds "").
    pub strings: Vec<String>,
    /// Which rows are present; empty when all are.
    pub present: Vec<bool>,
}

impl Batch {
    /// Whether row `k` of the batch is present.
    #[inline]
    pub fn here(&self, k: usize) -> bool {
        self.present.is_empty() || self.present[k]
    }
}

impl<'t> Stream<'t> {
    /// Rows left in the current row group (opening the next); 0 at the end of the column.
    fn available(&mut self) -> Result<usize, String> {
        match &mut self.column {
            Typed::I32(b) => b.available(),
            Typed::I64(b) => b.available(),
            Typed::F32(b) => b.available(),
            Typed::F64(b) => b.available(),
            Typed::Bytes(b) => b.available(),
        }
    }

    /// Reads the next `n` rows into `out`: integers into `integers` (`numbers` for a
    /// [`Want::Number`]), floats into `numbers`, strings into `strings`.
    fn read(&mut self, n: usize, out: &mut Batch) -> Result<(), String> {
        out.integers.clear();
        out.numbers.clear();
        out.strings.clear();
        out.present.clear();
        let number = self.want == Want::Number;
        match &mut self.column {
            Typed::I32(b) => {
                b.read(n)?;
                if number {
                    out.numbers.extend(b.values.iter().map(|&x| f64::from(x)));
                } else {
                    out.integers.extend(b.values.iter().map(|&x| i64::from(x)));
                }
                out.present.extend_from_slice(&b.present);
            }
            Typed::I64(b) => {
                b.read(n)?;
                if number {
                    out.numbers.extend(b.values.iter().map(|&x| x as f64));
                } else {
                    std::mem::swap(&mut out.integers, &mut b.values);
                }
                out.present.extend_from_slice(&b.present);
            }
            Typed::F32(b) => {
                b.read(n)?;
                out.numbers.extend(b.values.iter().map(|&x| f64::from(x)));
                out.present.extend_from_slice(&b.present);
            }
            Typed::F64(b) => {
                b.read(n)?;
                std::mem::swap(&mut out.numbers, &mut b.values);
                out.present.extend_from_slice(&b.present);
            }
            Typed::Bytes(b) => {
                b.read(n)?;
                let present = &b.present;
                out.strings
                    .extend(b.values.iter().enumerate().map(|(k, v)| {
                        // A null row holds an unset ByteArray, whose bytes must not be read.
                        if present.is_empty() || present[k] {
                            String::from_utf8_lossy(v.data()).into_owned()
                        } else {
                            String::new()
                        }
                    }));
                out.present.extend_from_slice(present);
            }
        }
        Ok(())
    }
}

impl Batch {
    /// Keeps the rows `k` for which `keep(k)` holds, in order.
    fn retain_rows(&mut self, keep: &[bool]) {
        fn retain<T>(v: &mut Vec<T>, keep: &[bool]) {
            if !v.is_empty() {
                let mut k = 0;
                v.retain(|_| {
                    k += 1;
                    keep[k - 1]
                });
            }
        }
        retain(&mut self.integers, keep);
        retain(&mut self.numbers, keep);
        retain(&mut self.strings, keep);
        retain(&mut self.present, keep);
    }
}

/// Most rows read at once by [`Table::side_by_side`].
pub const SIDE_BY_SIDE_BATCH: usize = 1 << 14;

impl Table {
    /// The column `name` as a [`Stream`] of the kind `want`, `Ok(None)` when absent; a column of
    /// another type is the same error as the whole-column readers give.
    pub fn stream(&self, name: &str, want: Want) -> Result<Option<Stream<'_>>, Diagnostic> {
        let Some(i) = self.leaf(name) else {
            return Ok(None);
        };
        let (physical, _, text) = self.describe(i);
        let expected = match want {
            Want::Integer => "an integer (int32 or int64)",
            Want::Number => "a number (double)",
            Want::Id => "a string or an integer",
        };
        let column = match (want, physical) {
            (_, Physical::INT32) => Batches::new(self, i).map(Typed::I32),
            (_, Physical::INT64) => Batches::new(self, i).map(Typed::I64),
            (Want::Number, Physical::FLOAT) => Batches::new(self, i).map(Typed::F32),
            (Want::Number, Physical::DOUBLE) => Batches::new(self, i).map(Typed::F64),
            (Want::Id, Physical::BYTE_ARRAY) => Batches::new(self, i).map(Typed::Bytes),
            _ => return Err(self.mistyped(name, text, expected)),
        };
        column
            .map(|column| Some(Stream { column, want }))
            .map_err(|e| self.scan_error(name, e))
    }

    /// The columns among `columns` that cannot be decoded to their end, each with the error the
    /// whole-column readers give (each column read on its own, a batch at a time). Absent and
    /// mistyped columns are left to [`Table::stream`]'s callers.
    pub fn decode_errors(&self, columns: &[(&str, Want)]) -> Vec<Diagnostic> {
        let decode = |s: &mut Stream<'_>| {
            let mut b = Batch::default();
            super::guarded(|| loop {
                let n = s.available()?.min(SIDE_BY_SIDE_BATCH);
                if n == 0 {
                    return Ok(());
                }
                s.read(n, &mut b)?;
            })
        };
        columns
            .iter()
            .filter_map(|&(name, want)| {
                let mut s = self.stream(name, want).ok().flatten()?;
                decode(&mut s).err().map(|e| self.scan_error(name, e))
            })
            .collect()
    }

    /// Reads `streams` (columns of this table) side by side: `f(first_row, batches)` for each
    /// run of at most [`SIDE_BY_SIDE_BATCH`] rows, `batches[c]` holding column `c`'s values of
    /// those rows. Under [`Table::keep_rows`] only the kept rows are handed on, numbered among
    /// themselves. Errors name the row group; the parquet crate runs inside the panic guard.
    pub fn side_by_side(
        &self,
        streams: &mut [Stream<'_>],
        mut f: impl FnMut(usize, &[Batch]),
    ) -> Result<(), String> {
        let mut batches: Vec<Batch> = streams.iter().map(|_| Batch::default()).collect();
        let (mut row, mut kept_row) = (0usize, 0usize);
        let mut keep_mask: Vec<bool> = Vec::new();
        super::guarded(|| loop {
            let Some(first) = streams.first_mut() else {
                return Ok(());
            };
            let n = first.available()?.min(SIDE_BY_SIDE_BATCH);
            if n == 0 {
                return Ok(());
            }
            for (s, b) in streams.iter_mut().zip(&mut batches) {
                if s.available()? < n {
                    return Err("the columns' row groups differ in length".to_string());
                }
                s.read(n, b)?;
            }
            match &self.keep {
                None => f(row, &batches),
                Some(keep) => {
                    keep_mask.clear();
                    keep_mask.extend((row..row + n).map(|r| keep.contains(r)));
                    let count = keep_mask.iter().filter(|&&k| k).count();
                    if count > 0 {
                        batches.iter_mut().for_each(|b| b.retain_rows(&keep_mask));
                        f(kept_row, &batches);
                    }
                    kept_row += count;
                }
            }
            row += n;
        })
    }
}
