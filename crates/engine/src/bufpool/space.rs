//! Tablespaces as the pool knows them: each one's current version (MySQL 8.0.23,
//! WL#14100) and `KEY_BLOCK_SIZE`, and the *slots* a descriptor names its page's
//! tablespace by.
//!
//! A slot stands for one (tablespace, version) pair that has pages in the pool. A
//! descriptor keeps the 16-bit slot instead of a 32-bit space id and a 16-bit version,
//! which is what lets it fit the page hash's chain link in 28 bytes. Bumping a
//! tablespace's version retires its slot (every page in it is now stale, at once); the
//! next page read of that tablespace takes a fresh slot. A slot is handed back when its
//! last page leaves the pool, so the table holds only the versions that still have
//! pages: at most 65,535 at once.
//!
//! Each instance counts its pages per slot, so that a version bump adds exactly the
//! newly stale pages to each instance's stale count.

use super::{BufPool, SpaceId};
use std::collections::BTreeMap;

/// A slot number; [`NO_SLOT`] for none.
pub(super) type Slot = u16;

/// No slot: the tablespace has no page of its current version in the pool.
const NO_SLOT: Slot = Slot::MAX;

/// One tablespace.
#[derive(Clone, Debug, Default)]
pub(super) struct SpaceInfo {
    /// The version (`fil_space_t::m_version`), bumped by DROP and TRUNCATE.
    pub(super) version: u16,
    /// 0 for an uncompressed tablespace, else the compressed frame's size class + 1.
    pub(super) zip_class: u8,
    /// The slot of the current version's pages, if it has any in the pool.
    slot: Option<Slot>,
}

/// What a slot stands for.
#[derive(Clone, Copy, Debug)]
pub(super) struct SlotInfo {
    pub(super) space: SpaceId,
    pub(super) version: u16,
    /// The tablespace's current version: false once bumped (its pages are stale).
    pub(super) current: bool,
    /// Descriptors holding a page of this slot, over every instance.
    pages: u64,
}

/// Every tablespace the pool was told of, and the slots of those with pages.
#[derive(Clone, Debug, Default)]
pub(super) struct Spaces {
    by_id: BTreeMap<SpaceId, SpaceInfo>,
    slots: Vec<SlotInfo>,
    free_slots: Vec<Slot>,
    /// The slot `take` gave last: most reads are of the tablespace the last one was.
    last_taken: Slot,
    /// Some tablespace was declared compressed: until then a page access need not look
    /// its tablespace up to know it is not.
    pub(super) any_zip: bool,
}

impl Spaces {
    pub(super) fn get(&self, space: SpaceId) -> Option<&SpaceInfo> {
        self.by_id.get(&space)
    }

    pub(super) fn entry(&mut self, space: SpaceId) -> &mut SpaceInfo {
        self.by_id.entry(space).or_default()
    }

    /// What slot `s` stands for.
    #[inline]
    pub(super) fn slot(&self, s: Slot) -> &SlotInfo {
        &self.slots[usize::from(s)]
    }

    /// For each slot, whether it is one of `space`'s versions: what a sweep over the
    /// descriptors tests each page against.
    pub(super) fn slots_of(&self, space: SpaceId) -> Vec<bool> {
        self.slots
            .iter()
            .map(|s| s.pages > 0 && s.space == space)
            .collect()
    }

    /// Registered tablespaces.
    pub(super) fn len(&self) -> usize {
        self.by_id.len()
    }

    /// Bytes these tables hold.
    pub(super) fn bytes(&self) -> u64 {
        let entry = std::mem::size_of::<(SpaceId, SpaceInfo)>() as u64;
        self.by_id.len() as u64 * entry
            + self.slots.capacity() as u64 * std::mem::size_of::<SlotInfo>() as u64
            + self.free_slots.capacity() as u64 * 2
    }

    /// The slot a page of `space` read now goes in (its current version's), counted
    /// as one page more. The tablespace must be registered.
    fn take(&mut self, space: SpaceId) -> Slot {
        // A current slot with pages is its tablespace's current one (`validate`
        // checks it), so the last slot taken answers without the map when it is one.
        if let Some(slot) = self.slots.get_mut(usize::from(self.last_taken)) {
            if slot.space == space && slot.current && slot.pages > 0 {
                slot.pages += 1;
                return self.last_taken;
            }
        }
        let info = self
            .by_id
            .get_mut(&space)
            .expect("page of an unregistered tablespace");
        let s = match info.slot {
            Some(s) => s,
            None => {
                let slot = SlotInfo {
                    space,
                    version: info.version,
                    current: true,
                    pages: 0,
                };
                let s = match self.free_slots.pop() {
                    Some(s) => {
                        self.slots[usize::from(s)] = slot;
                        s
                    }
                    None => {
                        let s = Slot::try_from(self.slots.len())
                            .ok()
                            .filter(|&s| s != NO_SLOT)
                            .expect(
                                "at most 65,535 tablespace versions have pages in the pool at once",
                            );
                        self.slots.push(slot);
                        s
                    }
                };
                info.slot = Some(s);
                s
            }
        };
        self.slots[usize::from(s)].pages += 1;
        self.last_taken = s;
        s
    }

