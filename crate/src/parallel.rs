//! Independent runs side by side: natively on the machine's cores (scoped threads taking the
//! next index from a shared counter), in wasm one after the other. Whatever ran where, the
//! results are handed on in index order, so a report is the same bytes either way.

use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// How many runs go side by side: the cores the machine offers natively, one in wasm (a
/// module instance has one thread; the page has its workers for that).
pub fn workers() -> usize {
    if cfg!(target_arch = "wasm32") {
        1
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }
}

/// `side()` and `main()` at once, `side` on a second thread, when the machine has more than one
/// core; one after the other (`side` first) in wasm and on one core. Either way the answers are
/// the same: for work beside a run whose result does not depend on where it is done.
pub fn beside<A: Send, B>(side: impl FnOnce() -> A + Send, main: impl FnOnce() -> B) -> (A, B) {
    #[cfg(not(target_arch = "wasm32"))]
    if workers() > 1 {
        return std::thread::scope(|scope| {
            let handle = scope.spawn(side);
            let b = main();
            let a = handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (a, b)
        });
    }
    (side(), main())
}

/// `f(0), ..., f(n - 1)` in order. With `beside`, the second half is made on a second core
/// ([`beside`]), each half written in place into one list: no second copy of either (the
/// half-year scale's 26 MB of task records joined from two lists raised its peak memory by as
/// much).
pub fn map_in_halves<T: Send>(n: usize, beside: bool, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    if !beside {
        return (0..n).map(f).collect();
    }
    let mut out: Vec<T> = Vec::with_capacity(n);
    let (first, second) = out.spare_capacity_mut()[..n].split_at_mut(n / 2);
    let fill = |slots: &mut [std::mem::MaybeUninit<T>], from: usize| {
        for (k, slot) in slots.iter_mut().enumerate() {
            slot.write(f(from + k));
        }
    };
    let half = first.len();
    self::beside(|| fill(second, half), || fill(first, 0));
    // SAFETY: the two fills above wrote every one of the first `n` slots (a panic in either
    // would have left `beside` before this line, the values written only leaked).
    unsafe { out.set_len(n) };
    out
}

/// A two-stage pipeline: `produce` fills a buffer and answers whether it did (false: nothing
/// more), `consume` takes each filled buffer in the order they were filled. Natively on more
/// than one core `produce` runs on a second thread, a few buffers ahead, and each buffer comes
/// back to it once consumed (no allocation per buffer); in wasm and on one core the two take
/// turns. Either way `consume` sees the same buffers in the same order.
pub fn pipeline<T: Send + Default>(
    mut produce: impl FnMut(&mut T) -> bool + Send,
    mut consume: impl FnMut(&T),
) {
    #[cfg(not(target_arch = "wasm32"))]
    if workers() > 1 {
        /// Buffers filled ahead of the consumer.
        const AHEAD: usize = 2;
        let (full, filled) = mpsc::sync_channel::<T>(AHEAD);
        let (back, empty) = mpsc::sync_channel::<T>(AHEAD + 1);
        for _ in 0..=AHEAD {
            let _ = back.send(T::default());
        }
        std::thread::scope(|scope| {
            scope.spawn(move || {
                while let Ok(mut buffer) = empty.recv() {
                    if !produce(&mut buffer) || full.send(buffer).is_err() {
                        break;
                    }
                }
            });
            // Owned here, so that a panic in `consume` drops both ends and the producer, blocked
            // on either, stops: the scope can then join it and pass the panic on.
            let (filled, back) = (filled, back);
            while let Ok(buffer) = filled.recv() {
                consume(&buffer);
                let _ = back.send(buffer);
            }
        });
        return;
    }
    let mut buffer = T::default();
    while produce(&mut buffer) {
        consume(&buffer);
    }
}

/// The results of runs `0..total` made in parts elsewhere (the page's two workers), each part
/// `(from, results of from..from + len)`, given in any order: joined in run order, or an error
/// naming the runs when the parts do not hold every run once.
pub fn join_parts<T>(
    mut parts: Vec<(usize, Vec<T>)>,
    total: usize,
) -> Result<Vec<T>, crate::diag::Diagnostic> {
    parts.sort_by_key(|p| p.0);
    let mut joined = Vec::with_capacity(total);
    for (from, results) in parts {
        if from != joined.len() || from + results.len() > total {
            return Err(crate::diag::Diagnostic::error(
                "parts",
                format!(
                    "the parts must hold runs 0..{total} once each, in pieces that follow one \
                     another; a part holds runs {from}..{} where run {} was expected next",
                    from + results.len(),
                    joined.len()
                ),
            ));
        }
        joined.extend(results);
    }
    if joined.len() != total {
        return Err(crate::diag::Diagnostic::error(
            "parts",
            format!("the parts hold runs 0..{} of the {total}", joined.len()),
        ));
    }
    Ok(joined)
}

/// The most fragments of a workload that the page copies into its second worker to share a
/// portfolio's or a sweep's runs (surf_week has 2.3 M; the half-year scale's 41.8 M would be held twice).
pub const SHARED_MAX_FRAGMENTS: u64 = 10_000_000;
/// How a portfolio's or a sweep's runs are shared between the page's two workers: the ranges
/// each makes (`[from, to)`), the first in the worker that assembles the report.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Split {
    pub parts: Vec<(usize, usize)>,
}

