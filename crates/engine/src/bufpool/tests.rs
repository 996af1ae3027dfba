//! Unit tests of the buffer pool: midpoint insertion, eviction, old-blocks time,
//! exact LRU, the DROP TABLE walk and sweep, instances, tablespace versions.

use super::*;

const T: SpaceId = SpaceId(1);

/// A replayed access to `space`'s page `page_no` at `at_ms` (old_blocks_time 1 s).
fn replay(pool: &mut BufPool, space: SpaceId, page_no: u32, at_ms: u32) {
    pool.replay_access(PageId { space, page_no }, at_ms, 1000);
}

fn read(pool: &mut BufPool, page_no: u32) -> FrameId {
    let page = PageId { space: T, page_no };
    let inst = pool.instance_of(page);
    let frame = match pool.get_free_block(inst, LRU_SEARCH_SCAN_THRESHOLD) {
        FreeBlock::FromFreeList(f) | FreeBlock::Evicted { frame: f, .. } => f,
        FreeBlock::NoneFound { .. } => panic!("no free block"),
    };
    pool.init_for_read(frame, page);
    pool.complete_read(frame);
    frame
}

#[test]
fn reads_go_in_at_the_midpoint_and_the_old_share_is_kept() {
    let mut pool = BufPool::new(2048, 1, 37);
    pool.register_space(T);
    for p in 0..1500 {
        read(&mut pool, p);
        if p % 97 == 0 {
            pool.validate();
        }
    }
    pool.validate();
    let inst = &pool.instances()[0];
    assert_eq!(inst.lru_len(), 1500);
    // 37% of 1500 = 555, within the tolerance.
    assert!(
        inst.lru_old_len().abs_diff(555) <= 25,
        "old len {}",
        inst.lru_old_len()
    );
    // The newest read sits just after LRU_old: it is old, not at the head.
    let mut cells = Vec::new();
    pool.lru_cells(0, &mut cells);
    assert!(!cells[0].old && cells[cells.len() - 549].old);
}

#[test]
fn a_full_pool_evicts_from_the_tail_and_reuses_frames() {
    let mut pool = BufPool::new(1024, 1, 37);
    pool.register_space(T);
    for p in 0..5000 {
        read(&mut pool, p);
    }
    pool.validate();
    assert_eq!(pool.pages_free(), 0);
    assert_eq!(pool.pages_data(), 1024);
    assert_eq!(pool.stats().evicted, 5000 - 1024);
    // Midpoint insertion: page 0..(young part) read first were pushed out long ago,
    // the latest page is resident.
    assert!(matches!(
        pool.lookup(PageId {
            space: T,
            page_no: 4999
        }),
        Lookup::Hit(_)
    ));
    assert_eq!(
        pool.lookup(PageId {
            space: T,
            page_no: 0
        }),
        Lookup::Miss
    );
}

#[test]
fn old_blocks_time_keeps_a_scan_from_making_pages_young() {
    let mut pool = BufPool::new(1024, 1, 37);
    pool.register_space(T);
    for p in 0..2000 {
        read(&mut pool, p);
    }
    let Lookup::Hit(f) = pool.lookup(PageId {
        space: T,
        page_no: 1999,
    }) else {
        panic!()
    };
    assert!(
        !pool.note_access(f, 10, 1000),
        "the first access stamps the time"
    );
    assert!(!pool.note_access(f, 500, 1000), "too soon: not made young");
    assert_eq!(pool.stats().not_made_young, 2);
    assert!(
        pool.note_access(f, 1010, 1000),
        "after old_blocks_time: make young"
    );
    pool.make_young(f);
    assert_eq!(pool.stats().made_young, 1);
    let mut cells = Vec::new();
    pool.lru_cells(0, &mut cells);
    assert!(!cells[0].old);
    pool.validate();
}

#[test]
fn exact_lru_evicts_the_least_recently_used_page() {
    let mut pool = BufPool::with_policy(1024, 1, 37, LruPolicy::Exact);
    pool.register_space(T);
    let page = |p| PageId {
        space: T,
        page_no: p,
    };
    for p in 0..1024 {
        assert!(!pool.replay_access(page(p), 0, 1000));
    }
    // Touch page 0: now page 1 is the least recently used.
    assert!(pool.replay_access(page(0), 0, 1000));
    assert!(!pool.replay_access(page(5000), 0, 1000));
    assert_eq!(pool.lookup(page(1)), Lookup::Miss);
    assert!(matches!(pool.lookup(page(0)), Lookup::Hit(_)));
    pool.validate();
}

