//! A workload's fragments stored as runs: `count` consecutive fragments of one task with the
//! same duration and CPU usage are one [`Run`], mostly of 4 bytes, and each distinct (duration,
//! usage) pair is stored once ([`Piece`]). OpenDC's traces are sampled at a fixed interval with
//! long stretches of one usage (surf_week: 2.3 M fragments of 30 s, 1.17 M runs and 1,601
//! distinct usages), so this holds them in an eighth of the memory of two flat arrays and lets
//! the simulator step from one change of usage to the next without visiting each fragment.
//!
//! A task's fragments are a range of runs ([`crate::model::TaskSpec::fragments`]); a run never
//! spans two tasks. The order of fragments within a task is the input's.

use super::chunked::Chunked;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::Range;

/// One distinct fragment: its duration and CPU usage.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Piece {
    /// ms, >= 0.
    pub duration_ms: i64,
    /// MHz, the total over the task's cores.
    pub cpu_usage_mhz: f64,
}

/// `count` (>= 1) consecutive fragments of one task, each the piece `piece`. Stored in one
/// 32-bit word when the piece index fits in [`PIECE_BITS`] and the count in the rest (SURF's
/// runs: all but a few), else in three (see [`Fragments::run_at`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    /// Index into the store's pieces.
    pub piece: u32,
    pub count: u32,
}

/// The fragments of a workload: runs, and the distinct pieces they refer to.
#[derive(Debug, Clone, Default)]
pub struct Fragments {
    /// The runs encoded as words ([`encode`]), in chunks so that a store of unknown size grows
    /// without copying (see [`Chunked`]). A run's index is the position of its first word.
    words: Chunked<u32>,
    /// Runs stored.
    run_count: usize,
    /// The last run and where it begins (`None` after a truncation, which seals the store).
    last: Option<(u32, Run)>,
    pieces: Vec<Piece>,
    /// Piece index by (duration, usage bits); rebuilt on demand after [`Fragments::shrink`].
    index: HashMap<(i64, u64), u32, BuildHasherDefault<PieceHasher>>,
    /// Recently used piece indices by a hash of the piece (`u32::MAX`: none); empty until the
    /// first piece is added.
    recent: Vec<u32>,
    /// Fragments over all runs.
    total: u64,
    /// The next fragment starts a run of its own (a task begins).
    sealed: bool,
}

impl Fragments {
    /// Starts a task's fragments: the next fragment does not join the run before it. Returns
    /// where the task's runs begin.
    pub fn begin_task(&mut self) -> u32 {
        self.sealed = true;
        self.end()
    }

    /// Where the runs added so far end (a task's range is `begin_task()..end()`).
    pub fn end(&self) -> u32 {
        self.words.len() as u32
    }

    /// Appends one fragment to the current task.
    pub fn push(&mut self, duration_ms: i64, cpu_usage_mhz: f64) {
        self.push_run(duration_ms, cpu_usage_mhz, 1);
    }

    /// Appends `count` equal fragments to the current task (nothing when `count` is 0).
    pub fn push_run(&mut self, duration_ms: i64, cpu_usage_mhz: f64, count: u32) {
        if count == 0 {
            return;
        }
        let piece = match self.last {
            // The run before repeated (half of surf_week's rows): no look-up.
            Some((_, last))
                if same(self.pieces[last.piece as usize], duration_ms, cpu_usage_mhz) =>
            {
                last.piece
            }
            _ => self.piece_of(duration_ms, cpu_usage_mhz),
        };
        self.push_piece(piece, count);
    }

