//! The map's pure parts: painting, the majority, the sweep, the layout, the tooltip.

use super::fit::{band_order, css_height, locate, Layout};
use super::paint::{swept, Mark, Shade, Swept};
use crate::canvas::theme::Theme;
use crate::model::inspect::describe;
use crate::model::runner::Runner;
use crate::model::spans::ScanSpan;
use ddlscope_engine::{Cell, CellKind, Sim, SpaceId, Tick};
use ddlscope_map::{paint_band, BandRect};
use Shade::{Clean, Dirty, Free, Freed, Io, Memory, Stale};

const T1: SpaceId = SpaceId(1);
const T2: SpaceId = SpaceId(2);

/// A hashed page.
fn ahi(shade: Shade) -> Mark {
    Mark { shade, ahi: true }
}

/// Paints `marks` into a `w`×`h` band and returns the letter of each pixel, row by
/// row: `1`/`2` clean of that space, `d`/`D` dirty of t1/t2, `a` a hashed clean t1
/// page's dot, `s` stale, `m` lent memory, `x` freed by a scan, `i` under I/O,
/// `.` free. The pattern pitch is so large that every pixel is a stripe and a dot.
fn check<M: Into<Mark> + Copy>(marks: &[M], w: usize, h: usize) -> Vec<String> {
    let theme = Theme::LIGHT;
    let mut img = vec![0u8; w * h * 4];
    let marks: Vec<Mark> = marks.iter().map(|m| (*m).into()).collect();
    paint_band(
        marks.len(),
        |j| marks[j],
        &theme,
        &mut img,
        w,
        BandRect {
            y0: 0,
            w,
            h,
            pattern_px: 3000,
        },
    );
    let letters = [
        ('.', theme.free),
        ('i', theme.io),
        ('1', theme.space(T1)),
        ('2', theme.space(T2)),
        ('d', theme.dirty_of(T1)),
        ('D', theme.dirty_of(T2)),
        ('a', theme.ahi_dot(theme.space(T1))),
        ('s', theme.stale_of(T1, true)),
        ('m', theme.memory),
        ('x', theme.freed),
    ];
    let name = |px: &[u8]| -> char {
        let c = [px[0], px[1], px[2]];
        letters
            .iter()
            .find(|(_, colour)| *colour == c)
            .map_or('?', |(l, _)| *l)
    };
    (0..h)
        .map(|y| (0..w).map(|x| name(&img[(y * w + x) * 4..])).collect())
        .collect()
}

/// An engine cell.
fn cell(kind: CellKind, space: SpaceId) -> Cell {
    Cell {
        space,
        kind,
        old: false,
        ahi: false,
    }
}

#[test]
fn columns_run_from_the_head_to_the_tail_then_lent_then_free_blocks() {
    // 8 cells in a 4×2 band: one cell a pixel, column by column.
    let cells = [
        Clean(T1),
        Clean(T1),
        Dirty(T1),
        Dirty(T2),
        Clean(T2),
        Memory,
        Free,
        Free,
    ];
    assert_eq!(check(&cells, 4, 2), ["1d2.", "1Dm."]);
}

#[test]
fn a_pixel_of_many_cells_shows_the_majority_and_ties_go_to_the_rarer_state() {
    // 4 pixels (4×1) over 16 cells: 4 cells a pixel.
    let cells = [
        [Clean(T1), Clean(T1), Clean(T1), Clean(T2)],
        [Clean(T2), Clean(T2), Clean(T2), Clean(T1)],
        [Clean(T2), Clean(T2), Stale(T1), Stale(T1)],
        [Free, Free, Io, Free],
    ]
    .concat();
    assert_eq!(check(&cells, 4, 1), ["12s."]);
    // Two cells a pixel, one of each: the rarer state wins every tie.
    let ties = [
        [Free, Clean(T1)],
        [Clean(T1), Dirty(T1)],
        [Dirty(T1), Memory],
        [Memory, Stale(T1)],
        [Stale(T1), Freed],
        [Freed, Io],
    ]
    .concat();
    assert_eq!(check(&ties, 6, 1), ["1dmsxi"]);
}

#[test]
fn hashed_pages_are_dotted_where_at_least_half_a_pixel_is_hashed() {
    let marks = [
        // One page a pixel: hashed, not hashed.
        ahi(Clean(T1)),
        Mark::from(Clean(T1)),
    ];
    assert_eq!(check(&marks, 2, 1), ["a1"]);
    // Three pixels of three pages: 2 of 3 hashed, 1 of 3, none.
    let marks = [
        [ahi(Clean(T1)), ahi(Clean(T1)), Clean(T1).into()],
        [ahi(Clean(T1)), Clean(T1).into(), Clean(T1).into()],
        [Clean(T1).into(), Clean(T1).into(), Clean(T1).into()],
    ]
    .concat();
    assert_eq!(check(&marks, 3, 1), ["a11"]);
    // Half of two pages.
    assert_eq!(check(&marks[2..4], 1, 1), ["a"]);
    // A state that has no index pages is never dotted.
    assert_eq!(
        check(
            &[Mark {
                shade: Memory,
                ahi: true
            }],
            1,
            1
        ),
        ["m"]
    );
}

