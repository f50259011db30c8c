//! A vector kept as fixed-size chunks: it grows without ever copying what it holds, so growing
//! it needs no second copy at once. In wasm that is the difference that matters: linear memory
//! never shrinks, so a `Vec` that doubles by copying leaves the high-water mark of both copies
//! (the half-year scale's 85 MB of runs could need 256 MB), and reserving an upper bound up
//! front reserves the bound (one run per parquet row: twice what SURF's traces need).

/// Elements per chunk (a power of two): 65,536 words of runs are 256 KB.
const CHUNK_BITS: u32 = 16;
const CHUNK: usize = 1 << CHUNK_BITS;
const MASK: u32 = (1 << CHUNK_BITS) - 1;

/// Whether elements are appended as chunks: in wasm, where a `Vec` grows by copying. Natively a
/// large `Vec` grows by remapping its pages (no copy, and no resident second copy), so it is
/// used as it is.
const CHUNKS: bool = cfg!(target_arch = "wasm32");

/// A vector of `Copy` elements that grows without copying what it holds: appended to chunks of
/// [`CHUNK`] elements (in wasm), made one contiguous slice by [`Chunked::shrink`] once complete,
/// so that reading, the simulator's inner loop, is a plain index. Reading works in either form.
#[derive(Debug, Clone)]
pub(super) struct Chunked<T> {
    /// The elements, once contiguous (always, natively).
    flat: Vec<T>,
    /// The elements while appended in chunks (each allocated whole, the last partly used);
    /// empty when `flat` holds them.
    chunks: Vec<Box<[T; CHUNK]>>,
    /// Elements held in `chunks`.
    chunked: usize,
    /// Whether an empty store is built in chunks ([`CHUNKS`]; tests ask for it natively).
    grow_in_chunks: bool,
    /// Chunks still to come from the room last reserved (see [`Chunked::add_chunk`]).
    reserved: usize,
}

impl<T> Default for Chunked<T> {
    fn default() -> Self {
        Chunked {
            flat: Vec::new(),
            chunks: Vec::new(),
            chunked: 0,
            grow_in_chunks: CHUNKS,
            reserved: 0,
        }
    }
}

impl<T: Copy + Default> Chunked<T> {
    /// Elements held.
    pub(super) fn len(&self) -> usize {
        self.flat.len() + self.chunked
    }

    /// Appends `x`: to the chunks while the store is being built in them.
    #[inline(always)]
    pub(super) fn push(&mut self, x: T) {
        if self.grow_in_chunks && self.flat.is_empty() {
            self.push_chunked(x);
        } else {
            self.flat.push(x);
        }
    }

    #[inline(always)]
    fn push_chunked(&mut self, x: T) {
        let chunk = self.chunked >> CHUNK_BITS;
        if chunk == self.chunks.len() {
            self.add_chunk();
        }
        self.chunks[chunk][self.chunked & MASK as usize] = x;
        self.chunked += 1;
    }

    /// Allocates the next chunk. In wasm an allocation past the end of linear memory grows the
    /// memory by what it asks for, and every grow is a call into the engine (in Node about
    /// 0.5 ms: a new `ArrayBuffer` and the garbage collector's accounting); the half-year
    /// scale's 85 MB of chunks made 340 grows. So the room of a group of chunks (a quarter of
    /// those held, at least four) is asked for at once and handed back at once: the allocator
    /// keeps it at the top of its heap (wasm memory never shrinks), where the next chunks are
    /// cut from, and what the last group leaves unused serves the contiguous copy of
    /// [`Chunked::shrink`]. No effect on what the store holds.
    #[inline(never)]
    fn add_chunk(&mut self) {
        if self.reserved == 0 {
            let group = (self.chunks.len() / 4).max(4);
            let room: Vec<T> = Vec::with_capacity(group * CHUNK);
            // Kept from being optimised away with the allocation it would otherwise pair off.
            drop(std::hint::black_box(room));
            self.reserved = group;
        }
        self.reserved -= 1;
        let chunk: Box<[T]> = vec![T::default(); CHUNK].into_boxed_slice();
        if let Ok(chunk) = chunk.try_into() {
            self.chunks.push(chunk);
        }
    }

    /// Element `k` (panics past the end, as indexing a `Vec` does).
    #[inline(always)]
    pub(super) fn get(&self, k: u32) -> T {
        if self.chunked == 0 {
            self.flat[k as usize]
        } else {
            self.get_chunked(k)
        }
    }

