//! The geometry of a file's allocation map, as pure functions of the map: ext3's
//! block map (12 direct pointers, then single, double and triple indirect blocks,
//! `ext3_block_to_path()`), ext4's and XFS's extent trees (records in the inode, then
//! tree blocks), how many metadata blocks freeing touches, shrinking a map, and laying
//! out new runs of blocks under fragmentation.

use super::{
    AllocMap, FileSystemKind, FreeWork, Inode, SimRng, BLOCK_SIZE, EXT3_DIRECT_BLOCKS,
    EXT3_PTRS_PER_BLOCK, EXT4_EXTENTS_PER_BLOCK, EXT4_INODE_EXTENTS, FRAGMENT_RUN_MAX_BLOCKS,
    XFS_INODE_EXTENTS, XFS_RECORDS_PER_BLOCK,
};
use crate::size::ByteSize;

pub(super) fn blocks_for(bytes: u64) -> u64 {
    bytes / BLOCK_SIZE + u64::from(!bytes.is_multiple_of(BLOCK_SIZE))
}

pub(super) fn max_file_bytes(kind: FileSystemKind) -> u64 {
    match kind {
        FileSystemKind::Ext3 => 2 * ByteSize::TIB,
        FileSystemKind::Ext4 => 16 * ByteSize::TIB,
        FileSystemKind::Xfs => 8 << 60,
    }
}

pub(super) fn max_links(kind: FileSystemKind) -> u32 {
    match kind {
        FileSystemKind::Ext3 => 32_000,
        FileSystemKind::Ext4 => 65_000,
        FileSystemKind::Xfs => u32::MAX - 1,
    }
}

/// Indirect blocks ext3 needs to map `n` data blocks (Linux: `ext3_block_to_path()`).
pub(super) fn ext3_indirect_blocks(n: u64) -> u64 {
    const P: u64 = EXT3_PTRS_PER_BLOCK;
    let mut left = n.saturating_sub(EXT3_DIRECT_BLOCKS);
    let mut meta = 0;
    // Single, double and triple indirect trees, each mapping P^depth blocks.
    for depth in 1..=3u32 {
        if left == 0 {
            break;
        }
        let here = left.min(P.pow(depth));
        // The tree's root, then every level below it down to the pointer blocks.
        for level in 0..depth {
            meta += here.div_ceil(P.pow(depth - level));
        }
        left -= here;
    }
    meta
}

/// Indirect blocks on the path to file block `block` (0 for a direct block).
pub(super) fn ext3_depth(block: u64) -> u64 {
    const P: u64 = EXT3_PTRS_PER_BLOCK;
    let b = block;
    if b < EXT3_DIRECT_BLOCKS {
        0
    } else if b < EXT3_DIRECT_BLOCKS + P {
        1
    } else if b < EXT3_DIRECT_BLOCKS + P + P * P {
        2
    } else {
        3
    }
}

/// Tree blocks and levels to hold `records` extents when `in_inode` fit in the inode
/// and `per_block` in a tree block (ext4's extent tree, XFS's BMBT).
pub(super) fn tree_shape(records: u64, in_inode: u64, per_block: u64) -> (u64, u64) {
    let (mut blocks, mut levels, mut level) = (0, 0, records);
    // Bounded: each level divides by per_block >= 2.
    while level > in_inode {
        level = level.div_ceil(per_block);
        blocks += level;
        levels += 1;
    }
    (blocks, levels)
}

pub(super) fn tree_params(kind: FileSystemKind) -> (u64, u64) {
    match kind {
        FileSystemKind::Xfs => (XFS_INODE_EXTENTS, XFS_RECORDS_PER_BLOCK),
        _ => (EXT4_INODE_EXTENTS, EXT4_EXTENTS_PER_BLOCK),
    }
}

pub(super) fn extent_count(inode: &Inode) -> u64 {
    match &inode.map {
        AllocMap::Indirect => 0,
        AllocMap::Extents(lens) => lens.len() as u64,
    }
}