#[test]
fn fewer_cells_than_pixels_stretch() {
    assert_eq!(check(&[Clean(T1), Free], 4, 1), ["11.."]);
}

#[test]
fn a_scan_frees_its_tablespace_behind_the_cursor_only() {
    use CellKind as K;
    // LRU of 6 (head first), then 1 lent frame and 1 free block; the cursor has
    // passed the last 3 LRU blocks.
    let cells = [
        cell(K::Clean, T1),
        cell(K::Clean, T2),
        cell(K::Dirty, T1),
        cell(K::Dirty, T1),
        cell(K::Io, T1),
        Cell {
            ahi: true,
            ..cell(K::Clean, T1)
        },
        cell(K::Memory, SpaceId(0)),
        cell(K::Free, SpaceId(0)),
    ];
    let passed = [Swept {
        lo: 3,
        hi: 6,
        space: T1,
    }];
    let shades: Vec<Shade> = cells
        .iter()
        .enumerate()
        .map(|(j, c)| Mark::of(c, j as u32, &passed).shade)
        .collect();
    assert_eq!(
        shades,
        [
            Clean(T1),
            Clean(T2),
            Dirty(T1),
            Freed,
            Io,
            Freed,
            Memory,
            Free
        ]
    );
    assert!(
        !Mark::of(&cells[5], 5, &passed).ahi,
        "a freed page has no dot"
    );
    assert!(Mark::of(&cells[5], 5, &[]).ahi);
}

#[test]
fn the_swept_stretch_grows_from_the_tail_while_the_scan_runs() {
    let scan = ScanSpan {
        instance: 2,
        space: T1,
        latch: ddlscope_engine::LatchId::BufPool(2),
        from: 0,
        to: 1000,
        t0: Tick::from_ms(10),
        t1: Tick::from_ms(20),
    };
    let scans = [scan.clone()];
    assert_eq!(
        swept(&scans, 1, 1000, Tick::from_ms(15)),
        [],
        "another instance"
    );
    assert_eq!(swept(&scans, 2, 1000, Tick::from_ms(9)), [], "not started");
    assert_eq!(swept(&scans, 2, 1000, Tick::from_ms(21)), [], "over");
    assert_eq!(
        swept(&scans, 2, 1000, Tick::from_ms(14)),
        [Swept {
            lo: 600,
            hi: 1000,
            space: T1
        }]
    );
    assert_eq!(swept(&scans, 2, 1000, scan.t1)[0].lo, 0, "the head at t1");
}

/// The marks of instance `i` as `draw` computes them.
fn marks_of(r: &Runner, i: u16) -> Vec<Mark> {
    let pool = r.sim().pool();
    let mut cells = Vec::new();
    pool.lru_cells(i, &mut cells);
    let now = r.sim().now();
    let passed = swept(
        r.scans(),
        i,
        pool.instances()[usize::from(i)].lru_len(),
        now,
    );
    cells
        .iter()
        .enumerate()
        .map(|(j, c)| Mark::of(c, j as u32, &passed))
        .collect()
}

#[test]
fn mid_sweep_on_57_the_dropped_table_vanishes_behind_the_cursor() {
    let mut r = Runner::new(crate::model::runner::DEFAULT_SCENARIO, "mysql-5.7", 0).unwrap();
    r.advance(100.0, &|| 0.0);
    r.execute("DROP TABLE t1").unwrap();
    // Into the first instance's scan (after dict_sys and the per-extent walk).
    for _ in 0..1000 {
        r.advance(1.0, &|| 0.0);
        r.digest();
        if !r.scans().is_empty() {
            break;
        }
    }
    let scan = r.scans()[0].clone();
    let t1 = r.sim().tables().find(|t| t.name == "t1").unwrap().space;
    assert_eq!(scan.space, t1);
    let i = scan.instance;
    // Halfway through the walk.
    let half = scan.t0 + Tick((scan.t1 - scan.t0).as_ns() / 2);
    r.advance((half - r.sim().now()).as_ns() as f64 / 1e6, &|| 0.0);
    r.digest();
    assert!(scan.active(r.sim().now()), "{scan:?} at {}", r.sim().now());
    let cursor = r.sim().pool().instances()[usize::from(i)]
        .lru_len()
        .saturating_sub(scan.visited(r.sim().now())) as usize;
    let marks = marks_of(&r, i);
    let is_t1 = |m: &Mark| matches!(m.shade, Clean(s) | Dirty(s) if s == t1);
    let (ahead, behind) = marks.split_at(cursor);
    assert!(
        ahead.iter().any(is_t1),
        "t1 still shows ahead of the cursor"
    );
    assert!(ahead.iter().all(|m| m.shade != Freed));
    assert!(
        !behind.iter().any(is_t1),
        "none of t1 left behind the cursor"
    );
    assert!(behind.iter().any(|m| m.shade == Freed));

    // After the scan the engine has freed them: nothing of t1 and nothing masked.
    r.advance(
        (scan.t1 - r.sim().now()).as_ns() as f64 / 1e6 + 1.0,
        &|| 0.0,
    );
    r.digest();
    let marks = marks_of(&r, i);
    assert!(!marks.iter().any(|m| is_t1(m) || m.shade == Freed));
}