    /// Appends `count` fragments of piece `piece` (from [`Fragments::piece_of`]) to the current
    /// task: the run before grows when it is of the same piece and task.
    #[inline]
    pub fn push_piece(&mut self, piece: u32, count: u32) {
        if count == 0 {
            return;
        }
        self.total += u64::from(count);
        if let (false, Some((at, last))) = (self.sealed, self.last) {
            if last.piece == piece {
                if let Some(sum) = last.count.checked_add(count) {
                    let run = Run { piece, count: sum };
                    let one_word = at + 1 == self.end();
                    self.last = Some((at, run));
                    match (encode(run), self.words.last_mut()) {
                        // A one-word run that stays one (the common case): in place.
                        (Some(word), Some(w)) if one_word => *w = word,
                        // Else written again (in three words) where it began.
                        _ => {
                            self.words.truncate(at as usize);
                            self.write(run);
                        }
                    }
                    return;
                }
            }
        }
        self.sealed = false;
        let run = Run { piece, count };
        self.last = Some((self.end(), run));
        self.run_count += 1;
        self.write(run);
    }

    /// Appends the words of `run`.
    #[inline(always)]
    fn write(&mut self, run: Run) {
        match encode(run) {
            Some(word) => self.words.push(word),
            None => {
                self.words.push(0);
                self.words.push(run.piece);
                self.words.push(run.count);
            }
        }
    }

    /// The index of the piece (duration, usage), added when new: pieces are numbered in the
    /// order they are first met. A small direct-mapped table of recent pieces answers most
    /// lookups (surf_week: 1.17 M lookups of 1,601 pieces) before the hash map.
    pub fn piece_of(&mut self, duration_ms: i64, cpu_usage_mhz: f64) -> u32 {
        let bits = cpu_usage_mhz.to_bits();
        let slot = ((duration_ms as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ bits)
            .wrapping_mul(0xff51_afd7_ed55_8ccd)
            >> (64 - RECENT_BITS);
        if self.recent.is_empty() {
            self.recent = vec![u32::MAX; 1 << RECENT_BITS];
        }
        let cached = self.recent[slot as usize];
        if let Some(&p) = self.pieces.get(cached as usize) {
            if same(p, duration_ms, cpu_usage_mhz) {
                return cached;
            }
        }
        let k = self.index_of(duration_ms, cpu_usage_mhz);
        self.recent[slot as usize] = k;
        k
    }

    fn index_of(&mut self, duration_ms: i64, cpu_usage_mhz: f64) -> u32 {
        if self.index.len() < self.pieces.len() {
            self.index = (0..self.pieces.len() as u32)
                .map(|k| (key(self.pieces[k as usize]), k))
                .collect();
        }
        let next = self.pieces.len() as u32;
        let piece = Piece {
            duration_ms,
            cpu_usage_mhz,
        };
        let k = *self.index.entry(key(piece)).or_insert(next);
        if k == next {
            self.pieces.push(piece);
        }
        k
    }

    /// A store holding, for each task, its `blocks` of this store's runs one after the other
    /// (a block's last run and the next one's first joined when of the same piece), with the
    /// range of each task in it (empty for a task without blocks). Every run of this store
    /// must be in one block. The pieces keep their numbers, so a task of one block is its words
    /// copied as they are.
    pub fn regroup(&self, blocks: &[Vec<Range<u32>>]) -> (Fragments, Vec<Range<u32>>) {
        let mut out = Fragments {
            pieces: self.pieces.clone(),
            ..Fragments::default()
        };
        // Runs joined where a task's blocks meet.
        let mut joined = 0;
        let ranges = blocks
            .iter()
            .map(|task| {
                let start = out.begin_task();
                match task.as_slice() {
                    [] => return 0..0,
                    [block] => {
                        out.words.extend_from(&self.words, block.clone());
                        out.last = None;
                    }
                    several => {
                        let before = out.run_count;
                        let mut runs = 0;
                        for block in several {
                            for run in self.runs(block) {
                                out.push_piece(run.piece, run.count);
                                runs += 1;
                            }
                        }
                        joined += runs - (out.run_count - before);
                    }
                }
                start..out.end()
            })
            .collect();
        out.total = self.total;
        out.run_count = self.run_count - joined;
        (out, ranges)
    }

    /// Drops the runs from `start` on (a task being read turned out invalid).
    pub fn truncate(&mut self, start: u32) {
        if start < self.end() {
            let (mut removed, mut runs) = (0u64, 0usize);
            for r in self.runs(&(start..self.end())) {
                removed += u64::from(r.count);
                runs += 1;
            }
            self.total -= removed;
            self.run_count -= runs;
            self.words.truncate(start as usize);
        }
        self.last = None;
        self.sealed = true;
    }

    /// The pieces in the order of their numbers: for tests of readers that must number them
    /// alike.
    #[cfg(test)]
    pub fn piece_table(&self) -> Vec<(i64, u64)> {
        self.pieces.iter().map(|p| key(*p)).collect()
    }

    /// Takes `numbering`'s pieces as this store's: for runs pushed by piece index
    /// ([`Fragments::push_piece`]) with the indices `numbering` gave ([`Fragments::piece_of`]),
    /// as a reader that numbers pieces on one core and appends runs on another does. This
    /// store's own pieces, if any, are dropped.
    pub fn adopt_pieces(&mut self, numbering: Fragments) {
        self.pieces = numbering.pieces;
        self.index = numbering.index;
        self.recent = numbering.recent;
    }

    /// Frees what only adding needs (the piece index) and spare capacity: for a workload that
    /// is complete. Adding later still works.
    pub fn shrink(&mut self) {
        self.index = HashMap::default();
        self.recent = Vec::new();
        self.words.shrink();
        self.pieces.shrink_to_fit();
    }

    /// Whether some fragment may be of zero length (a piece of zero duration is stored).
    pub fn has_zero_duration(&self) -> bool {
        self.pieces.iter().any(|p| p.duration_ms == 0)
    }

    /// The runs of `range` (from a run's start to a run's end), in order.
    pub fn runs(&self, range: &Range<u32>) -> Runs<'_> {
        Runs {
            store: self,
            at: range.start,
            end: range.end.min(self.end()),
        }
    }

