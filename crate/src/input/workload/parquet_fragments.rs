//! `fragments.parquet` read a batch at a time straight into runs ([`Fragments`]): the file is
//! never decoded into whole columns, so a trace of 42 M fragments needs the memory of its runs
//! (8 bytes each) and one batch, not of 42 M rows of three columns.
//!
//! OpenDC writes a task's fragments together (though not always in task order): each stretch
//! of one task's rows becomes a block of runs, and a task's range is its block. A task whose
//! rows come in several stretches has its blocks gathered in file order afterwards, which
//! copies the runs once.

use super::read_parquet::FRAGMENTS;
use crate::diag::Diagnostic;
use crate::input::parquet::{Batch, Stream, Table, Want};
use crate::input::problems::Problems;
use crate::model::Fragments;
use std::collections::HashMap;
use std::ops::Range;

/// The columns of `fragments.parquet` read, as what.
pub(super) const COLUMNS: [(&str, Want); 4] = [
    ("id", Want::Id),
    ("duration", Want::Integer),
    ("cpu_usage", Want::Number),
    ("gpu_usage", Want::Number),
];

/// How fragment rows name their task: the tasks' ids, as integers where they parse.
pub(super) struct TaskIds<'a> {
    pub by_text: &'a HashMap<&'a str, u32>,
    pub by_integer: HashMap<i64, u32>,
}

/// The fragments of every task of `tasks.parquet`, by its row there.
pub(super) struct Grouped {
    pub fragments: Fragments,
    /// Per task row: its runs (empty for a task without fragments).
    pub ranges: Vec<Range<u32>>,
    /// Rows whose id names no task (or is null).
    pub orphans: u64,
    /// Whether some GPU usage is not 0.
    pub gpu_used: bool,
}

/// The fragments file's columns, opened: errors for missing or mistyped ones go to `errors`
/// (in the order the whole-column reader reported them).
pub(super) struct Columns<'t> {
    id: Stream<'t>,
    duration: Stream<'t>,
    usage: Stream<'t>,
    gpu: Option<Stream<'t>>,
}

impl<'t> Columns<'t> {
    /// Opens the columns of `f`, or records why they cannot be read: a missing or mistyped
    /// column, and, when the workload fails anyway (`failing`: the tasks file has errors, or a
    /// fragments column is missing or mistyped), every column that cannot be decoded, so that
    /// one reading reports all there is to fix.
    pub(super) fn open(
        f: &'t Table,
        errors: &mut Vec<Diagnostic>,
        failing: bool,
    ) -> Option<Columns<'t>> {
        let expected = ["int32 or string", "int64 ms", "double MHz", ""];
        let opened: Vec<Result<Option<Stream<'t>>, Diagnostic>> = COLUMNS
            .iter()
            .zip(expected)
            .map(|(&(name, want), expected)| match f.stream(name, want) {
                Ok(None) if !expected.is_empty() => f
                    .require_column(name, expected, Ok(None::<Stream<'_>>))
                    .map(Some),
                other => other,
            })
            .collect();
        let failing = failing || opened.iter().any(Result::is_err);
        let mut streams = Vec::new();
        for (result, column) in opened.into_iter().zip(COLUMNS) {
            match result {
                Err(d) => errors.push(d),
                Ok(stream) => {
                    if failing && stream.is_some() {
                        errors.extend(f.decode_errors(&[column]));
                    }
                    streams.push(stream);
                }
            }
        }
        if failing {
            return None;
        }
        let mut streams = streams.into_iter();
        Some(Columns {
            id: streams.next()??,
            duration: streams.next()??,
            usage: streams.next()??,
            gpu: streams.next()?,
        })
    }
}

/// Where the reading is: the block being filled and what was found so far.
pub(super) struct Grouping<'a> {
    pub ids: &'a TaskIds<'a>,
    /// Per task row: its blocks of runs, in file order.
    pub blocks: Vec<Vec<Range<u32>>>,
    pub fragments: Fragments,
    /// The task of the block being filled, and its first run.
    open: Option<(u32, u32)>,
    last_integer: Option<(i64, u32)>,
    pub orphans: u64,
    gpu_used: bool,
}