#[test]
fn engine_cells_map_to_shades() {
    let mut s = ddlscope_engine::Scenario::builtin("drop-table-demo").unwrap();
    s.script.clear();
    let sim = Sim::new(s, ddlscope_engine::Profile::builtin("mysql-5.7").unwrap()).unwrap();
    let mut cells = Vec::new();
    sim.pool().lru_cells(0, &mut cells);
    let shades: Vec<Shade> = cells.iter().map(Shade::of).collect();
    assert_eq!(shades.len() as u32, sim.pool().instances()[0].size());
    assert_eq!(shades.last(), Some(&Free), "free blocks come last");
    assert!(shades.contains(&Clean(T1)) && shades.contains(&Clean(T2)));
    let kinds = |k| Shade::of(&cell(k, T1));
    assert_eq!(kinds(CellKind::Dirty), Dirty(T1));
    assert_eq!(kinds(CellKind::Memory), Memory);
    assert_eq!(kinds(CellKind::Stale), Stale(T1));
    assert_eq!(kinds(CellKind::Io), Io);
}

#[test]
fn a_point_finds_its_frame_and_the_tooltip_names_it() {
    let mut sim = Sim::builtin("drop-table-demo", Some("mysql-5.7")).unwrap();
    sim.run_for(Tick::from_secs(2));
    let pool = sim.pool();
    let sizes: Vec<u32> = pool.instances().iter().map(|i| i.size()).collect();
    let w = 800.0;
    let layout = Layout::new(4, 800, 1.0);
    let top1 = f64::from(layout.band_top(1));
    // The top left pixel of band 1 is its LRU head; the bottom right its last block.
    assert_eq!(locate(&sizes, w, 0.0, top1), Some((1, 0)));
    let (i, last) = locate(&sizes, w, 799.0, top1 + f64::from(layout.band_h) - 1.0).unwrap();
    assert_eq!(i, 1);
    assert!(last >= sizes[1] - sizes[1] / 1000, "{last}");
    assert_eq!(locate(&sizes, w, 10.0, 2.0), None, "the label row");
    assert_eq!(locate(&sizes, w, 900.0, top1), None, "outside");
    let head = pool.inspect(1, 0).unwrap();
    assert_eq!(head.lru_position, Some(0));
    let tables = crate::model::snapshot::table_infos(&sim);
    let text = describe(1, &head, &tables);
    assert!(text.starts_with("buf_pool[1] · t"), "{text}");
    assert!(
        text.contains(" page ") && text.contains("LRU position 0 (young)"),
        "{text}"
    );
    // The demo's pool is full: its last block is the LRU tail.
    let tail = pool.inspect(1, sizes[1] - 1).unwrap();
    assert_eq!(tail.lru_position, Some(sizes[1] - 1));
    assert!(tail.cell.old);
    assert_eq!(pool.inspect(1, sizes[1] + 5), None);
    let free = ddlscope_engine::FrameInfo {
        lru_position: None,
        cell: Cell {
            space: SpaceId(0),
            kind: CellKind::Free,
            old: false,
            ahi: false,
        },
        page_no: None,
        oldest_modification: None,
        version: 0,
    };
    assert_eq!(describe(3, &free, &tables), "buf_pool[3] · a free block");
}

#[test]
fn scanned_bands_come_first_then_the_others_in_turn() {
    assert_eq!(band_order(4, &[], 0), [0, 1, 2, 3]);
    assert_eq!(band_order(4, &[], 6), [2, 3, 0, 1], "next wraps");
    assert_eq!(
        band_order(4, &[3, 3], 1),
        [3, 1, 2, 0],
        "a scanned band once"
    );
    assert_eq!(band_order(1, &[], 5), [0]);
}

#[test]
fn the_layout_stacks_bands_under_their_labels() {
    let l = Layout::new(4, 800, 2.0);
    assert_eq!(l.band_h, 68);
    assert_eq!(l.band_top(0), 36);
    assert_eq!(l.band_top(1), 36 + ((18.0 + 34.0 + 8.0) * 2.0) as u32);
    assert_eq!(l.x_of(0, 100), 0.0);
    assert_eq!(l.x_of(50, 100), 400.0);
    assert!(css_height(4) >= 4.0 * (18.0 + 34.0));
}

#[test]
fn a_narrow_label_row_shortens_its_numbers_then_drops_them() {
    let counts = [
        ("LRU", 64_512),
        ("old", 23_794),
        ("free", 1_024),
        ("dirty", 0),
        ("stale", 15_531),
        ("AHI/lock", 0),
    ];
    assert_eq!(
        super::paint::label_forms(&counts),
        [
            "LRU 64,512 · old 23,794 · free 1,024 · stale 15,531",
            "LRU 65k · old 24k · free 1k · stale 16k",
            "LRU 65k · free 1k · stale 16k",
            "LRU 65k · free 1k",
            "",
        ]
    );
}