#[test]
fn the_sweep_frees_every_version_of_a_space() {
    // Pages of T's first version (stale once its version is bumped, as an 8.0.23
    // TRUNCATE leaves them), of its second, and of another space: freeing T takes
    // both versions' pages (the sweep's many-slot path) and leaves the other's.
    let mut pool = BufPool::new(4096, 2, 37);
    pool.register_space(T);
    pool.register_space(SpaceId(2));
    let read = |pool: &mut BufPool, space, pages: std::ops::Range<u32>| {
        for p in pages {
            replay(pool, space, p, p);
        }
    };
    read(&mut pool, T, 0..800);
    pool.bump_space_version(T);
    read(&mut pool, T, 1000..1700);
    read(&mut pool, SpaceId(2), 0..900);
    assert_eq!(pool.count_space_pages(T), 1500);
    let freed: u32 = (0..2).map(|i| pool.remove_space_pages(i, T).0).sum();
    assert_eq!((freed, pool.count_space_pages(T)), (1500, 0));
    assert_eq!(pool.resident_pages(SpaceId(2)), 900);
    pool.validate();
}

#[test]
fn the_sweep_frees_the_same_pages_as_the_lru_walk() {
    let build = || {
        let mut pool = BufPool::new(4096, 2, 37);
        pool.register_space(T);
        pool.register_space(SpaceId(2));
        for p in 0..3000 {
            replay(&mut pool, if p % 3 == 0 { T } else { SpaceId(2) }, p, p);
        }
        pool
    };
    let mut walked = build();
    for i in 0..2 {
        let mut cursor = walked.lru_scan_start(i);
        while cursor != FRAME_NONE {
            walked.lru_remove_space_pages(i, &mut cursor, T, 100);
        }
    }
    let mut swept = build();
    let before = swept.count_space_pages(T);
    let freed: u32 = (0..2).map(|i| swept.remove_space_pages(i, T).0).sum();
    assert_eq!(u64::from(freed), before);
    assert_eq!(swept.count_space_pages(T), 0);
    assert_eq!(swept.pages_free(), walked.pages_free());
    assert_eq!(
        swept.resident_pages(SpaceId(2)),
        walked.resident_pages(SpaceId(2))
    );
    swept.validate();
}

#[test]
fn the_sweeps_frees_are_evict_locals() {
    // A pool whose LRU lists are long enough for the plain frees, with dirty pages,
    // pages with AHI entries, stale ones and pages under I/O among those freed: the
    // pass leaves the pool exactly as evict_local on each page found, in order.
    let mut pool = BufPool::new(8192, 2, 37);
    pool.register_space(T);
    pool.register_space(SpaceId(2));
    for p in 0..3000 {
        replay(&mut pool, T, p, p);
    }
    pool.bump_space_version(T);
    for p in 0..7000 {
        replay(
            &mut pool,
            if p % 3 == 0 { T } else { SpaceId(2) },
            p + 5000,
            p,
        );
    }
    for p in (5000..12000).step_by(7) {
        if let Lookup::Hit(f) = pool.lookup(PageId {
            space: T,
            page_no: p,
        }) {
            match p % 4 {
                0 => pool.mark_dirty(f, Lsn(u64::from(p))),
                1 => {
                    pool.ahi_mark(f, 1);
                }
                _ => {}
            }
        }
    }
    // Pages still being read.
    for p in 20_000..20_008 {
        let page = PageId {
            space: T,
            page_no: p,
        };
        let inst = pool.instance_of(page);
        if let FreeBlock::FromFreeList(f) | FreeBlock::Evicted { frame: f, .. } =
            pool.get_free_block(inst, LRU_SEARCH_SCAN_THRESHOLD)
        {
            pool.init_for_read(f, page);
        }
    }
    pool.validate();
    let mut reference = pool.clone();
    for i in 0..2 {
        assert_eq!(
            pool.remove_space_pages(i, T),
            reference.remove_space_pages_one_by_one(i, T)
        );
    }
    assert_eq!(format!("{pool:?}"), format!("{reference:?}"));
    pool.validate();
}

#[test]
fn instances_share_extents() {
    let pool = BufPool::new(8 * 1024, 8, 37);
    let inst = |p| {
        pool.instance_of(PageId {
            space: SpaceId(5),
            page_no: p,
        })
    };
    assert_eq!(inst(0), inst(63));
    assert_ne!(inst(63), inst(64));
    // fold = (5 << 20) + 5 + extent.
    assert_eq!(u64::from(inst(64)), ((5u64 << 20) + 5 + 1) % 8);
}

#[test]
fn a_version_bump_makes_pages_stale_and_eviction_reclaims_them() {
    let mut pool = BufPool::new(1024, 1, 37);
    pool.register_space(T);
    pool.register_space(SpaceId(2));
    for p in 0..600 {
        read(&mut pool, p);
    }
    let (v, n) = pool.bump_space_version(T);
    assert_eq!((v, n), (1, 600));
    assert_eq!(pool.pages_stale(), 600);
    assert!(matches!(
        pool.lookup(PageId {
            space: T,
            page_no: 3
        }),
        Lookup::Stale(_)
    ));
    pool.validate();
    // The page cleaner frees stale pages as it meets them at the tail.
    let mut writes = Vec::new();
    let batch = pool.lru_flush_batch(0, 1024, &mut writes);
    let (scanned, freed) = (batch.scanned, batch.freed);
    assert_eq!(scanned, freed);
    assert!(writes.is_empty(), "nothing dirty");
    assert_eq!(pool.pages_stale(), 600 - u64::from(freed));
    assert_eq!(pool.stats().stale_freed, u64::from(freed));
    pool.validate();
}