    /// A page of slot `s` left the pool; the slot is freed with its last page.
    pub(super) fn give_back(&mut self, s: Slot) {
        let slot = &mut self.slots[usize::from(s)];
        slot.pages -= 1;
        if slot.pages == 0 {
            if slot.current {
                if let Some(info) = self.by_id.get_mut(&slot.space) {
                    info.slot = None;
                }
            }
            self.free_slots.push(s);
        }
    }

    /// The current version's slot of `space` is retired: its pages are stale. Returns
    /// the slot, if the version had pages.
    fn retire(&mut self, space: SpaceId) -> Option<Slot> {
        let s = self.by_id.get_mut(&space)?.slot.take()?;
        self.slots[usize::from(s)].current = false;
        Some(s)
    }

    /// Pages of `space` in the pool, every version.
    pub(super) fn resident(&self, space: SpaceId) -> u64 {
        self.live_slots()
            .filter(|(_, s)| s.space == space)
            .map(|(_, s)| s.pages)
            .sum()
    }

    /// The slots in use.
    fn live_slots(&self) -> impl Iterator<Item = (Slot, &SlotInfo)> {
        self.slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.pages > 0)
            .map(|(i, s)| (i as Slot, s))
    }

    /// Checks the slot table against the pages counted per slot over the pool.
    pub(super) fn validate(&self, counted: &[u64]) {
        for (s, slot) in self.slots.iter().enumerate() {
            let n = counted.get(s).copied().unwrap_or(0);
            assert_eq!(n, slot.pages, "slot {s} ({:?}): pages", slot.space);
        }
        for (id, info) in &self.by_id {
            if let Some(s) = info.slot {
                let slot = self.slot(s);
                assert!(slot.current && slot.space == *id && slot.pages > 0);
                assert_eq!(slot.version, info.version, "{id:?}: current slot's version");
            }
        }
        for (s, slot) in self.live_slots() {
            assert_eq!(
                slot.current,
                self.by_id[&slot.space].slot == Some(s),
                "{:?}: current flag",
                slot.space
            );
        }
    }
}

impl BufPool {
    /// A page of `space` now has a descriptor in instance `i`: its slot.
    pub(super) fn slot_in(&mut self, i: usize, space: SpaceId) -> Slot {
        let s = self.spaces.take(space);
        let counts = &mut self.instances[i].slot_pages;
        if counts.len() <= usize::from(s) {
            counts.resize(usize::from(s) + 1, 0);
        }
        counts[usize::from(s)] += 1;
        s
    }

    /// A page of slot `s` left instance `i`.
    pub(super) fn slot_out(&mut self, i: usize, s: Slot) {
        self.instances[i].slot_pages[usize::from(s)] -= 1;
        self.spaces.give_back(s);
    }

    /// WL#14100 `fil_space_t::bump_version()`: every frame of the space becomes stale.
    /// Returns the new version and how many frames just became stale.
    ///
    /// Versions are 16 bits as numbers (what `space_version` and a frame's inspection
    /// report), but staleness is the slot's: a page never looks current again.
    pub fn bump_space_version(&mut self, space: SpaceId) -> (u32, u64) {
        let Some(info) = self.spaces.by_id.get_mut(&space) else {
            return (0, 0);
        };
        info.version = info.version.wrapping_add(1);
        let version = u32::from(info.version);
        let Some(s) = self.spaces.retire(space) else {
            return (version, 0);
        };
        let mut became_stale = 0u64;
        for inst in &mut self.instances {
            let n = inst.slot_pages.get(usize::from(s)).copied().unwrap_or(0);
            inst.stale_len += n;
            became_stale += u64::from(n);
        }
        (version, became_stale)
    }

    /// Registers a tablespace at version 0.
    pub fn register_space(&mut self, space: SpaceId) {
        self.spaces.entry(space);
    }

    /// Registered tablespaces (dropped ones included: a few bytes each).
    pub fn tablespaces(&self) -> usize {
        self.spaces.len()
    }

    /// The current version of a tablespace.
    pub fn space_version(&self, space: SpaceId) -> u32 {
        self.spaces.get(space).map_or(0, |s| u32::from(s.version))
    }

    /// Pages of `space` resident in the pool (any version).
    pub fn resident_pages(&self, space: SpaceId) -> u64 {
        self.spaces.resident(space)
    }
}
