//! Property runs over random operation sequences on a small buffer pool: whatever the
//! order of reads, modifications, flushes, evictions, version bumps, tablespace drops,
//! lent frames and AHI marks, every invariant `BufPool::validate()` knows holds (every
//! block in exactly one of free / LRU / lent / buddy; every dirty page once on its flush
//! list, in LSN order; stale and AHI counts exact; compressed frames each in one buddy
//! slot, `unzip_LRU` exactly the pages with both frames), and the run is reproducible.
//! Two of the four tablespaces are ROW_FORMAT=COMPRESSED with a `KEY_BLOCK_SIZE` drawn
//! per seed, so compressed-only pages, decompressions and uncompressed-frame evictions
//! are mixed into every run.
//!
//! To find the step that breaks an invariant, run with `PROPS_DEBUG=1`: every step is
//! printed and validated.

use super::{BufPool, CellKind, FreeBlock, Lookup, Lsn, PageId, SinglePageFlush, SpaceId};
use crate::rng::SimRng;

const SPACES: u32 = 4;
const PAGES_PER_SPACE: u32 = 3_000;

/// What a run did with compressed pages: decompressions, uncompressed frames freed
/// from unzip_LRU, and the most compressed-only pages seen at once.
#[derive(Debug, Default, PartialEq)]
struct ZipActivity {
    unzipped: u64,
    unzip_evicted: u64,
    zip_only_max: u64,
}

/// The final pool's cells per instance: (instance, [(space, kind)]).
type Digest = Vec<(u16, Vec<(u32, u8)>)>;

