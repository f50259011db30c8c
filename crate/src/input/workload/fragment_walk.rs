//! The walk of one row group of `fragments.parquet` through its pages' runs: the id and duration
//! columns side by side a run at a time, each stretch where both stay the same handed on with
//! the usage column's blocks inside it, to a [`Sink`] that builds the runs
//! (`fragment_runs.rs`). The walk (pages decompressed, their runs decoded, each id's task and each
//! (duration, usage) pair's piece looked up, bit-packed usages joined into runs) and the building
//! (blocks begun, runs appended) take about the same time, so on a large file the walk runs on a
//! second core a batch ahead of the building ([`Ops`], `crate::parallel::pipeline`), which is
//! given exactly the calls a direct walk makes, in the same order: the runs are the same, pieces
//! numbered alike.

use super::parquet_fragments::TaskIds;
use crate::input::parquet::{Block, ColumnRuns, Dictionary, NotRuns, Table, Want};
use crate::model::Fragments;
use std::collections::HashMap;

/// What the walk of a row group hands on, in row order: the calls that build its runs.
pub(super) trait Sink {
    /// A stretch of `span` rows of one id and one duration, the id's task `task` (`None`: rows
    /// of no task, whose runs are not handed on); its runs follow.
    fn stretch(&mut self, task: Option<u32>, span: u32);
    /// `n` fragments of piece `piece` for the stretch's task.
    fn run(&mut self, piece: u32, n: u32);
    /// Whether the walk should stop for now (a batch of [`Ops`] is full).
    fn full(&self) -> bool {
        false
    }
}

const UNKNOWN: u32 = u32::MAX;

/// Most entries of a direct table of pieces by (duration index, usage index): 4 MB.
const DIRECT_PIECES: usize = 1 << 20;

/// The piece of each (duration, usage) dictionary pair, interned on first use (so numbered in
/// the order rows meet them, as the general reader numbers them).
enum PieceCache {
    /// Indexed by `duration * usages + usage`.
    Direct {
        usages: usize,
        pieces: Vec<u32>,
    },
    Hashed(HashMap<(u32, u32), u32>),
}

impl PieceCache {
    fn new(durations: usize, usages: usize) -> Self {
        match durations.checked_mul(usages) {
            Some(n) if n <= DIRECT_PIECES => PieceCache::Direct {
                usages,
                pieces: vec![UNKNOWN; n],
            },
            _ => PieceCache::Hashed(HashMap::new()),
        }
    }

    /// The piece of (durations[d], usages[u]); [`NotRuns`] for a value the general reader
    /// reports (a negative duration, a usage that is not a finite number >= 0).
    #[inline]
    fn piece(
        &mut self,
        fragments: &mut Fragments,
        (durations, usages): (&[i64], &[f64]),
        (d, u): (u32, u32),
    ) -> Result<u32, NotRuns> {
        let slot = match self {
            PieceCache::Direct { usages: n, pieces } => &mut pieces[d as usize * *n + u as usize],
            PieceCache::Hashed(map) => map.entry((d, u)).or_insert(UNKNOWN),
        };
        if *slot == UNKNOWN {
            let (duration, usage) = (durations[d as usize], usages[u as usize]);
            if duration < 0 || !(usage.is_finite() && usage >= 0.0) {
                return Err(NotRuns(format!("the fragment ({duration}, {usage})")));
            }
            *slot = fragments.piece_of(duration, usage);
        }
        Ok(*slot)
    }
}

impl PieceCache {
    /// Hands `sink` one fragment per usage index of `values` (bit-packed values, which change
    /// every row or two), all of duration index `d`: equal neighbours are joined without a
    /// branch per value (a run starts where the piece differs from the one before), then each
    /// run is handed on.
    fn push_values<S: Sink>(
        &mut self,
        fragments: &mut Fragments,
        dictionaries: (&[i64], &[f64]),
        (d, values): (u32, &[u32]),
        sink: &mut S,
    ) -> Result<(), NotRuns> {
        let known = match self {
            PieceCache::Direct { usages, pieces } => {
                let row = &pieces[d as usize * *usages..][..*usages];
                values.iter().all(|&u| row[u as usize] != UNKNOWN)
            }
            PieceCache::Hashed(_) => false,
        };
        if !known {
            for &u in values {
                self.piece(fragments, dictionaries, (d, u))?;
            }
        }
        let PieceCache::Direct { usages, pieces } = self else {
            for &u in values {
                let piece = self.piece(fragments, dictionaries, (d, u))?;
                sink.run(piece, 1);
            }
            return Ok(());
        };
        let row = &pieces[d as usize * *usages..][..*usages];
        let mut run_piece = [0u32; BLOCK + 1];
        let mut run_start = [0u32; BLOCK + 1];
        let mut runs = 0;
        let mut current = UNKNOWN;
        for (k, &u) in values.iter().take(BLOCK).enumerate() {
            let piece = row[u as usize];
            // Written to the next free slot; kept only where a run starts.
            run_piece[runs] = piece;
            run_start[runs] = k as u32;
            runs += usize::from(piece != current);
            current = piece;
        }
        run_start[runs] = values.len().min(BLOCK) as u32;
        for r in 0..runs {
            sink.run(run_piece[r], run_start[r + 1] - run_start[r]);
        }
        Ok(())
    }
}