impl<'a> Grouping<'a> {
    /// Nothing read yet, for `tasks` task rows.
    pub fn new(ids: &'a TaskIds<'a>, tasks: usize) -> Self {
        Grouping {
            ids,
            blocks: vec![Vec::new(); tasks],
            fragments: Fragments::default(),
            open: None,
            last_integer: None,
            orphans: 0,
            gpu_used: false,
        }
    }

    fn task_of(&mut self, batch: &Batch, k: usize) -> Option<u32> {
        if !batch.here(k) {
            return None;
        }
        if batch.strings.is_empty() {
            let id = batch.integers[k];
            match self.last_integer {
                Some((last, task)) if last == id => Some(task),
                _ => {
                    let task = *self.ids.by_integer.get(&id)?;
                    self.last_integer = Some((id, task));
                    Some(task)
                }
            }
        } else {
            self.ids.by_text.get(batch.strings[k].as_str()).copied()
        }
    }

    /// What was read: the last block closed and each task's blocks gathered into one range.
    pub fn finish(mut self) -> Grouped {
        self.close();
        let (fragments, ranges) = gather(self.fragments, self.blocks);
        Grouped {
            fragments,
            ranges,
            orphans: self.orphans,
            gpu_used: self.gpu_used,
        }
    }

    /// Ends the block being filled.
    fn close(&mut self) {
        if let Some((task, start)) = self.open.take() {
            self.blocks[task as usize].push(start..self.fragments.end());
        }
    }

    fn add(&mut self, task: u32, duration_ms: i64, usage: f64, count: u32) {
        self.start_block(task);
        self.fragments.push_run(duration_ms, usage, count);
    }

    /// Opens a block for `task` unless its block is the one being filled.
    #[inline]
    pub fn start_block(&mut self, task: u32) {
        if self.open.map(|(t, _)| t) != Some(task) {
            self.close();
            self.open = Some((task, self.fragments.begin_task()));
        }
    }

    /// One batch of rows, the first numbered `first`.
    fn batch(&mut self, p: &mut Problems, first: usize, b: &[Batch]) {
        let (ids, durations, usages) = (&b[0], &b[1], &b[2]);
        let dense = [ids, durations, usages]
            .iter()
            .all(|c| c.present.is_empty());
        if dense && ids.strings.is_empty() {
            self.dense_batch(p, first, b);
        } else {
            self.rows(p, first, b, 0..ids.len_rows());
        }
        if let Some(gpu) = b.get(3) {
            self.gpu_used |= (0..gpu.numbers.len()).any(|k| gpu.here(k) && gpu.numbers[k] != 0.0);
        }
    }

    /// A batch without nulls and with integer ids, taken a stretch of equal rows at a time
    /// (surf_week: half its rows repeat the one before); invalid rows go the way of [`rows`].
    fn dense_batch(&mut self, p: &mut Problems, first: usize, b: &[Batch]) {
        let (ids, durations, usages) = (&b[0].integers, &b[1].integers, &b[2].numbers);
        let n = ids.len();
        let mut k = 0;
        while k < n {
            let (id, d, u) = (ids[k], durations[k], usages[k]);
            if d < 0 || !(u.is_finite() && u >= 0.0) {
                self.rows(p, first, b, k..k + 1);
                k += 1;
                continue;
            }
            let bits = u.to_bits();
            let mut j = k + 1;
            while j < n && ids[j] == id && durations[j] == d && usages[j].to_bits() == bits {
                j += 1;
            }
            match self.task_of(&b[0], k) {
                Some(task) => self.add(task, d, u, (j - k) as u32),
                None => self.orphans += (j - k) as u64,
            }
            k = j;
        }
    }

