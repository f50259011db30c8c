//! `fragments.parquet` read from its pages' runs ([`crate::input::parquet::ColumnRuns`]): the
//! id, duration and usage columns are walked side by side a run at a time
//! ([`super::fragment_walk`], on a second core for a large row group), each stretch where all
//! three stay the same becoming one run ([`Fragments::push_piece`], here), with the task of each
//! id and the piece of each (duration, usage) pair looked up once per dictionary entry instead
//! of once per row. The runs are exactly the general reader's ([`super::parquet_fragments`]);
//! its piece table too, except that this path also numbers the pieces of rows that name no task
//! (it checks their values as the general reader does), so a piece first met in such a row takes
//! its number earlier, and one met only there is an extra entry (tests compare the stores by
//! value; a zero-length piece only there sends a run to the event loop instead of the replay,
//! the same result; walked directly or a batch ahead, the tables are equal). Any file this path
//! does not take (strings as ids, nulls, a PLAIN page, a value the general reader would report)
//! is read the general way, which reports what is wrong.

use super::fragment_walk::{Ops, Sink, Walk, OPS_PER_BATCH};
use super::parquet_fragments::{Grouped, Grouping, TaskIds};
use crate::input::parquet::{NotRuns, Table};
use crate::model::Fragments;

/// Reads the fragments of `tasks` task rows from `f`'s runs, or says why it cannot (then
/// nothing has been reported, and the general reader takes the file).
pub(super) fn read(f: &Table, ids: &TaskIds<'_>, tasks: usize) -> Result<Grouped, NotRuns> {
    let two_cores = crate::parallel::workers() > 1;
    read_with(
        f,
        ids,
        tasks,
        &|rows| match rows >= PIPELINE_MIN_ROWS && two_cores {
            true => Walking::Beside {
                batch: OPS_PER_BATCH,
            },
            false => Walking::Direct,
        },
    )
}

/// How a row group is walked into the runs.
#[derive(Debug, Clone, Copy)]
enum Walking {
    /// Straight into the runs.
    Direct,
    /// A batch of at most `batch` recorded calls ahead of the building: on a second core when
    /// there is one (else the two take turns, as the tests may ask).
    Beside { batch: usize },
}

/// [`read`], each row group walked as `walking` says for its rows.
fn read_with(
    f: &Table,
    ids: &TaskIds<'_>,
    tasks: usize,
    walking: &dyn Fn(u64) -> Walking,
) -> Result<Grouped, NotRuns> {
    // The parquet crate reads the pages: inside the panic guard, as every read of it.
    let read = || read_groups(f, ids, tasks, walking).map_err(|e| e.0);
    crate::input::parquet::guarded(read).map_err(NotRuns)
}

fn read_groups(
    f: &Table,
    ids: &TaskIds<'_>,
    tasks: usize,
    walking: &dyn Fn(u64) -> Walking,
) -> Result<Grouped, NotRuns> {
    if f.has("gpu_usage") {
        return Err(NotRuns("a gpu_usage column".into()));
    }
    let mut g = Grouping::new(ids, tasks);
    let mut numbering = Fragments::default();
    for group in 0..f.row_groups() {
        let how = walking(f.group_rows(group));
        read_group(f, group, &mut g, &mut numbering, how)?;
    }
    g.fragments.adopt_pieces(numbering);
    // No `gpu_usage` column: `gpu_used` stays false.
    Ok(g.finish())
}

/// One row group's rows, added to `g` (pieces numbered in `numbering`), walked as `how` says.
fn read_group(
    f: &Table,
    group: usize,
    g: &mut Grouping<'_>,
    numbering: &mut Fragments,
    how: Walking,
) -> Result<(), NotRuns> {
    let mut walk = Walk::open(f, group, g.ids, numbering)?;
    let mut building = Building { g };
    let Walking::Beside { batch } = how else {
        return walk.walk(&mut building).map(|_| ());
    };
    let (mut ended, mut failed) = (false, None);
    crate::parallel::pipeline(
        |ops: &mut Ops| {
            if ended || failed.is_some() {
                return false;
            }
            ops.clear();
            ops.limit = batch;
            match walk.walk(ops) {
                Ok(more) => ended = !more,
                Err(e) => failed = Some(e),
            }
            failed.is_none()
        },
        |ops| ops.replay(&mut building),
    );
    failed.map_or(Ok(()), Err)
}

