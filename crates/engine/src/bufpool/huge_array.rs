//! The memory of the pool's two big arrays, the descriptors (`buf_pool->blocks`) and
//! the page hash's cells, as InnoDB's `buf_chunk_init()` asks for its chunks with
//! `os_mem_alloc_large()` (large pages when the server runs with `--large-pages`): a
//! 128 GB pool's lookups miss the TLB on almost every access with 4 KB pages, and far
//! less often with 2 MB ones.
//!
//! [`HugeArray`] is a vector of plain elements. On Linux its memory is an anonymous
//! mapping (`memmap2`), aligned to 2 MB and advised `MADV_HUGEPAGE`, so that the kernel
//! backs it with transparent huge pages where `transparent_hugepage` is `madvise` or
//! `always`; the elements are read through `bytemuck`'s checked casts, so that no code
//! of ours is `unsafe`. Elsewhere (the app's wasm32 build) it is a plain `Vec`. The
//! mapping, as a `Vec`'s reserve, is touched only where elements are written, so room
//! reserved for every block costs nothing until the blocks are used.

#[cfg(target_os = "linux")]
pub(super) use mapped::HugeArray;
#[cfg(not(target_os = "linux"))]
pub(super) use plain::HugeArray;

/// What a [`HugeArray`] can hold: on Linux, elements that are any bytes
/// (`bytemuck::Pod`: `repr(C)`, no padding, every bit pattern valid).
#[cfg(target_os = "linux")]
pub(super) trait HugeElem: bytemuck::Pod + std::fmt::Debug {}
#[cfg(target_os = "linux")]
impl<T: bytemuck::Pod + std::fmt::Debug> HugeElem for T {}

/// What a [`HugeArray`] can hold: elsewhere, any plain `Copy` value.
#[cfg(not(target_os = "linux"))]
pub(super) trait HugeElem: Copy + std::fmt::Debug {}
#[cfg(not(target_os = "linux"))]
impl<T: Copy + std::fmt::Debug> HugeElem for T {}

#[cfg(target_os = "linux")]
mod mapped {
    use super::HugeElem;
    use memmap2::{Advice, MmapMut, MmapOptions};
    use std::marker::PhantomData;
    use std::ops::{Deref, DerefMut};

    /// A transparent huge page's size on x86-64 and most arm64 kernels.
    const HUGE_PAGE: usize = 2 << 20;

    /// A vector of `T` in an anonymous mapping advised for huge pages.
    pub(in crate::bufpool) struct HugeArray<T: HugeElem> {
        map: MmapMut,
        /// Where the elements start in `map`: the first 2 MB boundary of a large one.
        start: usize,
        len: usize,
        capacity: usize,
        elem: PhantomData<T>,
    }

    impl<T: HugeElem> HugeArray<T> {
        /// Room for `capacity` elements, none made yet.
        pub(in crate::bufpool) fn with_capacity(capacity: usize) -> Self {
            let bytes = capacity * size_of::<T>();
            // A small array stays in 4 KB pages: a huge page's first touch zeroes 2 MB.
            let huge = bytes >= HUGE_PAGE;
            let slack = if huge { HUGE_PAGE } else { 0 };
            let map = MmapOptions::new()
                .len(bytes + slack)
                .map_anon()
                .expect("an anonymous mapping for the buffer pool");
            let start = if huge {
                // Best effort: without THP the kernel refuses, and 4 KB pages serve.
                let _ = map.advise(Advice::HugePage);
                map.as_ptr().align_offset(HUGE_PAGE)
            } else {
                0
            };
            HugeArray {
                map,
                start,
                len: 0,
                capacity,
                elem: PhantomData,
            }
        }

        /// `len` copies of `value`; zeroes are the fresh mapping's own, written by none.
        pub(in crate::bufpool) fn from_elem(value: T, len: usize) -> Self {
            let mut a = Self::with_capacity(len);
            if bytemuck::bytes_of(&value).iter().all(|&b| b == 0) {
                a.len = len;
            } else {
                a.resize(len, value);
            }
            a
        }

        pub(in crate::bufpool) fn capacity(&self) -> usize {
            self.capacity
        }