/// Runs `steps` random operations; returns a digest of the final pool.
fn run(seed: u64, steps: u32) -> (Digest, ZipActivity) {
    let mut zip = ZipActivity::default();
    let mut rng = SimRng::stream(seed, "props");
    let instances = 1 + rng.below(3) as u16;
    let mut pool = BufPool::new(
        (100 + rng.below(700) as u32) * u32::from(instances),
        instances,
        5 + rng.below(90) as u32,
    );
    for s in 1..=SPACES {
        pool.register_space(SpaceId(s));
    }
    for s in [3, 4] {
        pool.set_space_zip_size(SpaceId(s), [1, 2, 4, 8, 16][rng.below(5) as usize]);
    }
    // A fifth space whose pages are read once each (its map grows as they come).
    pool.register_space(SpaceId(SPACES + 1));
    let mut lsn = 0u64;
    let mut writing: Vec<(u32, bool)> = Vec::new();
    for step in 0..steps {
        let page = PageId {
            space: SpaceId(1 + rng.below(u64::from(SPACES)) as u32),
            page_no: rng.below(u64::from(PAGES_PER_SPACE)) as u32,
        };
        let inst = pool.instance_of(page);
        let op = rng.below(100);
        if std::env::var("PROPS_DEBUG").is_ok() {
            eprintln!("step {step} op {op} page {page:?}");
        }
        match op {
            0..=59 => {
                pool.replay_access(page, step / 10 + 1, 1000);
                // A second page of a compressed space: the pool fills with compressed
                // pages and has to free uncompressed frames.
                let zip_page = PageId {
                    space: SpaceId(3 + rng.below(2) as u32),
                    page_no: rng.below(u64::from(PAGES_PER_SPACE)) as u32,
                };
                pool.replay_access(zip_page, step / 10 + 1, 1000);
            }
            60..=74 => {
                // A page is modified through its uncompressed frame.
                if let Lookup::Hit(f) = pool.lookup(page) {
                    if !pool.is_zip_only(f) {
                        lsn += 1 + rng.below(500);
                        pool.mark_dirty(f, Lsn(lsn));
                    }
                }
            }
            75..=79 => {
                let mut w = Vec::new();
                pool.lru_flush_batch(inst, 1 + rng.below(60) as u32, &mut w);
                writing.extend(w.into_iter().map(|f| (f, true)));
            }
            80..=84 => {
                let mut w = Vec::new();
                pool.flush_list_batch(inst, 1 + rng.below(100) as u32, Lsn(u64::MAX), &mut w);
                writing.extend(w.into_iter().map(|f| (f, false)));
            }
            85..=88 => {
                // Finish some of the writes in flight.
                let n = rng.below(writing.len() as u64 + 1) as usize;
                for (f, evict) in writing.drain(..n) {
                    pool.complete_write(f, evict);
                }
            }
            89 => {
                if let SinglePageFlush::Write { frame, .. } = pool.single_page_flush(inst) {
                    writing.push((frame, true));
                }
            }
            90 => {
                if rng.chance(1, 2) {
                    pool.bump_space_version(page.space);
                } else {
                    pool.lru_stat_update();
                }
            }
            91 => {
                // Drop a tablespace's pages, as 5.7's DROP does (pages under I/O stay);
                // rarely, so the pool fills and has to evict.
                if rng.chance(1, 40) {
                    // The same frees one by one through evict_local leave the same
                    // pool, descriptor for descriptor.
                    let mut reference = pool.clone();
                    for i in 0..instances {
                        assert_eq!(
                            pool.remove_space_pages(i, page.space),
                            reference.remove_space_pages_one_by_one(i, page.space)
                        );
                    }
                    assert_eq!(format!("{pool:?}"), format!("{reference:?}"));
                }
            }
            92..=93 => {
                pool.borrow_frames(inst, 1 + rng.below(20) as u32);
            }
            94..=95 => {
                pool.return_frames(inst, 1 + rng.below(20) as u32);
            }
            96..=97 => {
                if let Lookup::Hit(f) = pool.lookup(page) {
                    pool.ahi_mark(f, 1 + rng.below(2) as u8);
                }
            }
            98 => {
                if let Lookup::Hit(f) = pool.lookup(page) {
                    pool.ahi_unmark(f);
                }
            }
            _ => {
                if let Lookup::Stale(f) = pool.lookup(page) {
                    if pool.can_relocate(f) {
                        pool.free_stale(f);
                    }
                } else if pool.space_zip_kb(page.space) != 0 {
                    // A compressed-only read, then a decompression into a free block (which
                    // may free an uncompressed frame from unzip_LRU).
                    if pool.lookup(page) == Lookup::Miss {
                        pool.read_zip_page(page);
                    }
                    if let Lookup::Hit(z) = pool.lookup(page) {
                        if pool.is_zip_only(z) && pool.can_relocate(z) {
                            if let (Some(b), _) = pool.free_block_for_unzip(inst) {
                                match pool.lookup(page) {
                                    Lookup::Hit(z)
                                        if pool.is_zip_only(z) && pool.can_relocate(z) =>
                                    {
                                        pool.unzip(z, b)
                                    }
                                    _ => pool.init_for_read(
                                        b,
                                        PageId {
                                            space: SpaceId(SPACES + 1),
                                            page_no: step,
                                        },
                                    ),
                                }
                            }
                        }
                    }
                } else if let FreeBlock::FromFreeList(f) | FreeBlock::Evicted { frame: f, .. } =
                    pool.get_free_block(inst, 100)
                {
                    // Take a block and give it straight back as a read of this page.
                    if pool.lookup(page) == Lookup::Miss {
                        pool.init_for_read(f, page);
                        pool.complete_read(f);
                    } else {
                        pool.init_for_read(
                            f,
                            PageId {
                                space: SpaceId(SPACES + 1),
                                page_no: step,
                            },
                        );
                        pool.complete_read(f);
                    }
                }
            }
        }
        zip.zip_only_max = zip.zip_only_max.max(pool.pages_zip_only());
        if step % 97 == 0 || std::env::var("PROPS_DEBUG").is_ok() {
            pool.validate();
        }
        // Counters add up: free + data + lent + buddy = total, compressed-only pages
        // (on the LRU list, but owning no block) aside.
        assert_eq!(
            pool.pages_free() + pool.pages_data() - pool.pages_zip_only()
                + pool.pages_misc()
                + pool.pages_buddy(),
            pool.pages_total(),
            "seed {seed} step {step}"
        );
    }
    for (f, evict) in writing {
        pool.complete_write(f, evict);
    }
    pool.validate();
    zip.unzipped = pool.stats().unzipped;
    zip.unzip_evicted = pool.stats().unzip_evicted;
    let mut cells = Vec::new();
    let digest = (0..instances)
        .map(|i| {
            pool.lru_cells(i, &mut cells);
            let kinds = cells
                .iter()
                .map(|c| {
                    let k = match c.kind {
                        CellKind::Free => 0,
                        CellKind::Clean => 1,
                        CellKind::Dirty => 2,
                        CellKind::Stale => 3,
                        CellKind::Io => 4,
                        CellKind::Memory => 5,
                    };
                    (c.space.0, k)
                })
                .collect();
            assert_eq!(
                cells.len() as u64,
                pool.pages_total() / u64::from(instances)
            );
            (i, kinds)
        })
        .collect();
    (digest, zip)
}

#[test]
fn invariants_hold_under_random_operations_and_runs_reproduce() {
    let mut total = ZipActivity::default();
    for seed in 0..40 {
        let a = run(seed, 6_000);
        let b = run(seed, 6_000);
        assert_eq!(a, b, "reproduce with seed={seed}");
        total.unzipped += a.1.unzipped;
        total.unzip_evicted += a.1.unzip_evicted;
        total.zip_only_max = total.zip_only_max.max(a.1.zip_only_max);
    }
    // The runs did exercise the compressed-page paths.
    assert!(
        total.unzipped > 1000 && total.unzip_evicted > 100 && total.zip_only_max > 100,
        "{total:?}"
    );
}