/// Most values of a block of bit-packed values ([`crate::input::parquet::Block::Values`]).
const BLOCK: usize = crate::input::parquet::UNPACKED;

/// A task of [`TaskIds`] per id dictionary entry, looked up on first use.
struct TaskCache {
    tasks: Vec<u32>,
}

const ORPHAN: u32 = u32::MAX - 1;

impl TaskCache {
    #[inline]
    fn task(&mut self, ids: &TaskIds<'_>, dictionary: &[i64], index: u32) -> Option<u32> {
        let slot = &mut self.tasks[index as usize];
        if *slot == UNKNOWN {
            *slot = ids
                .by_integer
                .get(&dictionary[index as usize])
                .copied()
                .unwrap_or(ORPHAN);
        }
        (*slot != ORPHAN).then_some(*slot)
    }
}

/// The current run of one column: its dictionary index and rows left.
struct Cursor {
    column: ColumnRuns,
    index: u32,
    left: u32,
}

impl Cursor {
    fn open(f: &Table, name: &str, want: Want, group: usize) -> Result<Cursor, NotRuns> {
        Ok(Cursor {
            column: f.column_runs(name, want, group)?,
            index: 0,
            left: 0,
        })
    }

    /// Moves to the next run when this one is used up; false at the end of the column.
    #[inline]
    fn refill(&mut self) -> Result<bool, NotRuns> {
        if self.left == 0 {
            match self.column.next_run()? {
                Some((index, count)) => (self.index, self.left) = (index, count),
                None => return Ok(false),
            }
        }
        Ok(true)
    }
}

/// The integer entries of a dictionary, or why not.
pub(super) fn integers(d: &Dictionary) -> Result<&[i64], NotRuns> {
    match d {
        Dictionary::Integers(v) => Ok(v),
        Dictionary::Numbers(_) => Err(NotRuns("numbers where integers were wanted".into())),
    }
}

/// The number entries of a dictionary, or why not.
pub(super) fn numbers(d: &Dictionary) -> Result<&[f64], NotRuns> {
    match d {
        Dictionary::Numbers(v) => Ok(v),
        Dictionary::Integers(_) => Err(NotRuns("integers where numbers were wanted".into())),
    }
}

/// One row group's walk, resumable: [`Walk::walk`] goes on where it stopped. Pieces are numbered
/// in `numbering` (a store used for its pieces only, kept from one row group to the next), in the
/// order rows meet them (rows of no task included, whose values are checked).
pub(super) struct Walk<'w> {
    ids: &'w TaskIds<'w>,
    numbering: &'w mut Fragments,
    durations: Vec<i64>,
    usages: Vec<f64>,
    pieces: PieceCache,
    /// The stretch's task.
    task: Option<u32>,
    id: Cursor,
    duration: Cursor,
    usage: ColumnRuns,
    id_values: Vec<i64>,
    task_cache: TaskCache,
    /// The stretch being walked: its rows, and those handed on.
    span: u32,
    done: u32,
    group: usize,
    group_rows: u64,
}

impl<'w> Walk<'w> {
    /// Opens row group `group`'s columns ([`NotRuns`] when one cannot be read as runs).
    pub(super) fn open(
        f: &Table,
        group: usize,
        ids: &'w TaskIds<'w>,
        numbering: &'w mut Fragments,
    ) -> Result<Self, NotRuns> {
        let id = Cursor::open(f, "id", Want::Id, group)?;
        let duration = Cursor::open(f, "duration", Want::Integer, group)?;
        let usage = f.column_runs("cpu_usage", Want::Number, group)?;
        let id_values = integers(&id.column.dictionary)?.to_vec();
        let durations = integers(&duration.column.dictionary)?.to_vec();
        let usages = numbers(&usage.dictionary)?.to_vec();
        Ok(Walk {
            ids,
            numbering,
            pieces: PieceCache::new(durations.len(), usages.len()),
            durations,
            usages,
            task: None,
            task_cache: TaskCache {
                tasks: vec![UNKNOWN; id_values.len()],
            },
            id_values,
            id,
            duration,
            usage,
            span: 0,
            done: 0,
            group,
            group_rows: f.group_rows(group),
        })
    }