    #[inline(never)]
    fn get_chunked(&self, k: u32) -> T {
        assert!(
            (k as usize) < self.chunked,
            "index {k} past {}",
            self.chunked
        );
        self.chunks[(k >> CHUNK_BITS) as usize][(k & MASK) as usize]
    }

    /// The last element, to change in place.
    pub(super) fn last_mut(&mut self) -> Option<&mut T> {
        match self.chunked.checked_sub(1) {
            Some(k) => Some(&mut self.chunks[k >> CHUNK_BITS][k & MASK as usize]),
            None => self.flat.last_mut(),
        }
    }

    /// A pointer to element `k`, for a prefetch hint; `None` past the end.
    #[inline(always)]
    pub(super) fn address(&self, k: u32) -> Option<*const T> {
        if self.chunked == 0 {
            self.flat.get(k as usize).map(|x| x as *const T)
        } else {
            ((k as usize) < self.chunked)
                .then(|| &self.chunks[(k >> CHUNK_BITS) as usize][(k & MASK) as usize] as *const T)
        }
    }

    /// Appends the elements `range` of `other` (a plain copy where both are contiguous).
    pub(super) fn extend_from(&mut self, other: &Chunked<T>, range: std::ops::Range<u32>) {
        let flat_source = other.chunked == 0;
        let flat_target = !(self.grow_in_chunks && self.flat.is_empty());
        match other.flat.get(range.start as usize..range.end as usize) {
            Some(slice) if flat_source && flat_target => self.flat.extend_from_slice(slice),
            _ => {
                for k in range {
                    self.push(other.get(k));
                }
            }
        }
    }

    /// Drops the elements from `start` on.
    pub(super) fn truncate(&mut self, start: usize) {
        if self.chunked == 0 {
            self.flat.truncate(start);
        } else if start < self.chunked {
            self.chunks.truncate(start.div_ceil(CHUNK));
            self.chunked = start;
        }
    }

    /// Makes the elements one contiguous slice and gives back spare room: the chunks are
    /// copied out one by one, each freed once copied (in wasm the high-water mark is the
    /// elements once more, briefly, and the space the chunks held serves what comes next).
    pub(super) fn shrink(&mut self) {
        if self.chunked > 0 {
            let mut flat = Vec::with_capacity(self.chunked);
            let mut left = self.chunked;
            for chunk in std::mem::take(&mut self.chunks) {
                let n = left.min(CHUNK);
                flat.extend_from_slice(&chunk[..n]);
                left -= n;
            }
            self.flat = flat;
            self.chunked = 0;
        }
        self.flat.shrink_to_fit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against a `Vec` of the same pushes, across chunk boundaries: indices at and around the
    /// boundaries, truncation into and onto a boundary, and pushing after it.
    #[test]
    fn holds_what_a_vec_holds() {
        let n = 3 * CHUNK + 17;
        // Built in chunks whatever the target, as in wasm.
        let mut c = Chunked {
            grow_in_chunks: true,
            ..Chunked::default()
        };
        let mut v = Vec::new();
        for i in 0..n as u64 {
            c.push(i * 7 + 1);
            v.push(i * 7 + 1);
        }
        assert_eq!(c.len(), n);
        for k in [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK, n - 1] {
            assert_eq!(c.get(k as u32), v[k]);
            assert!(c.address(k as u32).is_some());
        }
        assert!(c.address(n as u32).is_none());
        for cut in [2 * CHUNK + 3, 2 * CHUNK, CHUNK - 1, 0] {
            c.truncate(cut);
            v.truncate(cut);
            assert_eq!(c.len(), cut);
            let all: Vec<u64> = (0..cut as u32).map(|k| c.get(k)).collect();
            assert_eq!(all, v);
            assert_eq!(c.last_mut().copied(), v.last().copied());
            c.push(99);
            v.push(99);
            assert_eq!(c.get(cut as u32), 99);
            c.truncate(cut);
            v.truncate(cut);
        }
        // Made contiguous, then grown as a `Vec`.
        for i in 0..n as u64 {
            c.push(i);
            v.push(i);
        }
        assert!(c.chunked > 0);
        c.shrink();
        assert_eq!((c.chunked, c.flat.len()), (0, n));
        c.push(5);
        v.push(5);
        assert_eq!(c.flat, v);
        assert_eq!(c.last_mut().copied(), Some(5));
    }
}
