//! A frame's state as the map draws it ([`Shade`], [`Mark`]), the stretch a running
//! scan has passed ([`Swept`]), and a pixel's majority over its frames.

use crate::scan::ScanSpan;
use crate::theme::{Rgb, Theme};
use ddlscope_engine::{Cell, CellKind, SpaceId, Tick};

/// A frame's state as the map draws it (and a pixel's, by majority).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shade {
    /// A free block.
    Free,
    /// A clean page of a live tablespace.
    Clean(SpaceId),
    /// A modified page, on the flush list.
    Dirty(SpaceId),
    /// A frame lent to the adaptive hash index or the lock heaps.
    Memory,
    /// A page of an old tablespace version.
    Stale(SpaceId),
    /// A page of the tablespace a running LRU scan frees, already passed by its cursor.
    Freed,
    /// A page being read or written.
    Io,
}

impl Shade {
    /// How a frame is drawn. Kinds this map does not know are drawn as their
    /// tablespace's pages (comparisons rather than a `match`, so a new kind in the
    /// engine does not break the app).
    pub fn of(cell: &Cell) -> Shade {
        if cell.kind == CellKind::Free {
            Shade::Free
        } else if cell.kind == CellKind::Memory {
            Shade::Memory
        } else if cell.kind == CellKind::Io {
            Shade::Io
        } else if cell.kind == CellKind::Stale {
            Shade::Stale(cell.space)
        } else if cell.kind == CellKind::Dirty {
            Shade::Dirty(cell.space)
        } else {
            Shade::Clean(cell.space)
        }
    }
    /// Which wins a tie: the rarer, more telling state.
    pub fn priority(self) -> u8 {
        match self {
            Shade::Free => 0,
            Shade::Clean(_) => 1,
            Shade::Dirty(_) => 2,
            Shade::Memory => 3,
            Shade::Stale(_) => 4,
            Shade::Freed => 5,
            Shade::Io => 6,
        }
    }
    /// Whether a page in this state can carry an AHI dot.
    pub fn hashable(self) -> bool {
        matches!(self, Shade::Clean(_) | Shade::Dirty(_) | Shade::Stale(_))
    }
    pub fn colour(self, theme: &Theme, stripe: bool) -> Rgb {
        match self {
            Shade::Free => theme.free,
            Shade::Clean(s) => theme.space(s),
            Shade::Dirty(s) => theme.dirty_of(s),
            Shade::Memory => theme.memory,
            Shade::Stale(s) => theme.stale_of(s, stripe),
            Shade::Freed => theme.freed,
            Shade::Io => theme.io,
        }
    }
}

/// The stretch of an instance's LRU list a running scan has passed: positions
/// `lo..hi` from the head, where the scan frees the pages of `space`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Swept {
    /// The cursor's position from the head.
    pub lo: u32,
    /// The end of the LRU list (the tail is `hi - 1`).
    pub hi: u32,
    /// The tablespace being freed.
    pub space: SpaceId,
}

/// What the scans of `instance` running at `now` have passed, on an LRU list of
/// `lru_len` blocks. Anchored at the tail, where the walk starts.
pub fn swept(scans: &[ScanSpan], instance: u16, lru_len: u32, now: Tick) -> Vec<Swept> {
    scans
        .iter()
        .filter(|s| s.instance == instance && s.active(now))
        .map(|s| Swept {
            lo: lru_len.saturating_sub(s.visited(now)),
            hi: lru_len,
            space: s.space,
        })
        .collect()
}

/// One frame as the map draws it: its shade and whether it carries AHI entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    /// The state.
    pub shade: Shade,
    /// Has adaptive-hash-index entries.
    pub ahi: bool,
}

impl From<Shade> for Mark {
    fn from(shade: Shade) -> Mark {
        Mark { shade, ahi: false }
    }
}

impl Mark {
    /// The frame at position `pos` (from the LRU head) holding `cell`, with the pages
    /// the running scans have passed shown as freed. Pages under I/O stay: the scan
    /// skips them (`buf_LRU_remove_all_pages()` rescans after a sleep).
    pub fn of(cell: &Cell, pos: u32, swept: &[Swept]) -> Mark {
        let shade = Shade::of(cell);
        let freed = matches!(shade, Shade::Clean(s) | Shade::Dirty(s)
            if swept.iter().any(|w| w.space == s && (w.lo..w.hi).contains(&pos)));
        if freed {
            Mark::from(Shade::Freed)
        } else {
            Mark {
                shade,
                ahi: cell.ahi,
            }
        }
    }
}

/// A pixel's summary of `marks`: the most common shade (ties to the higher priority),
/// and whether at least half the frames carry AHI entries.
pub fn majority(mut marks: impl Iterator<Item = Mark>) -> Mark {
    let Some(first) = marks.next() else {
        return Mark::from(Shade::Free);
    };
    // Most pixels are one shade throughout: counted without the tally.
    let (mut n, mut hashed) = (1u32, u32::from(first.ahi));
    for m in marks.by_ref() {
        if m.shade != first.shade {
            return tally(first.shade, (n, hashed), m, marks);
        }
        n += 1;
        hashed += u32::from(m.ahi);
    }
    summary(first.shade, n, hashed)
}

/// [`majority`] once a second shade shows: `first` seen `n` times so far (`hashed` of
/// them with AHI entries), then `other`, then the rest of `marks`.
fn tally(
    first: Shade,
    (mut n, mut hashed): (u32, u32),
    other: Mark,
    marks: impl Iterator<Item = Mark>,
) -> Mark {
    // A pixel covers a handful of frames and at most a few distinct shades.
    let mut seen: [(Shade, u32); 8] = [(Shade::Free, 0); 8];
    seen[0] = (first, n);
    let mut distinct = 1;
    for m in std::iter::once(other).chain(marks) {
        n += 1;
        hashed += u32::from(m.ahi);
        if let Some(slot) = seen[..distinct].iter_mut().find(|(k, _)| *k == m.shade) {
            slot.1 += 1;
        } else if distinct < seen.len() {
            seen[distinct] = (m.shade, 1);
            distinct += 1;
        }
    }
    let shade = seen[..distinct]
        .iter()
        .max_by_key(|(s, n)| (*n, s.priority()))
        .map_or(Shade::Free, |(s, _)| *s);
    summary(shade, n, hashed)
}

/// A pixel of `n` frames, `hashed` of them with AHI entries, drawn as `shade`.
fn summary(shade: Shade, n: u32, hashed: u32) -> Mark {
    Mark {
        shade,
        ahi: shade.hashable() && 2 * hashed >= n.max(1),
    }
}