        /// Makes the array `len` long, new elements `value`.
        pub(in crate::bufpool) fn resize(&mut self, len: usize, value: T) {
            if len > self.capacity {
                self.grow(len);
            }
            let old = self.len;
            self.len = len;
            if len > old {
                self[old..].fill(value);
            }
        }

        pub(in crate::bufpool) fn push(&mut self, value: T) {
            if self.len == self.capacity {
                self.grow(self.len + 1);
            }
            self.len += 1;
            let last = self.len - 1;
            self[last] = value;
        }

        /// Moves the elements to a mapping of at least `needed` (doubling, as a `Vec`).
        fn grow(&mut self, needed: usize) {
            let mut bigger = Self::with_capacity(needed.max(self.capacity * 2).max(4));
            bigger.len = self.len;
            bigger.copy_from_slice(self);
            *self = bigger;
        }
    }

    impl<T: HugeElem> Deref for HugeArray<T> {
        type Target = [T];
        #[inline]
        fn deref(&self) -> &[T] {
            let bytes = self.len * size_of::<T>();
            bytemuck::cast_slice(&self.map[self.start..self.start + bytes])
        }
    }

    impl<T: HugeElem> DerefMut for HugeArray<T> {
        #[inline]
        fn deref_mut(&mut self) -> &mut [T] {
            let bytes = self.len * size_of::<T>();
            bytemuck::cast_slice_mut(&mut self.map[self.start..self.start + bytes])
        }
    }

    impl<T: HugeElem> Clone for HugeArray<T> {
        fn clone(&self) -> Self {
            let mut a = Self::with_capacity(self.capacity);
            a.len = self.len;
            a.copy_from_slice(self);
            a
        }
    }

    impl<T: HugeElem> std::fmt::Debug for HugeArray<T> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_list().entries(self.iter()).finish()
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod plain {
    use super::HugeElem;
    use std::ops::{Deref, DerefMut};

    /// A plain vector where the mapping is not Linux's.
    #[derive(Clone, Debug)]
    pub(in crate::bufpool) struct HugeArray<T: HugeElem>(Vec<T>);

    impl<T: HugeElem> HugeArray<T> {
        pub(in crate::bufpool) fn with_capacity(capacity: usize) -> Self {
            HugeArray(Vec::with_capacity(capacity))
        }
        pub(in crate::bufpool) fn from_elem(value: T, len: usize) -> Self {
            HugeArray(vec![value; len])
        }
        pub(in crate::bufpool) fn capacity(&self) -> usize {
            self.0.capacity()
        }
        pub(in crate::bufpool) fn resize(&mut self, len: usize, value: T) {
            self.0.resize(len, value);
        }
        pub(in crate::bufpool) fn push(&mut self, value: T) {
            self.0.push(value);
        }
    }

    impl<T: HugeElem> Deref for HugeArray<T> {
        type Target = [T];
        #[inline]
        fn deref(&self) -> &[T] {
            &self.0
        }
    }

    impl<T: HugeElem> DerefMut for HugeArray<T> {
        #[inline]
        fn deref_mut(&mut self) -> &mut [T] {
            &mut self.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::HugeArray;

    #[test]
    fn it_holds_what_a_vec_would() {
        for capacity in [0usize, 3, 1 << 20] {
            let mut a = HugeArray::<u32>::with_capacity(capacity);
            let mut v = Vec::new();
            for x in 0..capacity as u32 + 10 {
                a.push(x.wrapping_mul(2_654_435_761));
                v.push(x.wrapping_mul(2_654_435_761));
            }
            a.resize(v.len() + 5, 7);
            v.resize(v.len() + 5, 7);
            a.resize(v.len() + 5, 0);
            v.resize(v.len() + 5, 0);
            assert_eq!(&a[..], &v[..]);
            assert!(a.capacity() >= v.len());
            assert_eq!(&a.clone()[..], &v[..]);
        }
        let z = HugeArray::from_elem(0u32, 1 << 21);
        assert!(z.iter().all(|&c| c == 0));
        assert_eq!(&HugeArray::from_elem(9u8, 5)[..], &[9; 5]);
    }
}
