//! Property runs over random operation sequences on a small buffer pool: whatever the
//! order of reads, modifications, flushes, evictions, version bumps, tablespace drops,
//! lent frames and AHI marks, every invariant `BufPool::validate()` knows holds (every
//! frame in exactly one of free / LRU / lent; every dirty page once on its flush list,
//! in LSN order; stale and AHI counts exact), and the run is reproducible.
//!
//! To find the step that breaks an invariant, run with `PROPS_DEBUG=1`: every step is
//! printed and validated.

use ddlscope_engine::bufpool::{
    BufPool, CellKind, FreeBlock, Lookup, Lsn, PageId, SinglePageFlush, SpaceId,
};
use ddlscope_engine::rng::SimRng;

const SPACES: u32 = 4;
const PAGES_PER_SPACE: u32 = 3_000;

/// Runs `steps` random operations; returns a digest of the final pool.
fn run(seed: u64, steps: u32) -> Vec<(u16, Vec<(u32, u8)>)> {
    let mut rng = SimRng::stream(seed, "props");
    let instances = 1 + rng.below(3) as u16;
    let mut pool = BufPool::new(
        2_048 * u32::from(instances),
        instances,
        5 + rng.below(90) as u32,
    );
    for s in 1..=SPACES {
        pool.register_space(SpaceId(s), PAGES_PER_SPACE);
    }
    // A fifth space whose pages are read once each (its map grows as they come).
    pool.register_space(SpaceId(SPACES + 1), 1);
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
            }
            60..=74 => {
                if let Lookup::Hit(f) = pool.lookup(page) {
                    lsn += 1 + rng.below(500);
                    pool.mark_dirty(f, Lsn(lsn));
                }
            }
            75..=79 => {
                let mut w = Vec::new();
                pool.lru_flush_batch(inst, 1 + rng.below(300) as u32, &mut w);
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
                pool.bump_space_version(page.space);
            }
            91 => {
                // Drop a tablespace's pages, as 5.7's DROP does (pages under I/O stay).
                for i in 0..instances {
                    pool.remove_space_pages(i, page.space);
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
                    pool.free_stale(f);
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
        if step % 97 == 0 || std::env::var("PROPS_DEBUG").is_ok() {
            pool.validate();
        }
        // Counters add up: free + data + lent = total.
        assert_eq!(
            pool.pages_free() + pool.pages_data() + pool.pages_misc(),
            pool.pages_total(),
            "seed {seed} step {step}"
        );
    }
    for (f, evict) in writing {
        pool.complete_write(f, evict);
    }
    pool.validate();
    let mut cells = Vec::new();
    (0..instances)
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
            (i, kinds)
        })
        .collect()
}

#[test]
fn invariants_hold_under_random_operations_and_runs_reproduce() {
    for seed in 0..40 {
        let a = run(seed, 6_000);
        let b = run(seed, 6_000);
        assert_eq!(a, b, "reproduce with seed={seed}");
    }
}
