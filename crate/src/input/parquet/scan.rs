//! Reading part of a parquet file without holding all of it: a column visited in batches of at
//! most [`BATCH`] rows ([`Table::scan_integers`], [`Table::scan_strings`]), and a table whose
//! columns decode only the rows of a [`RowSet`] ([`Table::keep_rows`]). A reader picks the rows
//! it wants from a scan of a few columns (for a workload: the tasks in a window, and their
//! fragments), then reads those rows only, so a trace past the browser's limits never has more
//! than a batch of its other rows decoded at once.

use super::stream::Batches;
use super::{guarded, Column, Table};
use crate::diag::Diagnostic;
use parquet::basic::{LogicalType, TimeUnit, Type as Physical};
use parquet::data_type::{ByteArrayType, DataType, Int32Type, Int64Type};

/// Most rows decoded at once by a scan.
pub const BATCH: usize = 1 << 16;

/// What a scan hands each batch: its first row, its values (a null row holds the type's
/// default) and which are present (`None` when all are).
type Batch<'a, V> = dyn FnMut(usize, &[V], Option<&[bool]>) + 'a;

/// A set of row numbers, one bit each.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RowSet {
    bits: Vec<u64>,
    count: usize,
}

impl RowSet {
    /// Adds row `row`.
    pub fn insert(&mut self, row: usize) {
        let (word, bit) = (row / 64, row % 64);
        if self.bits.len() <= word {
            self.bits.resize(word + 1, 0);
        }
        if self.bits[word] & (1 << bit) == 0 {
            self.bits[word] |= 1 << bit;
            self.count += 1;
        }
    }

    /// Whether row `row` is in the set.
    pub fn contains(&self, row: usize) -> bool {
        self.bits
            .get(row / 64)
            .is_some_and(|w| w & (1 << (row % 64)) != 0)
    }

    /// How many rows the set holds.
    pub fn len(&self) -> usize {
        self.count
    }

    /// True when the set holds no row.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

impl Table {
    /// From now on, every column decodes only the rows of `rows` (in file order); a row's
    /// number in a message is then its number among these.
    pub fn keep_rows(&mut self, rows: RowSet) {
        self.keep = Some(rows);
    }

    /// Decodes leaf column `i` in batches: `f(first_row, values, present)` for each, a null
    /// row holding the type's default and `present` naming the rows that are not null (`None`
    /// when all are). Ignores [`Table::keep_rows`].
    fn scan<T: DataType>(&self, i: usize, f: &mut Batch<'_, T::T>) -> Result<(), String>
    where
        T::T: Clone + Default,
    {
        guarded(|| {
            let mut column = Batches::<T>::new(self, i)?;
            let mut row = 0;
            loop {
                let n = column.available()?.min(BATCH);
                if n == 0 {
                    return Ok(());
                }
                column.read(n)?;
                let present = (!column.present.is_empty()).then_some(&column.present[..]);
                f(row, &column.values, present);
                row += n;
            }
        })
    }

    /// Leaf column `i`'s rows of `keep` only, decoded a batch at a time.
    pub(super) fn decode_kept<T: DataType>(
        &self,
        i: usize,
        keep: &RowSet,
    ) -> Result<Column<T::T>, String>
    where
        T::T: Clone + Default,
    {
        let mut out: Vec<T::T> = Vec::with_capacity(keep.len().min(BATCH));
        let mut present: Option<Vec<bool>> = None;
        self.scan::<T>(i, &mut |first, values, here| {
            for (k, v) in values.iter().enumerate() {
                if !keep.contains(first + k) {
                    continue;
                }
                let is_here = here.is_none_or(|p| p[k]);
                if !is_here && present.is_none() {
                    present = Some(vec![true; out.len()]);
                }
                if let Some(p) = &mut present {
                    p.push(is_here);
                }
                out.push(v.clone());
            }
        })?;
        Ok(Column {
            values: out,
            present,
        })
    }

    pub(super) fn scan_error(&self, name: &str, e: String) -> Diagnostic {
        Diagnostic::error(
            name,
            format!("{}: cannot decode the column `{name}`: {e}", self.file),
        )
    }

    /// Visits an integer column (INT32 or INT64; a timestamp in ms) in batches, whatever
    /// [`Table::keep_rows`] says: `f(first_row, values, present)`. `Ok(false)` when the column
    /// is absent or not of integers.
    pub fn scan_integers(
        &self,
        name: &str,
        mut f: impl FnMut(usize, &[i64], Option<&[bool]>),
    ) -> Result<bool, Diagnostic> {
        let Some(i) = self.leaf(name) else {
            return Ok(false);
        };
        let (physical, logical, _) = self.describe(i);
        let scale = match logical {
            Some(LogicalType::Timestamp(t)) => match t.unit {
                TimeUnit::MILLIS => 1,
                TimeUnit::MICROS => 1_000,
                TimeUnit::NANOS => 1_000_000,
            },
            _ => 1,
        };
        let mut wide: Vec<i64> = Vec::new();
        let mut widen =
            |first: usize, values: &mut dyn Iterator<Item = i64>, here: Option<&[bool]>| {
                wide.clear();
                wide.extend(values.map(|x| x.div_euclid(scale)));
                f(first, &wide, here);
            };
        match physical {
            Physical::INT32 => self.scan::<Int32Type>(i, &mut |first, v, here| {
                widen(first, &mut v.iter().map(|&x| i64::from(x)), here)
            }),
            Physical::INT64 => self.scan::<Int64Type>(i, &mut |first, v, here| {
                widen(first, &mut v.iter().copied(), here)
            }),
            _ => return Ok(false),
        }
        .map_err(|e| self.scan_error(name, e))?;
        Ok(true)
    }

    /// Visits a string column (or an integer one, in decimal) in batches, as
    /// [`Table::scan_integers`]. `Ok(false)` when the column is absent or of another type.
    pub fn scan_strings(
        &self,
        name: &str,
        mut f: impl FnMut(usize, &[String], Option<&[bool]>),
    ) -> Result<bool, Diagnostic> {
        let Some(i) = self.leaf(name) else {
            return Ok(false);
        };
        let (physical, _, _) = self.describe(i);
        let mut text: Vec<String> = Vec::new();
        match physical {
            Physical::BYTE_ARRAY => self
                .scan::<ByteArrayType>(i, &mut |first, values, here| {
                    text.clear();
                    text.extend(values.iter().enumerate().map(|(k, b)| {
                        // A null row holds an unset ByteArray, whose bytes must not be read.
                        if here.is_none_or(|p| p[k]) {
                            String::from_utf8_lossy(b.data()).into_owned()
                        } else {
                            String::new()
                        }
                    }));
                    f(first, &text, here);
                })
                .map_err(|e| self.scan_error(name, e))
                .map(|()| true),
            Physical::INT32 | Physical::INT64 => self.scan_integers(name, |first, values, here| {
                text.clear();
                text.extend(values.iter().map(i64::to_string));
                f(first, &text, here);
            }),
            _ => Ok(false),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_set_counts_each_row_once() {
        let mut s = RowSet::default();
        for r in [0, 63, 64, 1000, 64] {
            s.insert(r);
        }
        assert_eq!(s.len(), 4);
        assert!(s.contains(63) && s.contains(64) && s.contains(1000));
        assert!(!s.contains(1) && !s.contains(5000));
    }
}
