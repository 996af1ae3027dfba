//! The page hash (`buf_pool->page_hash`): which descriptor holds a page, per instance.
//!
//! As in InnoDB, a page's cell is its address fold (`buf_page_address_fold()`: `(space
//! << 20) + space + page_no`) hashed into a prime number of cells (`hash_calc_hash()`:
//! `(fold ^ UT_HASH_RANDOM_MASK2) % n_cells`), and a cell's chain runs through the
//! descriptors themselves (`buf_page_t::hash`), so the whole index costs one chain link
//! a descriptor and one `u32` a cell. InnoDB sizes the table at twice the pool's
//! blocks; here it has three cells for every four blocks (chains of 1.3 pages on a full
//! pool), which keeps the pool within 32 bytes a page.
//!
//! Links and cells hold a local descriptor index plus one; 0 ends a chain, so a new
//! table is zeroed memory.

use super::{BufBlock, BufPool, BufPoolInstance, HugeArray, PageId};

/// `UT_HASH_RANDOM_MASK2`.
const RANDOM_MASK2: u64 = 1_653_893_711;

/// One instance's cells.
#[derive(Clone, Debug)]
pub(super) struct PageHash {
    cells: HugeArray<u32>,
    /// `⌊(2^64 − 1) / cells⌋`, so that a cell is found with a multiplication instead
    /// of a 64-bit division (Barrett reduction), the lookup's longest step otherwise.
    reciprocal: u64,
}

impl PageHash {
    /// A table for an instance of `blocks` blocks.
    pub(super) fn new(blocks: u32) -> PageHash {
        let n = find_prime(u64::from(blocks) * 3 / 4);
        PageHash {
            cells: HugeArray::from_elem(0, n as usize),
            reciprocal: u64::MAX / n,
        }
    }

    /// Bytes the cells take.
    pub(super) fn bytes(&self) -> u64 {
        self.cells.capacity() as u64 * 4
    }

    /// Prefetches `page`'s cell (`bufpool/prefetch.rs`).
    #[inline]
    pub(super) fn prefetch_cell(&self, page: PageId) {
        prefetch_index::prefetch_index::<u32>(&*self.cells, self.cell(page));
    }

    /// `hash_calc_hash(buf_page_address_fold(space, page_no), page_hash)`.
    #[inline]
    pub(super) fn cell(&self, page: PageId) -> usize {
        let space = u64::from(page.space.0);
        let fold = (space << 20) + space + u64::from(page.page_no);
        reduce(
            fold ^ RANDOM_MASK2,
            self.cells.len() as u64,
            self.reciprocal,
        ) as usize
    }

    /// The cells, mutable, as a slice taken once.
    #[inline]
    pub(super) fn cells_mut(&mut self) -> &mut [u32] {
        &mut self.cells
    }
}

/// `x % n` given `reciprocal = ⌊(2^64 − 1) / n⌋`: the estimated quotient
/// `⌊x · reciprocal / 2^64⌋` is the true one or one less, so one subtraction corrects
/// the remainder.
#[inline]
fn reduce(x: u64, n: u64, reciprocal: u64) -> u64 {
    let q = ((u128::from(x) * u128::from(reciprocal)) >> 64) as u64;
    let r = x - q * n;
    if r >= n {
        r - n
    } else {
        r
    }
}

/// The smallest prime at least `n` (and at least 2).
fn find_prime(n: u64) -> u64 {
    let is_prime = |p: u64| {
        p >= 2
            && (2..)
                .take_while(|d| d * d <= p)
                .all(|d| !p.is_multiple_of(d))
    };
    (n.max(2)..).find(|&p| is_prime(p)).unwrap_or(2)
}

impl BufPoolInstance {
    /// Puts `local` (holding `page`) at the end of its cell's chain (`HASH_INSERT`), so
    /// that the pages read first, often the hottest, are found first.
    pub(super) fn hash_insert(&mut self, local: u32, page: PageId) {
        let c = self.page_hash.cell(page);
        // The slices once, not a checked view of the mapping a link (`HugeArray`).
        let blocks: &mut [BufBlock] = &mut self.blocks;
        let cells = self.page_hash.cells_mut();
        blocks[local as usize].hash = 0;
        let mut at = cells[c];
        if at == 0 {
            cells[c] = local + 1;
            return;
        }
        loop {
            let b = &mut blocks[at as usize - 1];
            if b.hash == 0 {
                b.hash = local + 1;
                return;
            }
            at = b.hash;
        }
    }

    /// Takes `local` (holding `page`) out of its cell's chain (`HASH_DELETE`).
    pub(super) fn hash_remove(&mut self, local: u32, page: PageId) {
        let next = self.blocks[local as usize].hash;
        self.hash_redirect(page, local, next);
        self.blocks[local as usize].hash = 0;
    }

