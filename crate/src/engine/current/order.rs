//! The order of used hosts under Current (SPEC 11.12, C3, C4 and C6.1): a host's key, the
//! binary insertion into the sorted list U (Kotlin's `List.binarySearch`, ties placed where the
//! search path lands), and the lower-bound search on the first filter.

use super::super::filter;
use super::super::host::{Demand, HostState};
use super::super::java::jcompare;
use crate::policy::Filter;
use std::cmp::Ordering;

/// One component of a used host's key: what `filter` scores it by (C3).
#[inline]
pub fn score(filter: &Filter, h: &HostState) -> f64 {
    match *filter {
        Filter::VCpu {
            allocation_ratio: 1.0,
        } => (h.cores as i64 - h.provisioned_cores) as f64,
        Filter::VCpu { allocation_ratio } => h.cores as f64 * allocation_ratio,
        Filter::Ram {
            allocation_ratio: 1.0,
        } => h.available_memory as f64,
        Filter::Ram { allocation_ratio } => h.memory as f64 * allocation_ratio,
        _ => 0.0,
    }
}

/// Compares the keys of `a` and `b` component by component with Java's `Double.compare`.
pub fn compare(filters: &[Filter], a: &HostState, b: &HostState) -> Ordering {
    for f in filters {
        let c = jcompare(score(f, a), score(f, b));
        if c != Ordering::Equal {
            return c;
        }
    }
    Ordering::Equal
}

/// Where Insert (C4) puts host `h` into `used`, sorted by key: the binary search's `mid` at the
/// first equal key it meets, else `lo`. With no filters, the end.
pub fn insert_position(filters: &[Filter], hosts: &[HostState], used: &[u32], h: usize) -> usize {
    if filters.is_empty() {
        return used.len();
    }
    // `hi` is exclusive here (hi = |U| - 1 + 1), so that it never goes below zero.
    let (mut lo, mut hi) = (0usize, used.len());
    while lo < hi {
        let mid = (lo + hi - 1) / 2;
        match compare(filters, &hosts[used[mid] as usize], &hosts[h]) {
            Ordering::Less => lo = mid + 1,
            Ordering::Greater => hi = mid,
            Ordering::Equal => return mid,
        }
    }
    lo
}

/// The lower-bound search of C6.1 on the first filter: the first position of `used` from which
/// the search believes every host passes `first` (exact only when `first` is monotone in U's
/// order; Current reproduces OpenDC's search as it is).
pub fn lower_bound(first: &Filter, hosts: &[HostState], used: &[u32], d: &Demand) -> usize {
    let (mut lo, mut hi) = (0usize, used.len());
    while lo < hi {
        let mid = (lo + hi) / 2;
        if filter::passes(first, &hosts[used[mid] as usize], d) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vcpu_ram() -> Vec<Filter> {
        vec![
            Filter::VCpu {
                allocation_ratio: 1.0,
            },
            Filter::Ram {
                allocation_ratio: 1.0,
            },
        ]
    }

    /// A host of 16 cores and 64 GiB with `free` cores and `mem` MiB free.
    fn host(free: i64, mem: i64) -> HostState {
        HostState {
            provisioned_cores: 16 - free,
            available_memory: mem,
            instance_count: 1,
            ..HostState::empty(16, 2000.0, 65536, 0)
        }
    }

    /// Keys are (availableCores, availableMemory) for ratio 1.0, and cores x r, memory x r
    /// otherwise; any other filter scores 0.
    #[test]
    fn keys_follow_the_filters_ratios() {
        let h = host(10, 4096);
        assert_eq!(score(&vcpu_ram()[0], &h), 10.0);
        assert_eq!(score(&vcpu_ram()[1], &h), 4096.0);
        let over = Filter::VCpu {
            allocation_ratio: 1.5,
        };
        assert_eq!(score(&over, &h), 24.0);
        let ram = Filter::Ram {
            allocation_ratio: 0.5,
        };
        assert_eq!(score(&ram, &h), 32768.0);
        assert_eq!(score(&Filter::Compute, &h), 0.0);
    }

    /// The tie placement of C4. U = [A, B, C] with equal keys: the search's first mid is
    /// floor((0 + 2) / 2) = 1, an equal key, so the new host goes in before B (position 1), not
    /// at an end. With U = [A, B] equal: mid = floor((0 + 1) / 2) = 0: before A.
    #[test]
    fn a_tie_lands_where_the_search_meets_it() {
        let hosts = vec![host(8, 1000); 4];
        let f = vcpu_ram();
        assert_eq!(insert_position(&f, &hosts, &[0, 1, 2], 3), 1);
        assert_eq!(insert_position(&f, &hosts, &[0, 1], 3), 0);
        assert_eq!(insert_position(&f, &hosts, &[], 3), 0);
        assert_eq!(insert_position(&[], &hosts, &[0, 1, 2], 3), 3);
    }

    /// Without an equal key the host goes where the order puts it: keys (2), (5), (9) and a new
    /// (6): mid 1 (5 < 6) -> lo 2; mid 2 (9 > 6) -> hi 1; lo = 2. A second component breaks a
    /// tie on the first: (5, 100) before (5, 200).
    #[test]
    fn a_new_key_goes_between_smaller_and_larger() {
        let hosts = vec![host(2, 0), host(5, 0), host(9, 0), host(6, 0), host(5, 200)];
        let f = vcpu_ram();
        assert_eq!(insert_position(&f, &hosts, &[0, 1, 2], 3), 2);
        let hosts2 = vec![host(5, 100), host(5, 300), host(5, 200)];
        assert_eq!(insert_position(&f, &hosts2, &[0, 1], 2), 1);
    }

    /// The lower bound on VCpu(1.0) finds the first host with enough free cores: free cores
    /// [1, 3, 6, 8], a task of 4 cores -> position 2.
    #[test]
    fn the_lower_bound_finds_the_first_fitting_used_host() {
        let hosts = vec![host(1, 0), host(3, 0), host(6, 0), host(8, 0)];
        let d = Demand {
            cpu_count: 4,
            ..Demand::default()
        };
        let f = vcpu_ram();
        assert_eq!(lower_bound(&f[0], &hosts, &[0, 1, 2, 3], &d), 2);
        let big = Demand {
            cpu_count: 9,
            ..Demand::default()
        };
        assert_eq!(lower_bound(&f[0], &hosts, &[0, 1, 2, 3], &big), 4);
    }
}