/// The fewest rows of a row group walked on a second core (below, the thread costs about what
/// it saves).
const PIPELINE_MIN_ROWS: u64 = 1 << 18;

/// The runs being built from a walk: each stretch of a task a block of it, each run appended
/// (the walk hands on no run of a stretch without a task).
struct Building<'g, 'a> {
    g: &'g mut Grouping<'a>,
}

impl Sink for Building<'_, '_> {
    #[inline]
    fn stretch(&mut self, task: Option<u32>, span: u32) {
        match task {
            Some(task) => self.g.start_block(task),
            None => self.g.orphans += u64::from(span),
        }
    }

    #[inline]
    fn run(&mut self, piece: u32, n: u32) {
        self.g.fragments.push_piece(piece, n);
    }
}

#[cfg(test)]
mod tests {
    use super::super::parquet_fragments::{read_batches, Columns};
    use super::*;
    use crate::input::problems::Problems;
    use parquet::data_type::{DoubleType, FloatType, Int32Type, Int64Type};
    use parquet::file::properties::{WriterProperties, WriterVersion};
    use parquet::file::writer::SerializedFileWriter;
    use parquet::schema::parser::parse_message_type;
    use std::collections::HashMap;
    use std::sync::Arc;

    /// A fragments file's rows: (id, duration, usage), each `None` for a null.
    type Rows = Vec<(Option<i64>, Option<i64>, Option<f64>)>;

    /// How a test file is written.
    #[derive(Clone, Copy, Debug)]
    struct Layout {
        page_rows: usize,
        group_rows: usize,
        dictionary: bool,
        /// A dictionary page limit in bytes: past it the writer goes on in PLAIN.
        dictionary_bytes: usize,
        v2: bool,
        optional: bool,
        /// INT64 ids and FLOAT usages instead of OpenDC's INT32 and DOUBLE.
        wide_ids_narrow_usage: bool,
    }

    const OPENDC: Layout = Layout {
        page_rows: 20_000,
        group_rows: 1 << 20,
        dictionary: true,
        dictionary_bytes: 1 << 20,
        v2: false,
        optional: false,
        wide_ids_narrow_usage: false,
    };

    fn write(rows: &Rows, l: Layout) -> Vec<u8> {
        let rep = if l.optional { "OPTIONAL" } else { "REQUIRED" };
        let (id_type, usage_type) = if l.wide_ids_narrow_usage {
            ("INT64", "FLOAT")
        } else {
            ("INT32", "DOUBLE")
        };
        let schema = format!(
            "message m {{ {rep} {id_type} id; {rep} INT64 duration; {rep} {usage_type} cpu_usage; }}"
        );
        let props = WriterProperties::builder()
            .set_compression(parquet::basic::Compression::SNAPPY)
            .set_data_page_row_count_limit(l.page_rows)
            .set_write_batch_size(l.page_rows.min(1024))
            .set_max_row_group_row_count(Some(l.group_rows))
            .set_dictionary_enabled(l.dictionary)
            .set_dictionary_page_size_limit(l.dictionary_bytes)
            .set_writer_version(if l.v2 {
                WriterVersion::PARQUET_2_0
            } else {
                WriterVersion::PARQUET_1_0
            })
            .build();
        let schema = Arc::new(parse_message_type(&schema).unwrap());
        let mut w = SerializedFileWriter::new(Vec::new(), schema, Arc::new(props)).unwrap();
        for chunk in rows.chunks(l.group_rows) {
            let mut g = w.next_row_group().unwrap();
            let defs: Vec<Vec<i16>> = (0..3)
                .map(|c| {
                    chunk
                        .iter()
                        .map(|r| match c {
                            0 => r.0.is_some(),
                            1 => r.1.is_some(),
                            _ => r.2.is_some(),
                        } as i16)
                        .collect()
                })
                .collect();
            let def = |c: usize| l.optional.then_some(defs[c].as_slice());
            let mut col = g.next_column().unwrap().unwrap();
            let ids: Vec<i64> = chunk.iter().filter_map(|r| r.0).collect();
            if l.wide_ids_narrow_usage {
                col.typed::<Int64Type>()
                    .write_batch(&ids, def(0), None)
                    .unwrap();
            } else {
                let ids: Vec<i32> = ids.iter().map(|&x| x as i32).collect();
                col.typed::<Int32Type>()
                    .write_batch(&ids, def(0), None)
                    .unwrap();
            }
            col.close().unwrap();
            let mut col = g.next_column().unwrap().unwrap();
            let durations: Vec<i64> = chunk.iter().filter_map(|r| r.1).collect();
            col.typed::<Int64Type>()
                .write_batch(&durations, def(1), None)
                .unwrap();
            col.close().unwrap();
            let mut col = g.next_column().unwrap().unwrap();
            let usages: Vec<f64> = chunk.iter().filter_map(|r| r.2).collect();
            if l.wide_ids_narrow_usage {
                let usages: Vec<f32> = usages.iter().map(|&x| x as f32).collect();
                col.typed::<FloatType>()
                    .write_batch(&usages, def(2), None)
                    .unwrap();
            } else {
                col.typed::<DoubleType>()
                    .write_batch(&usages, def(2), None)
                    .unwrap();
            }
            col.close().unwrap();
            g.close().unwrap();
        }
        w.into_inner().unwrap()
    }

