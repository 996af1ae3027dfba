//! The blocks sessions last found pages in, tried before the page hash.
//!
//! InnoDB's B-tree search hands `buf_page_get_gen()` a `guess` block: the index's root
//! guess for the root (`btr_cur_search_to_nth_level()`), the block a record was hashed
//! on for a leaf (`btr_search_guess_on_hash()`). The buffer pool checks that the block
//! still holds the page and then skips the page-hash search. Here one small
//! direct-mapped table keeps a guess for any page a statement fixed: a descent's root
//! and internal pages are always found in it, hot leaves mostly.
//!
//! A guess only saves the search: [`crate::bufpool::BufPool::page_hash_get_guess`]
//! answers exactly as the page hash would, so nothing simulated depends on this table.

use crate::bufpool::{BlockGuess, PageId, PageLook, SpaceId};

/// Guesses kept: 2^GUESS_BITS entries of 16 bytes, 16 KiB: small enough to stay in the
/// first-level cache, where a descent's root and internal pages and the hot leaves keep
/// their entries (a bigger table costs a cache miss of its own on a cold leaf, as much
/// as the page-hash cell it saves).
const GUESS_BITS: u32 = 10;

/// One entry: the page it is for and where it was last found.
#[derive(Clone, Copy, Debug)]
struct Entry {
    page_no: u32,
    space: SpaceId,
    guess: BlockGuess,
}

/// A direct-mapped table of [`BlockGuess`]es by page.
#[derive(Clone, Debug)]
pub(super) struct BlockGuesses {
    entries: Vec<Entry>,
}

impl BlockGuesses {
    pub(super) fn new() -> BlockGuesses {
        let empty = Entry {
            page_no: u32::MAX,
            space: SpaceId(u32::MAX),
            guess: BlockGuess::NONE,
        };
        BlockGuesses {
            entries: vec![empty; 1 << GUESS_BITS],
        }
    }

    /// The entry `page` maps to (a multiplicative hash of its id).
    #[inline]
    fn slot(page: PageId) -> usize {
        let id = (u64::from(page.space.0) << 32) | u64::from(page.page_no);
        (id.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - GUESS_BITS)) as usize
    }

    /// Where `page` was last found, if this table remembers it.
    #[inline]
    pub(super) fn get(&self, page: PageId) -> BlockGuess {
        let e = &self.entries[Self::slot(page)];
        if e.page_no == page.page_no && e.space == page.space {
            e.guess
        } else {
            BlockGuess::NONE
        }
    }

    /// Remembers where a lookup of `page` found it (nothing on a miss).
    #[inline]
    pub(super) fn note(&mut self, page: PageId, look: &PageLook) {
        let guess = look.guess();
        if guess != BlockGuess::NONE {
            self.entries[Self::slot(page)] = Entry {
                page_no: page.page_no,
                space: page.space,
                guess,
            };
        }
    }
}