/// Mapping blocks an inode holds besides its data.
pub(super) fn meta_blocks(kind: FileSystemKind, inode: &Inode) -> u64 {
    match &inode.map {
        AllocMap::Indirect => ext3_indirect_blocks(inode.data_blocks),
        AllocMap::Extents(lens) => {
            let (in_inode, per_block) = tree_params(kind);
            tree_shape(lens.len() as u64, in_inode, per_block).0
        }
    }
}

pub(super) fn whole_file_work(kind: FileSystemKind, inode: &Inode) -> FreeWork {
    FreeWork {
        data_blocks: inode.data_blocks,
        meta_blocks: meta_blocks(kind, inode),
        extents: extent_count(inode),
    }
}

/// Cuts an inode's map to `new_blocks` data blocks and says what that took: the blocks
/// and mapping blocks freed, plus the mapping blocks on the path to the new last block,
/// which are read and rewritten.
pub(super) fn shrink(kind: FileSystemKind, inode: &mut Inode, new_blocks: u64) -> FreeWork {
    if new_blocks >= inode.data_blocks {
        return FreeWork::default();
    }
    let meta_before = meta_blocks(kind, inode);
    let data_blocks = inode.data_blocks - new_blocks;
    let mut extents = 0;
    if let AllocMap::Extents(lens) = &mut inode.map {
        let mut total = inode.data_blocks;
        // Bounded by the extent count: each pass pops one or ends.
        while total > new_blocks {
            let Some(last) = lens.last_mut() else { break };
            let len = u64::from(*last);
            extents += 1;
            if total - len >= new_blocks {
                lens.pop();
                total -= len;
            } else {
                *last = (new_blocks - (total - len)) as u32;
                total = new_blocks;
            }
        }
        inode.tail_contiguous = true;
    }
    inode.data_blocks = new_blocks;
    let meta_after = meta_blocks(kind, inode);
    let path = match &inode.map {
        _ if new_blocks == 0 => 0,
        AllocMap::Indirect => ext3_depth(new_blocks - 1),
        AllocMap::Extents(lens) => {
            let (in_inode, per_block) = tree_params(kind);
            tree_shape(lens.len() as u64, in_inode, per_block).1
        }
    };
    FreeWork {
        data_blocks,
        meta_blocks: meta_before - meta_after + path,
        extents,
    }
}

/// Allocates `blocks` at the tail of an extent list. Without fragmentation the run
/// continues the last extent (up to `max_extent`, then new extents follow); with it,
/// each piece has `frag_pct`% chance of landing in a hole of at most
/// [`FRAGMENT_RUN_MAX_BLOCKS`], and whatever follows a hole starts a new extent.
pub(super) fn allocate_runs(
    lens: &mut Vec<u32>,
    tail_contiguous: &mut bool,
    blocks: u64,
    max_extent: u32,
    frag_pct: u64,
    rng: &mut SimRng,
) {
    let mut left = blocks;
    // Bounded: each piece takes at least one block.
    while left > 0 {
        let hole = frag_pct > 0 && rng.chance(frag_pct, 100);
        let (len, adjacent) = if hole {
            (1 + rng.below(left.min(FRAGMENT_RUN_MAX_BLOCKS)), false)
        } else {
            (left, *tail_contiguous)
        };
        push_run(lens, len, adjacent, max_extent);
        *tail_contiguous = !hole;
        left -= len;
    }
}

fn push_run(lens: &mut Vec<u32>, len: u64, adjacent: bool, max_extent: u32) {
    let mut left = len;
    if adjacent {
        if let Some(last) = lens.last_mut() {
            let take = left.min(u64::from(max_extent - *last));
            *last += take as u32;
            left -= take;
        }
    }
    while left > 0 {
        let take = left.min(u64::from(max_extent));
        lens.push(take as u32);
        left -= take;
    }
}