impl Split {
    /// `runs` runs of a workload of `fragments` fragments: halves (the first the larger) when
    /// there are two runs or more and the workload is small enough to hold twice
    /// ([`SHARED_MAX_FRAGMENTS`]); otherwise all in one.
    pub fn of(runs: usize, fragments: u64) -> Split {
        let parts = if runs >= 2 && fragments <= SHARED_MAX_FRAGMENTS {
            let half = runs.div_ceil(2);
            vec![(0, half), (half, runs)]
        } else {
            vec![(0, runs)]
        };
        Split { parts }
    }
}

/// Works out `work(i)` for every `i` in `0..n` on up to `workers` threads and hands each result
/// to `take(i, result)` on the calling thread, in order of `i`. When `take` answers false, no
/// further index is started and the results after it are dropped: the indices before it have
/// all been taken, as one after the other would have.
///
/// `progress` gets the fraction done (0 to 1): within each run (through the sink `work` is
/// given) when one thread does them all, after each run taken otherwise.
pub fn run_in_order<R: Send>(
    n: usize,
    workers: usize,
    work: impl Fn(usize, &mut dyn FnMut(f64)) -> R + Sync,
    progress: &mut dyn FnMut(f64),
    mut take: impl FnMut(usize, R) -> bool,
) {
    let total = n.max(1) as f64;
    let workers = workers.min(n);
    if workers <= 1 {
        for i in 0..n {
            let result = work(i, &mut |f| progress((i as f64 + f) / total));
            progress((i + 1) as f64 / total);
            if !take(i, result) {
                return;
            }
        }
        return;
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (sender, results) = mpsc::channel();
        for _ in 0..workers {
            let (sender, work, next, stop) = (sender.clone(), &work, &next, &stop);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n || sender.send((i, work(i, &mut |_| {}))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        // Results that came before their turn.
        let mut early = BTreeMap::new();
        let mut due = 0;
        for (i, result) in results {
            early.insert(i, result);
            while let Some(result) = early.remove(&due) {
                due += 1;
                progress(due as f64 / total);
                if !take(due - 1, result) {
                    // Dropping the receiver ends the threads at their next send.
                    stop.store(true, Ordering::Relaxed);
                    return;
                }
            }
        }
    });
}

#[cfg(test)]
mod tests {
    /// The pipeline hands every buffer to the consumer in the order it was filled, and a panic
    /// in either stage comes back to the caller instead of leaving the other stage waiting.
    #[test]
    fn a_pipeline_keeps_the_order_and_passes_a_panic_on() {
        let mut next = 0u32;
        let mut seen = Vec::new();
        super::pipeline(
            |b: &mut Vec<u32>| {
                b.clear();
                b.extend(next..next + 3);
                next += 3;
                next <= 300
            },
            |b| seen.extend_from_slice(b),
        );
        assert_eq!(seen, (0..300).collect::<Vec<u32>>());
        for panicking_consumer in [true, false] {
            let (done, finished) = std::sync::mpsc::channel();
            std::thread::spawn(move || {
                let answer = std::panic::catch_unwind(|| {
                    let mut made = 0;
                    super::pipeline(
                        |_: &mut Vec<u32>| {
                            made += 1;
                            assert!(panicking_consumer || made < 5, "producer fails");
                            true
                        },
                        |_| assert!(!panicking_consumer, "consumer fails"),
                    );
                });
                let _ = done.send(answer.is_err());
            });
            let panicked = finished.recv_timeout(std::time::Duration::from_secs(20));
            assert_eq!(panicked, Ok(true), "consumer panics: {panicking_consumer}");
        }
    }

    use super::*;

    #[test]
    fn runs_are_shared_only_when_it_pays_and_the_workload_fits_twice() {
        assert_eq!(Split::of(5, 2_300_000).parts, vec![(0, 3), (3, 5)]);
        assert_eq!(
            Split::of(2, SHARED_MAX_FRAGMENTS).parts,
            vec![(0, 1), (1, 2)]
        );
        assert_eq!(Split::of(1, 10).parts, vec![(0, 1)]);
        assert_eq!(Split::of(6, 41_800_000).parts, vec![(0, 6)]);
    }

    /// Every index once, in order, whatever the number of threads; progress ends at 1.
    #[test]
    fn hands_results_on_in_order() {
        for workers in [1, 2, 3, 8] {
            let mut seen = Vec::new();
            let mut last = 0.0;
            run_in_order(
                25,
                workers,
                |i, _| {
                    // Uneven work, so that threads finish out of order.
                    let spins = (25 - i) * 2_000;
                    std::hint::black_box(
                        (0..spins).fold(i as u64, |a, b| a.wrapping_mul(31).wrapping_add(b as u64)),
                    );
                    i * i
                },
                &mut |f| last = f,
                |i, r| {
                    seen.push((i, r));
                    true
                },
            );
            let expected: Vec<(usize, usize)> = (0..25).map(|i| (i, i * i)).collect();
            assert_eq!(seen, expected, "{workers} threads");
            assert_eq!(last, 1.0);
        }
    }

    /// A refusal at index 6 takes exactly indices 0 to 6, as a loop that stops there would.
    #[test]
    fn stops_after_a_refusal() {
        for workers in [1, 2, 4] {
            let mut seen = Vec::new();
            run_in_order(
                40,
                workers,
                |i, _| i,
                &mut |_| {},
                |i, _| {
                    seen.push(i);
                    i != 6
                },
            );
            assert_eq!(seen, (0..=6).collect::<Vec<_>>(), "{workers} threads");
        }
    }
}