    /// The run that begins at `k`, and where the next one begins: runs take one word or three,
    /// so the next run is not always at `k + 1`.
    #[inline(always)]
    pub fn run_at(&self, k: u32) -> (Run, u32) {
        let word = self.words.get(k);
        if word >> PIECE_BITS != 0 {
            let run = Run {
                piece: word & PIECE_MASK,
                count: word >> PIECE_BITS,
            };
            (run, k + 1)
        } else {
            self.wide_run_at(k)
        }
    }

    /// [`Fragments::run_at`] for a run in three words (rare: kept out of the inner loop).
    #[cold]
    #[inline(never)]
    fn wide_run_at(&self, k: u32) -> (Run, u32) {
        let run = Run {
            piece: self.words.get(k + 1),
            count: self.words.get(k + 2),
        };
        (run, k + 3)
    }

    /// The run that begins at `k`.
    #[inline(always)]
    pub fn run(&self, k: u32) -> Run {
        self.run_at(k).0
    }

    /// Where run `k`'s words are in memory (`None` past the end): for a prefetch hint.
    #[inline(always)]
    pub fn run_address(&self, k: u32) -> Option<*const u32> {
        self.words.address(k)
    }

    /// The piece a run is made of.
    #[inline(always)]
    pub fn piece(&self, run: Run) -> Piece {
        self.pieces[run.piece as usize]
    }