    /// Hands rows on to `sink` until the row group ends (false) or the sink is full (true).
    pub(super) fn walk<S: Sink>(&mut self, sink: &mut S) -> Result<bool, NotRuns> {
        loop {
            if self.done == self.span && !self.next_stretch(sink)? {
                return Ok(false);
            }
            if sink.full() {
                return Ok(true);
            }
            let Some(block) = self.usage.next_block(self.span - self.done)? else {
                return Err(NotRuns("the columns end at different rows".into()));
            };
            let dictionaries = (self.durations.as_slice(), self.usages.as_slice());
            let (d, numbering) = (self.duration.index, &mut *self.numbering);
            match (block, self.task) {
                (Block::Run(u, n), task) => {
                    let piece = self.pieces.piece(numbering, dictionaries, (d, u))?;
                    if task.is_some() {
                        sink.run(piece, n);
                    }
                    self.done += n;
                }
                (Block::Values(values), Some(_)) => {
                    self.pieces
                        .push_values(numbering, dictionaries, (d, values), sink)?;
                    self.done += values.len() as u32;
                }
                (Block::Values(values), None) => {
                    for &u in values {
                        self.pieces.piece(numbering, dictionaries, (d, u))?;
                    }
                    self.done += values.len() as u32;
                }
            }
        }
    }

    /// Ends the stretch walked and begins the next (false at the row group's end, checked).
    #[inline]
    fn next_stretch<S: Sink>(&mut self, sink: &mut S) -> Result<bool, NotRuns> {
        self.id.left -= self.span;
        self.duration.left -= self.span;
        let more = [self.id.refill()?, self.duration.refill()?];
        match more {
            [true, true] => {}
            [false, false] => return self.check_end().map(|()| false),
            _ => return Err(NotRuns("the columns end at different rows".into())),
        }
        self.span = self.id.left.min(self.duration.left);
        self.done = 0;
        self.task = self
            .task_cache
            .task(self.ids, &self.id_values, self.id.index);
        sink.stretch(self.task, self.span);
        Ok(true)
    }

    /// At the end of the id and duration columns: the usage column ends too, and the row
    /// group held the rows its metadata says.
    fn check_end(&mut self) -> Result<(), NotRuns> {
        self.span = 0;
        self.done = 0;
        if self.usage.next_block(1)?.is_some() {
            return Err(NotRuns("the columns end at different rows".into()));
        }
        if self.id.column.rows != self.group_rows {
            return Err(NotRuns(format!(
                "row group {} holds {} of its {} rows",
                self.group, self.id.column.rows, self.group_rows
            )));
        }
        Ok(())
    }
}

/// The most operations of a batch of [`Ops`] (768 KB): each batch handed from one core to the
/// other costs a wake-up of the thread waiting for it, and batches of 8,192 made the half-year
/// scale's 21 M runs 2,600 hand-overs, slower than one core (316 against 304 ms); 65,536 make
/// it 330 (224 ms).
pub(super) const OPS_PER_BATCH: usize = 65536;

/// The most operations one step of a walk adds: a stretch and a block's runs.
const OPS_PER_STEP: usize = BLOCK + 1;

/// A walk's calls to a [`Sink`], recorded in order for another sink to be given later
/// ([`Ops::replay`]): how a batch crosses from the core that walks to the one that builds.
#[derive(Debug)]
pub(super) struct Ops {
    ops: Vec<Op>,
    /// The most operations of this batch ([`OPS_PER_BATCH`]; the tests ask for a few).
    pub(super) limit: usize,
}

impl Default for Ops {
    fn default() -> Self {
        Ops {
            ops: Vec::new(),
            limit: OPS_PER_BATCH,
        }
    }
}

#[derive(Debug, Clone, Copy)]
enum Op {
    /// [`Sink::stretch`], the task `ORPHAN` for `None`.
    Stretch {
        task: u32,
        span: u32,
    },
    Run {
        piece: u32,
        n: u32,
    },
}

impl Ops {
    /// Empties the batch for the next one.
    pub(super) fn clear(&mut self) {
        self.ops.clear();
    }

    /// Makes the recorded calls on `sink`, in order.
    pub(super) fn replay<S: Sink>(&self, sink: &mut S) {
        for op in &self.ops {
            match *op {
                Op::Stretch { task, span } => sink.stretch((task != ORPHAN).then_some(task), span),
                Op::Run { piece, n } => sink.run(piece, n),
            }
        }
    }
}

impl Sink for Ops {
    fn stretch(&mut self, task: Option<u32>, span: u32) {
        let task = task.unwrap_or(ORPHAN);
        self.ops.push(Op::Stretch { task, span });
    }

    fn run(&mut self, piece: u32, n: u32) {
        self.ops.push(Op::Run { piece, n });
    }

    /// Full when one more step could take the batch past its limit.
    fn full(&self) -> bool {
        self.ops.len() + OPS_PER_STEP > self.limit.max(OPS_PER_STEP)
    }
}
