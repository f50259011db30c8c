//! A workload's fragments stored as runs: `count` consecutive fragments of one task with the
//! same duration and CPU usage are one [`Run`] of 8 bytes, and each distinct (duration, usage)
//! pair is stored once ([`Piece`]). OpenDC's traces are sampled at a fixed interval with long
//! stretches of one usage (surf_week: 2.3 M fragments of 30 s, 1.17 M runs and 1,601 distinct
//! usages), so this holds them in a quarter of the memory of two flat arrays and lets the
//! simulator step from one change of usage to the next without visiting each fragment.
//!
//! A task's fragments are a range of runs ([`crate::model::TaskSpec::fragments`]); a run never
//! spans two tasks. The order of fragments within a task is the input's.

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

/// `count` (>= 1) consecutive fragments of one task, each the piece `piece`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    /// Index into the store's pieces.
    pub piece: u32,
    pub count: u32,
}

/// The fragments of a workload: runs, and the distinct pieces they refer to.
#[derive(Debug, Clone, Default)]
pub struct Fragments {
    runs: Vec<Run>,
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
        self.runs.len() as u32
    }

    /// Where the runs added so far end (a task's range is `begin_task()..end()`).
    pub fn end(&self) -> u32 {
        self.runs.len() as u32
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
        self.total += u64::from(count);
        if !self.sealed {
            if let Some(last) = self.runs.last_mut() {
                let p = self.pieces[last.piece as usize];
                if same(p, duration_ms, cpu_usage_mhz) {
                    if let Some(sum) = last.count.checked_add(count) {
                        last.count = sum;
                        return;
                    }
                }
            }
        }
        self.sealed = false;
        let piece = self.intern(duration_ms, cpu_usage_mhz);
        self.runs.push(Run { piece, count });
    }

    /// The index of the piece (duration, usage), added when new. A small direct-mapped table of
    /// recent pieces answers most lookups (surf_week: 1.17 M lookups of 1,601 pieces) before
    /// the hash map.
    fn intern(&mut self, duration_ms: i64, cpu_usage_mhz: f64) -> u32 {
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

    /// Makes room for `runs` more runs at once (as many as can be had: nothing when the memory
    /// is not there), so that a reader that knows an upper bound never grows the store by
    /// copying it: in wasm a copy needs the old and the new store at once, and linear memory
    /// never shrinks. [`Fragments::shrink`] gives the rest back.
    pub fn reserve(&mut self, runs: usize) {
        let _ = self.runs.try_reserve_exact(runs);
    }

    /// Drops the runs from `start` on (a task being read turned out invalid).
    pub fn truncate(&mut self, start: u32) {
        let start = start as usize;
        if start < self.runs.len() {
            let removed: u64 = self.runs[start..].iter().map(|r| u64::from(r.count)).sum();
            self.total -= removed;
            self.runs.truncate(start);
        }
        self.sealed = true;
    }

    /// Frees what only adding needs (the piece index) and spare capacity: for a workload that
    /// is complete. Adding later still works.
    pub fn shrink(&mut self) {
        self.index = HashMap::default();
        self.recent = Vec::new();
        self.runs.shrink_to_fit();
        self.pieces.shrink_to_fit();
    }

    /// The runs of `range`.
    pub fn runs(&self, range: &Range<u32>) -> &[Run] {
        &self.runs[range.start as usize..range.end as usize]
    }

    /// Run `k`.
    #[inline(always)]
    pub fn run(&self, k: u32) -> Run {
        self.runs[k as usize]
    }

    /// The piece a run is made of.
    #[inline(always)]
    pub fn piece(&self, run: Run) -> Piece {
        self.pieces[run.piece as usize]
    }

    /// The fragments of `range` one by one, as (duration ms, CPU usage MHz).
    pub fn iter(&self, range: &Range<u32>) -> impl Iterator<Item = (i64, f64)> + '_ {
        self.runs(range).iter().flat_map(move |&r| {
            let p = self.piece(r);
            std::iter::repeat_n((p.duration_ms, p.cpu_usage_mhz), r.count as usize)
        })
    }

    /// How many fragments `range` holds.
    pub fn count(&self, range: &Range<u32>) -> u64 {
        self.runs(range).iter().map(|r| u64::from(r.count)).sum()
    }

    /// The total duration of `range`'s fragments, ms (saturating).
    pub fn duration(&self, range: &Range<u32>) -> i64 {
        self.checked_duration(range).unwrap_or(i64::MAX)
    }

    /// The total duration of `range`'s fragments, ms; `None` past `i64::MAX`.
    pub fn checked_duration(&self, range: &Range<u32>) -> Option<i64> {
        self.runs(range).iter().try_fold(0i64, |sum, &r| {
            let d = self.piece(r).duration_ms.checked_mul(i64::from(r.count))?;
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
        self.runs.len()
    }

    /// Distinct pieces.
    pub fn piece_count(&self) -> usize {
        self.pieces.len()
    }

    /// Every run in order, each as (piece, count): for comparisons.
    fn resolved(&self) -> impl Iterator<Item = (i64, u64, u32)> + '_ {
        self.runs.iter().map(|&r| {
            let p = self.piece(r);
            (p.duration_ms, p.cpu_usage_mhz.to_bits(), r.count)
        })
    }
}

/// Equal when the runs hold the same fragments in the same order (the usage bit for bit),
/// however the pieces are numbered.
impl PartialEq for Fragments {
    fn eq(&self, other: &Self) -> bool {
        self.total == other.total
            && self.runs.len() == other.runs.len()
            && self.resolved().eq(other.resolved())
    }
}

/// Bits of the slot of a piece in [`Fragments::recent`] (4,096 slots, 16 KB).
const RECENT_BITS: u32 = 12;

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
}
