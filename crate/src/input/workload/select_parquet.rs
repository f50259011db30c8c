//! An OpenDC parquet workload read through a selection ([`crate::select`]): only the tasks it
//! keeps, and their fragments, are decoded. The task rows are chosen from a scan of their
//! `submission_time` and `id` columns, the fragment rows from a scan of their `id` column, and
//! the limits are checked on what is kept before anything else is decoded; then the kept rows
//! go through the whole-file reader, so they are read, checked and grouped by its rules (its
//! messages count rows among the kept ones). Rows not kept are never checked.

use super::read_parquet::read_tables;
use crate::diag::Diagnostic;
use crate::input::parquet::{RowSet, Table};
use crate::model::Workload;
use crate::select::Selection;
use std::collections::HashSet;

const TASKS: &str = "tasks.parquet";
const FRAGMENTS: &str = "fragments.parquet";

/// The selection `s` of the workload in `tasks` and `fragments`, refused when it keeps more
/// than `max_tasks` tasks or `max_fragments` fragments.
pub fn read_parquet_selected(
    tasks: &[u8],
    fragments: &[u8],
    s: &Selection,
    max_tasks: u64,
    max_fragments: u64,
) -> Result<Workload, Vec<Diagnostic>> {
    s.check()?;
    let mut t = Table::open(tasks, TASKS).map_err(|d| vec![d])?;
    let mut f = Table::open(fragments, FRAGMENTS).map_err(|d| vec![d])?;
    let (task_rows, kept) = task_rows(&t, s)?;
    let too_many = |what: &str, n: usize, max: u64| {
        vec![Diagnostic::error(
            "selection",
            format!(
                "the selection ({}) keeps {n} {what}; the playground in the browser takes at most {max}: take a narrower window or a smaller sample",
                s.describe()
            ),
        )]
    };
    if task_rows.is_empty() {
        return Err(vec![Diagnostic::error(
            "selection",
            format!(
                "the selection ({}) keeps none of the tasks of {TASKS}",
                s.describe()
            ),
        )]);
    }
    if task_rows.len() as u64 > max_tasks {
        return Err(too_many("tasks", task_rows.len(), max_tasks));
    }
    let fragment_rows = fragment_rows(&f, &kept)?;
    if fragment_rows.len() as u64 > max_fragments {
        return Err(too_many("fragments", fragment_rows.len(), max_fragments));
    }
    t.keep_rows(task_rows);
    f.keep_rows(fragment_rows);
    read_tables(&t, &f)
}

/// The task rows `s` keeps, and their ids. A row with a null id or submission is not kept.
fn task_rows(t: &Table, s: &Selection) -> Result<(RowSet, HashSet<String>), Vec<Diagnostic>> {
    let mut submission: Vec<i64> = Vec::new();
    let found = t
        .scan_integers("submission_time", |_, values, here| {
            for (k, &v) in values.iter().enumerate() {
                submission.push(if here.is_none_or(|p| p[k]) {
                    v
                } else {
                    i64::MIN
                });
            }
        })
        .map_err(|d| vec![d])?;
    if !found {
        let missing: Result<Option<crate::input::parquet::Column<i64>>, Diagnostic> = Ok(None);
        let e = t.require_column("submission_time", "int64 ms or timestamp", missing);
        return Err(e.err().into_iter().collect());
    }
    let (mut rows, mut kept) = (RowSet::default(), HashSet::new());
    let found = t
        .scan_strings("id", |first, ids, here| {
            for (k, id) in ids.iter().enumerate() {
                let row = first + k;
                let at = submission.get(row).copied().unwrap_or(i64::MIN);
                if here.is_none_or(|p| p[k]) && at != i64::MIN && s.keeps(id, at) {
                    rows.insert(row);
                    kept.insert(id.clone());
                }
            }
        })
        .map_err(|d| vec![d])?;
    if !found {
        let missing: Result<Option<crate::input::parquet::Column<String>>, Diagnostic> = Ok(None);
        let e = t.require_column("id", "int32 or string", missing);
        return Err(e.err().into_iter().collect());
    }
    Ok((rows, kept))
}

/// The fragment rows whose id is a kept task's: matched as integers when the column is one (as
/// the whole-file reader matches them), else as text.
fn fragment_rows(f: &Table, kept: &HashSet<String>) -> Result<RowSet, Vec<Diagnostic>> {
    let ints: HashSet<i64> = kept.iter().filter_map(|id| id.parse().ok()).collect();
    let mut rows = RowSet::default();
    let as_integers = f
        .scan_integers("id", |first, ids, here| {
            for (k, id) in ids.iter().enumerate() {
                if here.is_none_or(|p| p[k]) && ints.contains(id) {
                    rows.insert(first + k);
                }
            }
        })
        .map_err(|d| vec![d])?;
    if !as_integers {
        f.scan_strings("id", |first, ids, here| {
            for (k, id) in ids.iter().enumerate() {
                if here.is_none_or(|p| p[k]) && kept.contains(id) {
                    rows.insert(first + k);
                }
            }
        })
        .map_err(|d| vec![d])?;
    }
    Ok(rows)
}
