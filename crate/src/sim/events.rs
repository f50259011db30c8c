//! The queue of the running tasks' next changes (fragment boundaries and completions), taken in
//! time order and, at one instant, in placement order (SPEC 6.1, phase 1).

use std::cmp::Reverse;
use std::collections::hash_map::{Entry, HashMap};
use std::collections::BinaryHeap;
use std::hash::{BuildHasher, Hasher};

/// A running task's next change: (time, placement sequence, task, generation). Events are
/// taken in the order of the tuple: by time, then in placement order (SPEC 6.1, phase 1).
pub(super) type Event = (i64, u64, u32, u32);

/// The queue of [`Event`]s, grouped by time: a binary heap of the distinct times to come, and
/// the events of each time in a list of their own. Running tasks' changes fall on shared
/// instants (surf_week: 2.3 M events on 0.5 M instants), so the heap, the costly part, is
/// smaller and touched once per instant instead of once per event; queuing an event is a hash
/// look-up and a push. The list of the time being taken (`front`) is sorted once, and events
/// are taken in exactly the order of a binary heap of the tuples.
#[derive(Debug, Clone, Default)]
pub(super) struct EventQueue {
    /// The times to come that have a list, each once.
    times: BinaryHeap<Reverse<i64>>,
    /// The list of each time in `times`: an index into `lists`.
    slots: HashMap<i64, u32, TimeHash>,
    lists: Vec<Vec<Event>>,
    /// Indices of `lists` not in use (empty, with their capacity kept).
    free: Vec<u32>,
    /// The events of the time being taken (`front_time`), in descending order: the next one
    /// is at the end.
    front: Vec<Event>,
    front_time: Option<i64>,
    /// The time last queued to and its list (an instant queues its tasks' next changes one
    /// after the other, often to one time): no look-up for a repeat.
    recent: Option<(i64, u32)>,
}

impl EventQueue {
    /// Queues an event (the run never queues one before the time being taken; one that is
    /// would still come out in order, through `front`).
    #[inline]
    pub fn push(&mut self, e: Event) {
        match self.recent {
            Some((t, index)) if t == e.0 => self.lists[index as usize].push(e),
            _ => self.push_new_time(e),
        }
    }

    /// [`EventQueue::push`] to a time other than the last one queued to.
    #[inline(never)]
    fn push_new_time(&mut self, e: Event) {
        if self.front_time.is_some_and(|t| e.0 <= t) {
            // At the time being taken (a zero-length fragment, a start right now): every list
            // is of a later time, so `front` keeps these in order.
            let at = self.front.partition_point(|x| *x > e);
            self.front.insert(at, e);
            return;
        }
        let index = match self.slots.entry(e.0) {
            Entry::Occupied(slot) => *slot.get(),
            Entry::Vacant(slot) => {
                let index = match self.free.pop() {
                    Some(i) => i,
                    None => {
                        self.lists.push(Vec::new());
                        (self.lists.len() - 1) as u32
                    }
                };
                slot.insert(index);
                self.times.push(Reverse(e.0));
                index
            }
        };
        self.recent = Some((e.0, index));
        self.lists[index as usize].push(e);
    }

    /// The time of the next event.
    #[inline]
    pub fn peek_time(&self) -> Option<i64> {
        match self.front.last() {
            Some(e) => Some(e.0),
            None => self.times.peek().map(|t| t.0),
        }
    }

    /// Takes the next event.
    #[inline]
    pub fn pop(&mut self) -> Option<Event> {
        if self.front.is_empty() {
            self.refill();
        }
        self.front.pop()
    }

    /// Makes the list of the earliest time the front (the empty front's vector becomes a free
    /// list, so no allocation is lost).
    fn refill(&mut self) {
        let Some(Reverse(t)) = self.times.pop() else {
            return;
        };
        let Some(index) = self.slots.remove(&t) else {
            return;
        };
        if self.recent.is_some_and(|(_, i)| i == index) {
            self.recent = None;
        }
        std::mem::swap(&mut self.front, &mut self.lists[index as usize]);
        self.free.push(index);
        self.front_time = Some(t);
        // Events mostly arrive in order (a cycle places in sequence order, and each instant
        // queues its tasks' next changes in the order it takes them).
        if self.front.is_sorted() {
            self.front.reverse();
        } else {
            self.front.sort_unstable_by(|a, b| b.cmp(a));
        }
    }
}

/// A hasher for times (multiply and fold: times are often multiples of 1000).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct TimeHash;

impl BuildHasher for TimeHash {
    type Hasher = TimeHasher;
    fn build_hasher(&self) -> TimeHasher {
        TimeHasher(0)
    }
}

/// See [`TimeHash`].
pub(super) struct TimeHasher(u64);

impl Hasher for TimeHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    #[inline]
    fn write_u64(&mut self, x: u64) {
        let h = (self.0 ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = h ^ (h >> 29);
    }
    #[inline]
    fn write_i64(&mut self, x: i64) {
        self.write_u64(x as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The queue against a sorted multiset of the same tuples (a binary heap of them takes
    /// them in the same order), with pushes, pops and removals interleaved as a run makes them
    /// (never before the time last taken), ties and far times included.
    #[test]
    fn takes_events_in_tuple_order() {
        use std::collections::BTreeMap;
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        fn take(m: &mut BTreeMap<Event, usize>, e: Event) {
            let n = m.get_mut(&e).unwrap();
            *n -= 1;
            if *n == 0 {
                m.remove(&e);
            }
        }
        for round in 0..200 {
            let mut q = EventQueue::default();
            let mut model: BTreeMap<Event, usize> = BTreeMap::new();
            let mut queued: Vec<Event> = Vec::new();
            let mut now = (next() % 1000) as i64 - 500;
            for step in 0..2000u64 {
                match next() % 8 {
                    0..=4 => {
                        let delta = match next() % 6 {
                            0 => 0,
                            1 => (next() % 4) as i64,
                            2 => 30_000,
                            3 => (next() % 100_000) as i64,
                            4 => (next() % (1 << 40)) as i64,
                            _ => (next() % 300) as i64 * 1000,
                        };
                        let e = (now + delta, next() % 50, (next() % 7) as u32, round);
                        q.push(e);
                        *model.entry(e).or_default() += 1;
                        queued.push(e);
                    }
                    _ => {
                        let first = model.keys().next().copied();
                        assert_eq!(q.peek_time(), first.map(|e| e.0), "step {step}");
                        let got = q.pop();
                        assert_eq!(got, first, "step {step}");
                        if let Some(e) = got {
                            take(&mut model, e);
                            now = e.0;
                        }
                    }
                }
                let next = model.keys().next().map(|e| e.0);
                assert_eq!(q.peek_time(), next, "step {step}");
            }
            while let Some(&e) = model.keys().next() {
                assert_eq!(q.pop(), Some(e));
                take(&mut model, e);
            }
            assert!(q.pop().is_none() && q.peek_time().is_none());
        }
    }
}