    /// `new` takes the place of `old` in `page`'s chain (`buf_relocate()`'s
    /// `HASH_REPLACE`); `new` already carries `old`'s link.
    pub(super) fn hash_relocate(&mut self, old: u32, new: u32, page: PageId) {
        self.hash_redirect(page, old, new + 1);
        self.blocks[old as usize].hash = 0;
    }

    /// The link that points at `local` in `page`'s chain now says `to`.
    fn hash_redirect(&mut self, page: PageId, local: u32, to: u32) {
        let c = self.page_hash.cell(page);
        let mut at = self.page_hash.cells[c];
        if at == local + 1 {
            self.page_hash.cells[c] = to;
            return;
        }
        while at != 0 {
            let b = &mut self.blocks[at as usize - 1];
            if b.hash == local + 1 {
                b.hash = to;
                return;
            }
            at = b.hash;
        }
        panic!("{page:?} is not in the page hash");
    }

    /// The first descriptor of `page`'s chain (local + 1, 0 = an empty cell).
    #[inline]
    pub(super) fn hash_head(&self, page: PageId) -> u32 {
        self.page_hash.cells[self.page_hash.cell(page)]
    }

    /// The chain of `page`'s cell, as local descriptor indices.
    #[inline(always)]
    fn hash_chain(&self, page: PageId) -> impl Iterator<Item = u32> + '_ {
        let mut at = self.page_hash.cells[self.page_hash.cell(page)];
        // The slice once, not a checked view of the mapping a link (`HugeArray`).
        let blocks: &[BufBlock] = &self.blocks;
        std::iter::from_fn(move || {
            let local = at.checked_sub(1)?;
            at = blocks[local as usize].hash;
            Some(local)
        })
    }
}

impl BufPool {
    /// InnoDB: `buf_page_hash_get_low()`: the local index of the descriptor holding
    /// `page` (any version) in instance `i`. Always inlined: a replay's lookup and its
    /// prefetch are most of its instructions, and the call kept the chain's state on
    /// the stack.
    #[inline(always)]
    pub(super) fn hash_find(&self, i: usize, page: PageId) -> Option<u32> {
        let inst = &self.instances[i];
        let blocks: &[BufBlock] = &inst.blocks;
        inst.hash_chain(page).find(|&l| {
            // A chain holds only pages (`validate_hash`), so the slot names the space.
            let b = &blocks[l as usize];
            b.page_no == page.page_no && self.spaces.slot(b.slot).space == page.space
        })
    }

    /// Checks that every page is in its chain once, that no page is in the pool twice
    /// (two versions of one page would share a chain; `page_hash_get_guess` relies on
    /// it), and that the chains hold only pages.
    pub(super) fn validate_hash(&self) {
        let mut pages_of_chain = Vec::new();
        for inst in &self.instances {
            let id = inst.id;
            let mut chained = 0usize;
            for c in 0..inst.page_hash.cells.len() {
                pages_of_chain.clear();
                let mut at = inst.page_hash.cells[c];
                while at != 0 {
                    let b = &inst.blocks[at as usize - 1];
                    assert!(
                        b.holds_page(),
                        "instance {id}: the page hash holds a non-page"
                    );
                    let page = PageId {
                        space: self.block_space(b),
                        page_no: b.page_no,
                    };
                    assert_eq!(inst.page_hash.cell(page), c, "instance {id}: wrong cell");
                    assert!(
                        !pages_of_chain.contains(&page),
                        "instance {id}: {page:?} is in the pool twice"
                    );
                    pages_of_chain.push(page);
                    chained += 1;
                    at = b.hash;
                }
            }
            let pages = inst.blocks.iter().filter(|b| b.holds_page()).count();
            assert_eq!(chained, pages, "instance {id}: pages in the page hash");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{find_prime, reduce};

    #[test]
    fn primes_are_found_from_where_asked() {
        assert_eq!(find_prime(0), 2);
        assert_eq!(find_prime(24), 29);
        assert_eq!(find_prime(29), 29);
        assert_eq!(find_prime(786_432), 786_433);
    }

    #[test]
    fn the_reduction_is_the_remainder() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for n in [2u64, 3, 29, 786_433, 6_291_469, 4_294_967_311] {
            let r = u64::MAX / n;
            for y in [0, 1, n - 1, n, n + 1, u64::MAX, u64::MAX - 1, 1 << 52] {
                assert_eq!(reduce(y, n, r), y % n, "{y} mod {n}");
            }
            for _ in 0..10_000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                assert_eq!(reduce(x, n, r), x % n, "{x} mod {n}");
            }
        }
    }
}