    /// Seeded rows: stretches of one task (sometimes one seen before, so its rows come in
    /// several stretches; sometimes an id of no task), usages from a small set with repeats,
    /// durations mostly 30 s.
    fn rows(seed: u64, n: usize, usages: usize) -> Rows {
        let mut state = seed | 1;
        let mut next = move |m: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % m
        };
        let mut out = Vec::with_capacity(n);
        let mut task = 0i64;
        while out.len() < n {
            task = match next(10) {
                0 => next(task as u64 + 1) as i64,
                1 => 10_000 + next(5) as i64,
                _ => task + 1,
            };
            let mut usage = next(usages as u64) as f64 * 12.5;
            for _ in 0..1 + next(400) {
                if next(3) == 0 {
                    usage = next(usages as u64) as f64 * 12.5;
                }
                let duration = if next(20) == 0 {
                    next(4) as i64 * 1000
                } else {
                    30_000
                };
                out.push((Some(task), Some(duration), Some(usage)));
            }
        }
        out.truncate(n);
        out
    }

    /// Both readers on `bytes`, for tasks with ids 0..tasks: the fast one's answer (or why it
    /// declined) and the general one's.
    fn both(bytes: &[u8], tasks: i64) -> (Result<Grouped, NotRuns>, Grouped) {
        let f = Table::open(bytes, "fragments.parquet").unwrap();
        let index = HashMap::new();
        let ids = TaskIds {
            by_text: &index,
            by_integer: (0..tasks).map(|t| (t, t as u32)).collect(),
        };
        let fast = read_with(&f, &ids, tasks as usize, &|_| Walking::Direct);
        // Walked a batch ahead (on a second core where there is one), whatever the size, in
        // batches cut at every step (mid-stretch too) and in the reader's own: the same store,
        // pieces numbered alike, or declined alike.
        for batch in [1, OPS_PER_BATCH] {
            let beside = read_with(&f, &ids, tasks as usize, &|_| Walking::Beside { batch });
            match (&fast, &beside) {
                (Ok(a), Ok(b)) => {
                    assert_same(a, b, "walked a batch ahead");
                    assert_eq!(a.fragments.piece_table(), b.fragments.piece_table());
                }
                (Err(_), Err(_)) => {}
                _ => panic!("one way declined the file, the other read it"),
            }
        }
        let mut errors = Vec::new();
        let columns = Columns::open(&f, &mut errors, false).unwrap();
        let mut p = Problems::new();
        let slow = read_batches(&f, columns, &ids, tasks as usize, &mut p).unwrap();
        assert!(!p.has_errors());
        (fast, slow)
    }

    fn assert_same(fast: &Grouped, slow: &Grouped, what: &str) {
        assert!(fast.fragments == slow.fragments, "{what}: fragments differ");
        assert_eq!(
            fast.fragments.run_count(),
            slow.fragments.run_count(),
            "{what}"
        );
        assert_eq!(fast.ranges, slow.ranges, "{what}");
        for r in &fast.ranges {
            assert!(fast.fragments.iter(r).eq(slow.fragments.iter(r)), "{what}");
        }
        assert_eq!(fast.orphans, slow.orphans, "{what}");
        assert_eq!(fast.gpu_used, slow.gpu_used, "{what}");
    }

    /// The fast reader gives exactly the general reader's fragments on seeded files written in
    /// every layout it takes: pages of a few rows to many (RLE and bit-packed runs, bit widths
    /// from 1 to 12), several row groups (a dictionary each), format v2 pages, optional columns
    /// without nulls, INT64 ids and FLOAT usages.
    #[test]
    fn runs_give_the_general_readers_fragments() {
        let layouts = [
            OPENDC,
            Layout {
                page_rows: 7,
                ..OPENDC
            },
            Layout {
                page_rows: 1000,
                group_rows: 3_001,
                ..OPENDC
            },
            Layout {
                v2: true,
                page_rows: 333,
                ..OPENDC
            },
            Layout {
                optional: true,
                page_rows: 999,
                ..OPENDC
            },
            Layout {
                optional: true,
                v2: true,
                ..OPENDC
            },
            Layout {
                wide_ids_narrow_usage: true,
                ..OPENDC
            },
        ];
        let mut compared = 0;
        for seed in 1..4 {
            for usages in [1, 2, 40, 3000] {
                let rows = rows(seed, 20_000, usages);
                for l in layouts {
                    let (fast, slow) = both(&write(&rows, l), 3_000);
                    let fast = fast.unwrap_or_else(|e| panic!("{l:?} declined: {e:?}"));
                    assert_same(
                        &fast,
                        &slow,
                        &format!("seed {seed}, {usages} usages, {l:?}"),
                    );
                    assert!(slow.orphans > 0 && slow.fragments.run_count() > 100);
                    compared += 1;
                }
            }
        }
        assert_eq!(compared, 3 * 4 * 7);
    }

    /// Files the fast reader does not take are left to the general reader: PLAIN pages (no
    /// dictionary, or after the dictionary outgrew its limit), nulls, a negative duration.
    #[test]
    fn other_files_are_declined() {
        let good = rows(7, 5_000, 50);
        let plain = Layout {
            dictionary: false,
            ..OPENDC
        };
        let outgrown = Layout {
            dictionary_bytes: 64,
            ..OPENDC
        };
        for (l, why) in [(plain, "no dictionary page first"), (outgrown, "in PLAIN")] {
            let (fast, _) = both(&write(&good, l), 3_000);
            let e = fast.err().expect("declined");
            assert!(e.0.contains(why), "{l:?}: {e:?}");
        }
        let fast_only = |rows: &Rows, l: Layout| {
            let bytes = write(rows, l);
            let table = Table::open(&bytes, "fragments.parquet").unwrap();
            let index = HashMap::new();
            let ids = TaskIds {
                by_text: &index,
                by_integer: HashMap::new(),
            };
            let direct = read_with(&table, &ids, 0, &|_| Walking::Direct);
            let beside = read_with(&table, &ids, 0, &|_| Walking::Beside { batch: 1 });
            let why = direct.err().expect("declined");
            // Declined walked a batch ahead too, for the same reason (an error midway).
            assert_eq!(beside.err(), Some(why.clone()));
            why
        };
        let mut nulls = good.clone();
        nulls[4_321].2 = None;
        let optional = Layout {
            optional: true,
            ..OPENDC
        };
        assert_eq!(fast_only(&nulls, optional), NotRuns("a null".into()));
        let mut negative = good.clone();
        negative[17].1 = Some(-5);
        assert!(fast_only(&negative, OPENDC).0.contains("(-5, "));
    }

    /// OpenDC's own files: surf_week and every sample workload with integer ids give the
    /// general reader's fragments (surf_week from its runs).
    #[test]
    fn opendc_files_give_the_general_readers_fragments() {
        let root = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../shared/opendc-samples/workloads"
        );
        let mut taken = 0;
        let mut dirs: Vec<_> = std::fs::read_dir(root)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        dirs.sort();
        for dir in dirs {
            let Ok(bytes) = std::fs::read(dir.join("fragments.parquet")) else {
                continue;
            };
            let (fast, slow) = both(&bytes, 1 << 20);
            if let Ok(fast) = fast {
                assert_same(&fast, &slow, &dir.display().to_string());
                taken += 1;
            }
        }
        assert!(taken >= 3, "{taken} sample workloads read from their runs");
    }
}