    /// The fragments of `range` one by one, as (duration ms, CPU usage MHz).
    pub fn iter(&self, range: &Range<u32>) -> impl Iterator<Item = (i64, f64)> + '_ {
        self.runs(range).flat_map(move |r| {
            let p = self.piece(r);
            std::iter::repeat_n((p.duration_ms, p.cpu_usage_mhz), r.count as usize)
        })
    }

    /// How many fragments `range` holds.
    pub fn count(&self, range: &Range<u32>) -> u64 {
        self.runs(range).map(|r| u64::from(r.count)).sum()
    }

    /// The total duration of `range`'s fragments, ms (saturating).
    pub fn duration(&self, range: &Range<u32>) -> i64 {
        self.checked_duration(range).unwrap_or(i64::MAX)
    }

    /// The total duration of `range`'s fragments, ms; `None` past `i64::MAX`.
    pub fn checked_duration(&self, range: &Range<u32>) -> Option<i64> {
        self.runs(range).try_fold(0i64, |sum, r| {
            let d = run_duration(self.piece(r).duration_ms, r.count)?;
            sum.checked_add(d)
        })
    }

    /// Fragments over the whole store.
    pub fn len(&self) -> u64 {
        self.total
    }

    /// True when the store holds no fragment.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// Runs over the whole store.
    pub fn run_count(&self) -> usize {
        self.run_count
    }

    /// Distinct pieces.
    pub fn piece_count(&self) -> usize {
        self.pieces.len()
    }

    /// Every run in order, each as (piece, count): for comparisons.
    fn resolved(&self) -> impl Iterator<Item = (i64, u64, u32)> + '_ {
        self.runs(&(0..self.end())).map(|r| {
            let p = self.piece(r);
            (p.duration_ms, p.cpu_usage_mhz.to_bits(), r.count)
        })
    }
}

/// The runs of a range of a [`Fragments`], in order ([`Fragments::runs`]).
pub struct Runs<'a> {
    store: &'a Fragments,
    at: u32,
    end: u32,
}

impl Iterator for Runs<'_> {
    type Item = Run;

    #[inline(always)]
    fn next(&mut self) -> Option<Run> {
        if self.at >= self.end {
            return None;
        }
        let (run, next) = self.store.run_at(self.at);
        self.at = next;
        Some(run)
    }
}

/// Equal when the runs hold the same fragments in the same order (the usage bit for bit),
/// however the pieces are numbered.
impl PartialEq for Fragments {
    fn eq(&self, other: &Self) -> bool {
        self.total == other.total
            && self.run_count == other.run_count
            && self.resolved().eq(other.resolved())
    }
}

/// Bits of the slot of a piece in [`Fragments::recent`] (4,096 slots, 16 KB).
const RECENT_BITS: u32 = 12;

/// Bits of a one-word run's piece index (1 M pieces; SURF's traces have 1,601); the count takes
/// the other 12 (up to 4,095 fragments, 34 hours of 30 s samples).
const PIECE_BITS: u32 = 20;
const PIECE_MASK: u32 = (1 << PIECE_BITS) - 1;

/// A run as one word, `count << PIECE_BITS | piece`, when both fit; `None` for a run written
/// as three words: a word whose count part is 0 (never a one-word run's, as a count is >= 1),
/// then the piece and the count.
fn encode(run: Run) -> Option<u32> {
    (run.piece <= PIECE_MASK && run.count >> (32 - PIECE_BITS) == 0)
        .then_some(run.count << PIECE_BITS | run.piece)
}

/// `duration * count`, `None` past `i64::MAX`: a plain multiply when the duration is below
/// 2^31 (the product then fits in 63 bits), since in wasm a checked 64-bit multiply is a call
/// to a 128-bit one.
#[inline(always)]
fn run_duration(duration_ms: i64, count: u32) -> Option<i64> {
    if (0..1 << 31).contains(&duration_ms) {
        Some(duration_ms * i64::from(count))
    } else {
        duration_ms.checked_mul(i64::from(count))
    }
}

fn same(p: Piece, duration_ms: i64, cpu_usage_mhz: f64) -> bool {
    p.duration_ms == duration_ms && p.cpu_usage_mhz.to_bits() == cpu_usage_mhz.to_bits()
}

fn key(p: Piece) -> (i64, u64) {
    (p.duration_ms, p.cpu_usage_mhz.to_bits())
}