#[test]
fn a_full_lru_scan_frees_exactly_the_dropped_space() {
    let mut pool = BufPool::new(4096, 2, 37);
    pool.register_space(T);
    pool.register_space(SpaceId(2));
    for p in 0..1500 {
        read(&mut pool, p);
        let page = PageId {
            space: SpaceId(2),
            page_no: p,
        };
        let inst = pool.instance_of(page);
        let FreeBlock::FromFreeList(f) = pool.get_free_block(inst, 100) else {
            panic!()
        };
        pool.init_for_read(f, page);
        pool.complete_read(f);
    }
    let before = pool.pages_data();
    let mut freed_total = 0;
    for i in 0..2 {
        let mut cursor = pool.lru_scan_start(i);
        let len = pool.instances()[usize::from(i)].lru_len();
        let mut visited = 0;
        while cursor != FRAME_NONE {
            let (v, f, _) = pool.lru_remove_space_pages(i, &mut cursor, T, 100);
            visited += v;
            freed_total += f;
        }
        assert_eq!(visited, len, "the whole list is visited");
    }
    assert_eq!(freed_total, 1500);
    assert_eq!(pool.pages_data(), before - 1500);
    assert_eq!(pool.resident_pages(T), 0);
    assert_eq!(pool.resident_pages(SpaceId(2)), 1500);
    pool.validate();
}

/// `buf_flush_LRU_list_batch()`'s bounds, from one pool of 1,900 pages and 148 free
/// blocks: what one page-cleaner LRU batch does to a clean tail, a dirty one, and a
/// dirty one behind pages under I/O.
fn lru_batch(dirty: bool, io_fixed_at_tail: u32) -> (flush::LruBatch, u32) {
    let mut pool = BufPool::new(2048, 1, 37);
    pool.register_space(T);
    let frames: Vec<FrameId> = (0..1900).map(|p| read(&mut pool, p)).collect();
    if dirty {
        for (n, &f) in frames.iter().enumerate() {
            pool.mark_dirty(f, Lsn(n as u64 + 1));
        }
    }
    let mut b = pool.instances[0].lru_tail;
    for _ in 0..io_fixed_at_tail {
        pool.instances[0].blocks[b as usize].set(F_IO_READ, true);
        b = pool.instances[0].blocks[b as usize].prev;
    }
    assert_eq!(pool.pages_free(), 148);
    let mut writes = Vec::new();
    let batch = pool.lru_flush_batch(0, 1024, &mut writes);
    assert_eq!(writes.len() as u32, batch.writes);
    (batch, pool.instances()[0].free_len())
}

#[test]
fn an_lru_batch_refills_toward_the_scan_depth_and_writes_as_innodb_does() {
    // Clean: pages are freed until the free list holds innodb_lru_scan_depth.
    let (clean, free) = lru_batch(false, 0);
    assert_eq!(
        (clean.freed, clean.writes, clean.scanned, free),
        (876, 0, 876, 1024)
    );
    // Dirty: written pages are freed only when their writes complete, so the batch
    // goes on to `scan_depth` writes (not 1024 - 148).
    let (dirty, free) = lru_batch(true, 0);
    assert_eq!(
        (dirty.freed, dirty.writes, dirty.scanned, free),
        (0, 1024, 1024, 148)
    );
    // Blocks under I/O are walked past without counting toward the batch.
    let (fixed, _) = lru_batch(true, 300);
    assert_eq!((fixed.writes, fixed.scanned), (1024, 1324));
}

#[test]
fn prefetching_changes_no_access() {
    // Two pools replay the same trace (with evictions: 3,000 pages through 1,024
    // frames), one prefetching before each access: every access answers alike, and the
    // pools end with the same pages in the same LRU order and frames.
    let page = |p| PageId {
        space: T,
        page_no: p,
    };
    let trace: Vec<PageId> = (0..20_000u32)
        .map(|i| page(i.wrapping_mul(2_654_435_761) % 3000))
        .collect();
    for policy in [LruPolicy::Exact, LruPolicy::Midpoint] {
        let mut plain = BufPool::with_policy(1024, 2, 37, policy);
        let mut ahead = BufPool::with_policy(1024, 2, 37, policy);
        plain.register_space(T);
        ahead.register_space(T);
        for (i, &p) in trace.iter().enumerate() {
            ahead.replay_prefetch(super::REPLAY_PREFETCH, |k| trace.get(i + k).copied());
            let now_ms = i as u32 / 10 + 1;
            assert_eq!(
                plain.replay_access(p, now_ms, 1000),
                ahead.replay_access(p, now_ms, 1000)
            );
        }
        plain.validate();
        ahead.validate();
        for i in 0..2 {
            let order = |pool: &BufPool| pool.instances[i].lru_iter().collect::<Vec<_>>();
            assert_eq!(order(&plain), order(&ahead));
        }
        for p in 0..3000 {
            assert_eq!(plain.frame_of(page(p)), ahead.frame_of(page(p)));
        }
    }
}