    /// Rows `rows` of a batch one by one, each checked.
    fn rows(&mut self, p: &mut Problems, first: usize, b: &[Batch], rows: Range<usize>) {
        let (ids, durations, usages) = (&b[0], &b[1], &b[2]);
        for k in rows {
            let row = first + k;
            let duration = durations.here(k).then(|| durations.integers[k]);
            let usage = usages.here(k).then(|| usages.numbers[k]);
            let valid_duration = duration.filter(|&d| d >= 0);
            let valid_usage = usage.filter(|u| u.is_finite() && *u >= 0.0);
            match self.task_of(ids, k) {
                Some(task) => {
                    if let (Some(d), Some(u)) = (valid_duration, valid_usage) {
                        self.add(task, d, u, 1);
                    }
                }
                None => self.orphans += 1,
            }
            if valid_duration.is_none() {
                bad_duration(p, row, duration);
            }
            if valid_usage.is_none() {
                bad_usage(p, row, usage);
            }
        }
    }
}

impl Batch {
    /// Rows in the batch (whichever column kind it holds).
    fn len_rows(&self) -> usize {
        self.integers
            .len()
            .max(self.numbers.len())
            .max(self.strings.len())
    }
}

fn bad_duration(p: &mut Problems, row: usize, v: Option<i64>) {
    p.error(
        format!("fragments[{row}].duration"),
        format!(
            "{FRAGMENTS} row {row}, column `duration`: {}, expected an integer >= 0 (ms)",
            v.map_or("null".into(), |v| v.to_string())
        ),
    );
}

fn bad_usage(p: &mut Problems, row: usize, v: Option<f64>) {
    p.error(
        format!("fragments[{row}].cpu_usage"),
        format!(
            "{FRAGMENTS} row {row}, column `cpu_usage`: {}, expected a finite number >= 0",
            v.map_or("null".into(), |v| v.to_string())
        ),
    );
}

/// Reads the fragments of `tasks` task rows from `f`'s opened columns: from the pages' runs
/// where [`super::fragment_runs`] can, else a batch at a time.
pub(super) fn read(
    f: &Table,
    columns: Columns<'_>,
    ids: &TaskIds<'_>,
    tasks: usize,
    p: &mut Problems,
) -> Result<Grouped, Vec<Diagnostic>> {
    match super::fragment_runs::read(f, ids, tasks) {
        Ok(grouped) => Ok(grouped),
        Err(_) => read_batches(f, columns, ids, tasks, p),
    }
}

/// Reads the fragments of `tasks` task rows from `f`'s opened columns, a batch at a time.
pub(super) fn read_batches(
    f: &Table,
    columns: Columns<'_>,
    ids: &TaskIds<'_>,
    tasks: usize,
    p: &mut Problems,
) -> Result<Grouped, Vec<Diagnostic>> {
    let mut g = Grouping::new(ids, tasks);
    let mut streams = vec![columns.id, columns.duration, columns.usage];
    streams.extend(columns.gpu);
    f.side_by_side(&mut streams, |first, b| g.batch(p, first, b))
        .map_err(|e| {
            // Which columns fail, each on its own (as many errors as columns that fail).
            let errors = f.decode_errors(&COLUMNS);
            if errors.is_empty() {
                vec![Diagnostic::error(
                    "fragments",
                    format!("{FRAGMENTS}: cannot decode the fragments: {e}"),
                )]
            } else {
                errors
            }
        })?;
    Ok(g.finish())
}

/// Each task's runs as one range: its block when it has one (no copy), else every task's
/// blocks copied in file order into a new store ([`Fragments::regroup`]).
fn gather(mut fragments: Fragments, blocks: Vec<Vec<Range<u32>>>) -> (Fragments, Vec<Range<u32>>) {
    if blocks.iter().all(|b| b.len() <= 1) {
        fragments.shrink();
        let ranges = blocks
            .into_iter()
            .map(|b| b.into_iter().next().unwrap_or(0..0))
            .collect();
        return (fragments, ranges);
    }
    let (mut out, ranges) = fragments.regroup(&blocks);
    out.shrink();
    (out, ranges)
}
