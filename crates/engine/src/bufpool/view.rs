//! What viewers read: the pool map's cells (one per block, LRU order), the flush list
//! as cells, and one frame inspected under the pointer. Read-only.

use super::{
    BufBlock, BufPool, Lsn, SpaceId, FRAME_NONE, F_DIRTY, F_IO, F_OLD, STATE_FREE, STATE_MEMORY,
};
use serde::Serialize;

/// How a cell of the pool map is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CellKind {
    /// On the free list.
    Free,
    /// A clean page.
    Clean,
    /// A modified page, on the flush list.
    Dirty,
    /// A page of an old tablespace version, waiting to be reclaimed.
    Stale,
    /// A page being read or written.
    Io,
    /// Lent to the adaptive hash index or the lock heaps.
    Memory,
}

/// One frame as the pool map draws it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Cell {
    /// The tablespace (meaningless when free).
    pub space: SpaceId,
    /// The state.
    pub kind: CellKind,
    /// In the old sublist.
    pub old: bool,
    /// Has adaptive-hash-index entries.
    pub ahi: bool,
}

/// One frame of the pool as a viewer inspects it ([`BufPool::inspect`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameInfo {
    /// Its position in the LRU list from the head, if it is on it.
    pub lru_position: Option<u32>,
    /// Its state and tablespace, as the map draws it.
    pub cell: Cell,
    /// The page number in its tablespace, for a page.
    pub page_no: Option<u32>,
    /// `oldest_modification`: the LSN of its first unflushed change, if dirty.
    pub oldest_modification: Option<Lsn>,
    /// The tablespace version it was read under (8.0.23+ stale pages have an older
    /// one).
    pub version: u16,
}

impl BufPool {
    fn cell(&self, blk: &BufBlock) -> Cell {
        self.cell_of(blk, self.is_stale(blk))
    }

    /// [`BufPool::cell`] with the stale check already made.
    fn cell_of(&self, blk: &BufBlock, stale: bool) -> Cell {
        let kind = match blk.state() {
            STATE_FREE => CellKind::Free,
            STATE_MEMORY => CellKind::Memory,
            _ if stale => CellKind::Stale,
            _ if blk.is(F_IO) => CellKind::Io,
            _ if blk.is(F_DIRTY) => CellKind::Dirty,
            _ => CellKind::Clean,
        };
        Cell {
            space: self.block_space(blk),
            kind,
            old: blk.is(F_OLD),
            ahi: blk.ahi_index != 0,
        }
    }

    /// The flush list of `instance` as cells, oldest modification first (the end a
    /// flush-list walk starts from). `out` is cleared first.
    pub fn flush_cells(&self, instance: u16, out: &mut Vec<Cell>) {
        out.clear();
        let inst = &self.instances[usize::from(instance)];
        out.extend(
            inst.flush
                .entries
                .iter()
                .filter(|e| e.frame != FRAME_NONE)
                .map(|e| self.cell(&inst.blocks[e.frame as usize])),
        );
    }

    /// The cells of one instance for the pool map, one per block: the LRU list's pages
    /// that own a block in LRU order from the head, then the lent frames and the blocks
    /// carved into compressed frames, then the free blocks. Compressed-only pages own no
    /// block and are not drawn. `out` is cleared first.
    pub fn lru_cells(&self, instance: u16, out: &mut Vec<Cell>) {
        out.clear();
        let inst = &self.instances[usize::from(instance)];
        out.extend(
            inst.lru_iter()
                .filter(|&b| b < inst.n_blocks)
                .map(|b| self.cell(&inst.blocks[b as usize])),
        );
        let filler = |kind| Cell {
            space: SpaceId(0),
            kind,
            old: false,
            ahi: false,
        };
        out.extend(std::iter::repeat_n(
            filler(CellKind::Memory),
            (inst.memory_len + inst.buddy_len()) as usize,
        ));
        out.extend(std::iter::repeat_n(
            filler(CellKind::Free),
            inst.free_len as usize,
        ));
    }

    /// What the pool map shows at position `pos` of `instance`'s band (positions as
    /// [`BufPool::lru_cells`] lays them out: the LRU list from the head, the lent
    /// frames, the free blocks), for a viewer pointing at it. Walks the list: meant
    /// for one hover, not for every frame.
    pub fn inspect(&self, instance: u16, pos: u32) -> Option<FrameInfo> {
        let inst = self.instances.get(usize::from(instance))?;
        let block = inst
            .lru_iter()
            .filter(|&b| b < inst.n_blocks)
            .nth(pos as usize);
        let Some(b) = block else {
            let lru = inst.lru_iter().filter(|&b| b < inst.n_blocks).count() as u32;
            let lent = inst.memory_len + inst.buddy_len();
            let kind = if pos < lru + lent {
                CellKind::Memory
            } else if pos < lru + lent + inst.free_len {
                CellKind::Free
            } else {
                return None;
            };
            return Some(FrameInfo {
                lru_position: None,
                cell: Cell {
                    space: SpaceId(0),
                    kind,
                    old: false,
                    ahi: false,
                },
                page_no: None,
                oldest_modification: None,
                version: 0,
            });
        };
        let blk = &inst.blocks[b as usize];
        Some(FrameInfo {
            lru_position: Some(pos),
            cell: self.cell(blk),
            page_no: Some(blk.page_no),
            oldest_modification: inst.oldest_modification_of(b),
            version: self.spaces.slot(blk.slot).version,
        })
    }
}