/// A multiply-rotate hash for the piece index (two 64-bit words), finalised so that every bit
/// of the input reaches the low bits. SipHash would be most of the cost of adding a run; what
/// it guards against (collisions chosen by an attacker) costs an input only its own loading
/// time, which the size limits bound.
#[derive(Default)]
struct PieceHasher(u64);

impl Hasher for PieceHasher {
    fn finish(&self) -> u64 {
        // The high bits folded into the low ones (murmur3's finaliser): whole-number usages
        // end in zero bits, which the multiply keeps at the bottom, where the table looks.
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^ (h >> 33)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn write_i64(&mut self, x: i64) {
        self.write_u64(x as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_tasks() -> (Fragments, Range<u32>, Range<u32>) {
        let mut f = Fragments::default();
        let a = f.begin_task();
        for (d, u) in [(30, 1.0), (30, 1.0), (30, 2.0), (10, 2.0), (10, 2.0)] {
            f.push(d, u);
        }
        let a = a..f.end();
        let b = f.begin_task();
        f.push(10, 2.0);
        f.push_run(30, 1.0, 4);
        (f.clone(), a, b..f.end())
    }

    #[test]
    fn equal_neighbours_of_one_task_share_a_run_and_tasks_never_share_one() {
        let (f, a, b) = two_tasks();
        // Task a: (30,1)x2, (30,2)x1, (10,2)x2; task b starts a run of its own although its
        // first fragment equals a's last.
        assert_eq!(f.run_count(), 5);
        assert_eq!(a, 0..3);
        assert_eq!(b, 3..5);
        assert_eq!(f.piece_count(), 3);
        // 5 fragments of a, 1 + 4 of b.
        assert_eq!(f.len(), 10);
        assert_eq!(f.count(&a), 5);
        assert_eq!(f.duration(&a), 30 + 30 + 30 + 10 + 10);
        assert_eq!(f.duration(&b), 10 + 4 * 30);
        let fragments: Vec<_> = f.iter(&a).collect();
        assert_eq!(
            fragments,
            [(30, 1.0), (30, 1.0), (30, 2.0), (10, 2.0), (10, 2.0)]
        );
    }

    /// Runs too long or of a piece index too high for one word take three: written so, grown
    /// from one word into three, read back in order beside one-word runs, and truncated.
    #[test]
    fn runs_past_one_word_take_three() {
        let mut f = Fragments::default();
        let a = f.begin_task();
        f.push_run(30, 1.0, 4095); // one word
        let one_word = f.end();
        f.push(30, 1.0); // 4,096: now three words where it began
        f.push(10, 2.0);
        f.push_run(10, 3.0, 70_000); // three words
        f.push_run(10, 3.0, 5); // merged into it
        let a = a..f.end();
        assert_eq!(one_word, 1);
        assert_eq!(a, 0..7);
        assert_eq!(f.run_count(), 3);
        let runs: Vec<(u32, u32)> = f.runs(&a).map(|r| (r.piece, r.count)).collect();
        assert_eq!(runs, [(0, 4096), (1, 1), (2, 70_005)]);
        assert_eq!(f.run_at(0).1, 3);
        assert_eq!(f.run_at(3).1, 4);
        assert_eq!(f.count(&a), 4096 + 1 + 70_005);
        assert_eq!(f.duration(&a), 4096 * 30 + 10 + 70_005 * 10);
        f.truncate(4);
        assert_eq!((f.len(), f.run_count(), f.end()), (4097, 2, 4));
        // Piece indices from 2^20 on: three words each.
        let mut g = Fragments::default();
        g.begin_task();
        let pieces = (1 << PIECE_BITS) + 3;
        for k in 0..pieces {
            g.push(k as i64, 1.0);
        }
        let all = 0..g.end();
        assert_eq!(g.end() as usize, (1 << PIECE_BITS) + 3 * 3);
        let last: Vec<(i64, u32)> = g
            .runs(&all)
            .skip((1 << PIECE_BITS) - 1)
            .map(|r| (g.piece(r).duration_ms, r.count))
            .collect();
        let want: Vec<(i64, u32)> = ((1 << PIECE_BITS) - 1..pieces as i64)
            .map(|d| (d, 1))
            .collect();
        assert_eq!(last, want);
    }

    #[test]
    fn truncating_drops_runs_and_their_fragments() {
        let (mut f, _, b) = two_tasks();
        f.truncate(b.start);
        assert_eq!(f.len(), 5);
        assert_eq!(f.run_count(), 3);
        f.begin_task();
        f.push(1, 0.5);
        assert_eq!(f.len(), 6);
    }

    #[test]
    fn usages_equal_as_numbers_but_not_bits_are_different_pieces() {
        let mut f = Fragments::default();
        f.begin_task();
        f.push(5, 0.0);
        f.push(5, -0.0);
        assert_eq!(f.run_count(), 2);
        assert_eq!(f.piece_count(), 2);
    }

    #[test]
    fn adding_after_shrinking_reuses_the_pieces() {
        let (mut f, _, _) = two_tasks();
        f.shrink();
        f.begin_task();
        f.push(30, 2.0);
        assert_eq!(f.piece_count(), 3);
        let mut g = Fragments::default();
        g.begin_task();
        g.push(30, 2.0);
        assert_ne!(f, g);
    }

    #[test]
    fn stores_built_in_another_piece_order_are_equal() {
        let mut f = Fragments::default();
        f.begin_task();
        f.push(1, 1.0);
        f.push(2, 2.0);
        let mut g = Fragments::default();
        g.begin_task();
        g.push(2, 2.0);
        g.truncate(0);
        g.begin_task();
        g.push(1, 1.0);
        g.push(2, 2.0);
        assert_eq!(f, g);
    }

    /// Regrouping interleaved blocks gives the store built task by task: the same fragments per
    /// task, runs joined where a task's blocks meet, the same counts.
    #[test]
    fn regrouped_blocks_equal_the_store_built_task_by_task() {
        // (task, fragments) stretches in file order: task 0 in three stretches, task 2 in two
        // whose meeting fragments are equal (joined), task 1 in one.
        let stretches: [(usize, &[(i64, f64)]); 6] = [
            (0, &[(30, 1.0), (30, 1.0)]),
            (1, &[(30, 2.0), (10, 2.0)]),
            (2, &[(5, 0.5), (30, 1.0)]),
            (0, &[(30, 3.0)]),
            (2, &[(30, 1.0), (7, 7.0)]),
            (0, &[(30, 3.0), (30, 1.0)]),
        ];
        let mut interleaved = Fragments::default();
        let mut blocks: Vec<Vec<Range<u32>>> = vec![Vec::new(); 4];
        for (task, fragments) in stretches {
            let start = interleaved.begin_task();
            for &(d, u) in fragments {
                interleaved.push(d, u);
            }
            blocks[task].push(start..interleaved.end());
        }
        let (regrouped, ranges) = interleaved.regroup(&blocks);
        let mut direct = Fragments::default();
        for task in 0..3 {
            direct.begin_task();
            for (t, fragments) in stretches {
                if t == task {
                    for &(d, u) in fragments {
                        direct.push(d, u);
                    }
                }
            }
        }
        assert!(regrouped == direct);
        assert_eq!(regrouped.run_count(), direct.run_count());
        // Task 0: (30,1)x2, (30,3)x2 joined across its blocks, (30,1); task 1: two; task 2:
        // (5,0.5), (30,1)x2 joined, (7,7).
        assert_eq!(regrouped.run_count(), 3 + 2 + 3);
        assert_eq!(regrouped.len(), 11);
        assert_eq!(ranges[3], 0..0);
        let task2: Vec<_> = regrouped.iter(&ranges[2]).collect();
        assert_eq!(task2, [(5, 0.5), (30, 1.0), (30, 1.0), (7, 7.0)]);
    }
}
